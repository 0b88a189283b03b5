/**
 * The `_script` sort (ScriptSortBuilder.fromXContent): `script`, `type` (`number` or `string`),
 * `order`, `mode`; each document sorts by the script's value.
 */
import { illegalArgument, notImplemented } from '../errors/catalogue.ts';
import { parsingError } from '../query/local-errors.ts';
import { here, type ParseCtx } from '../query/parse-context.ts';
import type { ScriptSpec } from '../script/script-spec.ts';
import { parseScriptSpec } from '../script/script-spec.ts';
import type { SortMode, SortOrder, SortSpec } from './sort-spec.ts';

export interface ScriptSortOptions {
  script: ScriptSpec;
  type: 'number' | 'string';
}

export function parseScriptSort(
  ctx: ParseCtx,
  body: Record<string, unknown>,
  sortOrder: (s: string) => SortOrder,
  sortMode: (s: string) => SortMode,
): SortSpec {
  let script: ScriptSpec | undefined;
  let type: ScriptSortOptions['type'] | undefined;
  let order: SortOrder = 'asc';
  let mode: SortMode | undefined;
  for (const [key, v] of Object.entries(body)) {
    switch (key) {
      case 'script':
        ctx.path.push(key);
        try {
          script = parseScriptSpec(ctx, v);
        } catch (e) {
          here(ctx, 'value');
          throw e;
        } finally {
          ctx.path.pop();
        }
        break;
      case 'type': {
        const t = String(v).toLowerCase();
        if (t === 'version') throw notImplemented('the [version] type of the [_script] sort');
        if (t !== 'number' && t !== 'string') throw illegalArgument(`Unknown ScriptSortType [${String(v)}]`);
        type = t;
        break;
      }
      case 'order':
        order = sortOrder(String(v));
        break;
      case 'mode':
        mode = sortMode(String(v));
        if (mode === 'median') throw illegalArgument('script sort does not support mode [median]');
        break;
      case 'nested':
        throw notImplemented('the [nested] option of the [_script] sort');
      default:
        throw parsingError(`[_script] unknown field [${key}]`, here(ctx, 'value', key));
    }
  }
  if (script === undefined || type === undefined) {
    const missing = [script === undefined ? 'script' : '', type === undefined ? 'type' : ''].filter(Boolean);
    throw illegalArgument(`Required [${missing.join(', ')}]`);
  }
  const spec: SortSpec = {
    kind: 'field',
    field: '_script',
    order,
    missing: '_last',
    script: { script, type },
  };
  if (mode !== undefined) spec.mode = mode;
  return spec;
}
