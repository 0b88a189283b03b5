/**
 * `script_fields` (SearchSourceBuilder.ScriptField.fromXContent): per name, an object with a
 * `script` and `ignore_failure`; each hit gets the script's values under `fields.<name>`.
 */
import { parsingError } from '../query/local-errors.ts';
import { here, isObject, type ParseCtx, tokenOf } from '../query/parse-context.ts';
import { parseScriptSpec, type ScriptSpec } from '../script/script-spec.ts';

export interface ScriptField {
  name: string;
  script: ScriptSpec;
  ignoreFailure: boolean;
}

export function readScriptFields(
  ctx: ParseCtx,
  v: Record<string, unknown>,
  warnings: string[],
): ScriptField[] {
  const out: ScriptField[] = [];
  for (const [name, body] of Object.entries(v)) {
    if (!isObject(body)) {
      throw parsingError(
        `Expected [START_OBJECT] in [script_fields] but found [${tokenOf(body)}]`,
        here(ctx, 'value', name),
      );
    }
    ctx.path.push(name);
    let script: ScriptSpec | undefined;
    let ignoreFailure = false;
    for (const [key, x] of Object.entries(body)) {
      if (key === 'script') {
        ctx.path.push(key);
        try {
          script = parseScriptSpec(ctx, x, warnings);
        } catch (e) {
          here(ctx, 'value');
          throw e;
        } finally {
          ctx.path.pop();
        }
      } else if (key === 'ignore_failure' && typeof x === 'boolean') {
        ignoreFailure = x;
      } else {
        throw parsingError(
          `Unknown key for a ${tokenOf(x)} in [${name}]: [${key}].`,
          here(ctx, 'value', key),
        );
      }
    }
    if (script === undefined) throw parsingError(`Required [script]`, here(ctx, 'end'));
    ctx.path.pop();
    out.push({ name, script, ignoreFailure });
  }
  return out;
}
