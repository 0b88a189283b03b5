/**
 * The `script` query (ScriptQueryBuilder.fromXContent): `script` (a string or an object) and
 * `boost`, `_name`; a document matches when the script returns true.
 */

import { parseScriptSpec, type ScriptSpec } from '../script/script-spec.ts';
import type { QueryNode } from './ast.ts';
import { parsingError } from './local-errors.ts';
import { here, type ParseCtx, tokenOf } from './parse-context.ts';
import { floatValue, text } from './xcontent-values.ts';

export function parseScriptQuery(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let script: ScriptSpec | undefined;
  let boost = 1;
  for (const [key, v] of Object.entries(body)) {
    if (key === 'script') {
      ctx.path.push(key);
      try {
        script = parseScriptSpec(ctx, v);
      } catch (e) {
        here(ctx, 'value');
        throw e;
      } finally {
        ctx.path.pop();
      }
    } else if (key === 'boost') boost = floatValue(ctx, v, key);
    else if (key === '_name') text(ctx, v, key);
    else if (typeof v === 'object' && v !== null) {
      throw parsingError(`[script] unknown token [${tokenOf(v)}] after [${key}]`, here(ctx, 'value', key));
    } else throw parsingError(`[script] query does not support [${key}]`, here(ctx, 'value', key));
  }
  if (script === undefined)
    throw parsingError('script must be provided with a [script] query', here(ctx, 'end'));
  return { type: 'script', script, boost };
}
