/**
 * The `fuzzy` query, as Elasticsearch 8's FuzzyQueryBuilder.fromXContent: `{"f": value}` or
 * `{"f": {"value": …, "fuzziness": …, "prefix_length": …, "max_expansions": …,
 * "transpositions": …, "rewrite": …, "boost": …}}`, one field only, then the constructor's checks.
 */
import type { JsonScalar, QueryNode } from './ast.ts';
import { fuzziness } from './full-text.ts';
import { parsingError } from './local-errors.ts';
import { here, isObject, isValue, type ParseCtx, tokenOf } from './parse-context.ts';
import { checkSingleField, ctorError } from './term-level.ts';
import { booleanValue, floatValue, intValue, objectText, text, textOrNull } from './xcontent-values.ts';

type FuzzyNode = Extract<QueryNode, { type: 'fuzzy' }>;

export function parseFuzzy(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let field: string | undefined;
  let value: JsonScalar | undefined;
  const node: FuzzyNode = {
    type: 'fuzzy',
    field: '',
    value: null,
    fuzziness: 'AUTO',
    prefixLength: 0,
    maxExpansions: 50,
    transpositions: true,
    boost: 1,
  };
  for (const key of Object.keys(body)) {
    const v = body[key];
    checkSingleField(ctx, 'fuzzy', field, key);
    field = key;
    if (!isObject(v)) {
      value = objectText(ctx, v, key);
      continue;
    }
    ctx.path.push(key);
    for (const ik of Object.keys(v)) {
      const iv = v[ik];
      if (!isValue(iv) && iv !== null) {
        throw parsingError(`[fuzzy] unexpected token [${tokenOf(iv)}] after [${ik}]`, here(ctx, 'value', ik));
      }
      switch (ik) {
        case 'term':
        case 'value':
          value = objectText(ctx, iv, ik);
          break;
        case 'boost':
          node.boost = floatValue(ctx, iv, ik);
          break;
        case 'fuzziness':
          node.fuzziness = fuzziness(ctx, iv, ik);
          break;
        case 'prefix_length':
          node.prefixLength = intValue(ctx, iv, ik);
          break;
        case 'max_expansions':
          node.maxExpansions = intValue(ctx, iv, ik);
          break;
        case 'transpositions':
          node.transpositions = booleanValue(ctx, iv, ik);
          break;
        case 'rewrite': {
          const rewrite = textOrNull(ctx, iv, ik);
          if (rewrite === null) delete node.rewrite;
          else node.rewrite = rewrite;
          break;
        }
        case '_name':
          text(ctx, iv, ik);
          break;
        default:
          throw parsingError(`[fuzzy] query does not support [${ik}]`, here(ctx, 'value', ik));
      }
    }
    ctx.path.pop();
  }
  if (!field) throw ctorError(ctx, 'field name cannot be null or empty');
  if (value === undefined || value === null) throw ctorError(ctx, 'query value cannot be null');
  node.field = field;
  node.value = value;
  return node;
}
