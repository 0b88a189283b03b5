/**
 * `combined_fields`: CombinedFieldsQueryBuilder's ConstructingObjectParser. `query` (a string)
 * is required; `fields` are strings or an array of them, `name^boost` read by
 * QueryParserHelper.parseFieldsAndWeights (a repeated name multiplies its boosts), and every
 * boost must be at least 1 (Lucene's CombinedFieldQuery cannot weigh a field down). A check
 * that fails inside a field's parser is wrapped in `[combined_fields] failed to parse field`.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import type { FieldBoost, QueryNode } from './ast.ts';
import { parseOperator } from './full-text.ts';
import { xContentParseError } from './local-errors.ts';
import { assertSupports, here, type ParseCtx, parseField, unknownField, VT } from './parse-context.ts';
import { booleanValue, floatValue, javaParseDouble, text, textOrNull } from './xcontent-values.ts';

const NAME = 'combined_fields';
const FIELDS = [
  'query',
  'fields',
  'operator',
  'minimum_should_match',
  'auto_generate_synonyms_phrase_query',
  'zero_terms_query',
  'boost',
  '_name',
];
const INT_OR_NULL = new Set(['VALUE_NUMBER', 'VALUE_STRING', 'VALUE_NULL'] as const);

type CombinedFields = Extract<QueryNode, { type: 'combined_fields' }>;

export function parseCombinedFields(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let query: string | undefined;
  const fields = new Map<string, number>();
  const node: CombinedFields = {
    type: 'combined_fields',
    query: '',
    fields: [],
    operator: 'or',
    zeroTermsQuery: 'none',
    boost: 1,
  };
  for (const key of Object.keys(body)) {
    const v = body[key];
    switch (key) {
      case 'query':
        assertSupports(ctx, NAME, key, v, VT.STRING);
        query = parseField(ctx, NAME, key, () => text(ctx, v));
        break;
      case 'fields': {
        assertSupports(ctx, NAME, key, v, VT.STRING_ARRAY);
        const names = Array.isArray(v) ? v : [v];
        parseField(ctx, NAME, key, () => {
          const parsed = new Map<string, number>();
          names.forEach((raw, i) => {
            const s = text(ctx, raw, i);
            const caret = s.indexOf('^');
            const name = caret === -1 ? s : s.slice(0, caret);
            let boost = caret === -1 ? 1 : Math.fround(javaParseDouble(s.slice(caret + 1)));
            const before = parsed.get(name);
            if (before !== undefined) boost = Math.fround(boost * before);
            parsed.set(name, boost);
          });
          // The builder takes the fields once the array was read: the parser is on its `]`.
          for (const boost of parsed.values()) {
            if (boost < 1) here(ctx, 'end');
            if (boost < 1) throw illegalArgument(`[${NAME}] requires field boosts to be >= 1.0`);
          }
          for (const [name, boost] of parsed) fields.set(name, boost);
        });
        break;
      }
      case 'operator':
        assertSupports(ctx, NAME, key, v, VT.STRING);
        node.operator = parseField(ctx, NAME, key, () => parseOperator(text(ctx, v)));
        break;
      case 'minimum_should_match': {
        assertSupports(ctx, NAME, key, v, INT_OR_NULL);
        const msm = textOrNull(ctx, v, key);
        if (msm === null) delete node.minimumShouldMatch;
        else node.minimumShouldMatch = msm;
        break;
      }
      case 'auto_generate_synonyms_phrase_query':
        assertSupports(ctx, NAME, key, v, VT.BOOLEAN);
        parseField(ctx, NAME, key, () => booleanValue(ctx, v));
        break;
      case 'zero_terms_query':
        assertSupports(ctx, NAME, key, v, VT.STRING);
        node.zeroTermsQuery = parseField(ctx, NAME, key, () => {
          const s = text(ctx, v);
          const lower = s.toLowerCase();
          if (lower === 'none' || lower === 'all') return lower;
          throw illegalArgument(`Unsupported [zero_terms_query] value [${s}]`);
        });
        break;
      case 'boost':
        assertSupports(ctx, NAME, key, v, VT.FLOAT);
        node.boost = parseField(ctx, NAME, key, () => floatValue(ctx, v));
        break;
      case '_name':
        assertSupports(ctx, NAME, key, v, VT.STRING);
        break;
      default:
        throw unknownField(ctx, NAME, key, FIELDS);
    }
  }
  if (query === undefined) throw xContentParseError('Required [query]', here(ctx, 'end'));
  node.query = query;
  node.fields = [...fields].map(([field, boost]): FieldBoost => ({ field, boost }));
  return node;
}
