/**
 * `terms_set`: TermsSetQueryBuilder.fromXContent. One field, whose object holds `terms` (an
 * array read as TermsQueryBuilder.parseValues reads it), `minimum_should_match_field` or
 * `minimum_should_match_script`, `boost` and `_name`. Scripts are not run by Shoal: a
 * `minimum_should_match_script` answers 501.
 */
import { illegalArgument, notImplemented } from '../errors/catalogue.ts';
import type { JsonScalar, QueryNode } from './ast.ts';
import { parsingError } from './local-errors.ts';
import { here, isObject, isValue, type ParseCtx, tokenOf } from './parse-context.ts';
import { termsValues } from './term-level.ts';
import { floatValue, text } from './xcontent-values.ts';

export function parseTermsSet(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  const keys = Object.keys(body);
  const field = keys[0];
  if (field === undefined) throw parsingError('[terms_set] unknown token [END_OBJECT]', here(ctx, 'end'));
  const inner = body[field];
  if (!isObject(inner)) {
    throw parsingError(`[terms_set] unknown token [${tokenOf(inner)}]`, here(ctx, 'value', field));
  }
  ctx.path.push(field);
  let values: JsonScalar[] = [];
  let msmField: string | undefined;
  let script = false;
  let boost = 1;
  for (const key of Object.keys(inner)) {
    const v = inner[key];
    if (Array.isArray(v)) {
      if (key !== 'terms')
        throw parsingError(`[terms_set] query does not support [${key}]`, here(ctx, 'value', key));
      values = termsValues(ctx, key, v);
    } else if (isObject(v)) {
      if (key !== 'minimum_should_match_script') {
        throw parsingError(`[terms_set] query does not support [${key}]`, here(ctx, 'value', key));
      }
      script = true;
    } else if (isValue(v)) {
      if (key === 'minimum_should_match_field') msmField = text(ctx, v, key);
      else if (key === 'boost') boost = floatValue(ctx, v, key);
      else if (key === '_name') text(ctx, v, key);
      else throw parsingError(`[terms_set] query does not support [${key}]`, here(ctx, 'value', key));
    } else {
      throw parsingError(`[terms_set] unknown token [${tokenOf(v)}] after [${key}]`, here(ctx, 'value', key));
    }
  }
  ctx.path.pop();
  if (keys.length > 1) {
    throw parsingError('[terms_set] unknown token [FIELD_NAME]', here(ctx, 'key', keys[1]!));
  }
  // The builder takes the field first, then refuses the script next to it.
  if (msmField !== undefined && script) {
    here(ctx, 'end');
    throw illegalArgument('A field has already been specified. Cannot specify both a field and script');
  }
  if (script) {
    here(ctx, 'value', field);
    throw notImplemented('the [minimum_should_match_script] of the [terms_set] query');
  }
  return {
    type: 'terms_set',
    field,
    values,
    ...(msmField !== undefined && { minimumShouldMatchField: msmField }),
    boost,
  };
}
