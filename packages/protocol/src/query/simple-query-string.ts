/**
 * simple_query_string (SimpleQueryStringBuilder.fromXContent): the query text is kept as sent
 * for the shards to parse; here its options are read and checked.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import type { FieldBoost, QueryNode } from './ast.ts';
import { isAllFields, parseOperator, toFieldBoosts } from './full-text.ts';
import { parsingError } from './local-errors.ts';
import { here, isValue, onValue, type ParseCtx, tokenOf } from './parse-context.ts';
import { booleanValue, floatValue, intValue, javaParseDouble, text, textOrNull } from './xcontent-values.ts';

/** SimpleQueryStringFlag values. */
const SQS_FLAGS: Record<string, number> = {
  ALL: -1,
  NONE: 0,
  AND: 1 << 0,
  NOT: 1 << 1,
  OR: 1 << 2,
  PREFIX: 1 << 3,
  PHRASE: 1 << 4,
  PRECEDENCE: 1 << 5,
  ESCAPE: 1 << 6,
  WHITESPACE: 1 << 7,
  FUZZY: 1 << 8,
  NEAR: 1 << 9,
  SLOP: 1 << 9,
};

/** SimpleQueryStringFlag.resolveFlags: `AND|OR|PREFIX`; NONE and ALL win outright. */
function resolveFlags(flags: string): number {
  if (flags.length === 0) return -1;
  let magic = 0;
  for (const s of flags.split('|')) {
    if (s.length === 0) continue;
    const flag = SQS_FLAGS[s.toUpperCase()];
    if (flag === undefined) throw illegalArgument(`Unknown simple_query_string flag [${s}]`);
    if (flag === 0) return 0;
    if (flag === -1) return -1;
    magic |= flag;
  }
  return magic;
}

/** QueryParserHelper.parseFieldsAndWeights. */
export function parseFieldsAndWeights(fields: readonly string[]): FieldBoost[] {
  const map = new Map<string, number>();
  for (const f of fields) {
    const caret = f.indexOf('^');
    const name = caret === -1 ? f : f.slice(0, caret);
    let boost = caret === -1 ? 1 : Math.fround(javaParseDouble(f.slice(caret + 1)));
    const prior = map.get(f);
    if (prior !== undefined) boost = Math.fround(boost * prior);
    map.set(name, boost);
  }
  return toFieldBoosts(map);
}

export function parseSimpleQueryString(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let query: string | undefined;
  let fields: FieldBoost[] = [];
  let lenient: boolean | undefined;
  const node: Omit<Extract<QueryNode, { type: 'simple_query_string' }>, 'query' | 'fields' | 'lenient'> = {
    type: 'simple_query_string',
    defaultOperator: 'or',
    analyzeWildcard: false,
    boost: 1,
  };
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (Array.isArray(v)) {
      if (key !== 'fields') {
        throw parsingError(`[simple_query_string] query does not support [${key}]`, here(ctx, 'value', key));
      }
      ctx.path.push(key);
      const names = v.map((x, i) => text(ctx, x, i));
      try {
        fields = parseFieldsAndWeights(names);
      } catch (e) {
        here(ctx, 'end'); // read after the whole array, at its `]`
        throw e;
      }
      ctx.path.pop();
      continue;
    }
    if (!isValue(v)) {
      throw parsingError(
        `[simple_query_string] unknown token [${tokenOf(v)}] after [${key}]`,
        here(ctx, 'value', key),
      );
    }
    switch (key) {
      case 'query':
        query = text(ctx, v, key);
        break;
      case 'boost':
        node.boost = floatValue(ctx, v, key);
        break;
      case 'analyzer':
        node.analyzer = text(ctx, v, key);
        break;
      case 'default_operator':
        node.defaultOperator = onValue(ctx, key, () => parseOperator(text(ctx, v, key)));
        break;
      case 'flags': {
        const flags =
          typeof v === 'number' || typeof v === 'bigint'
            ? intValue(ctx, v, key)
            : onValue(ctx, key, () => resolveFlags(text(ctx, v, key)));
        if (flags !== -1) node.flags = flags < 0 ? -1 : flags;
        break;
      }
      case 'lenient':
        lenient = booleanValue(ctx, v, key);
        break;
      case 'analyze_wildcard':
        node.analyzeWildcard = booleanValue(ctx, v, key);
        break;
      case 'minimum_should_match':
        node.minimumShouldMatch = text(ctx, v, key);
        break;
      case 'quote_field_suffix': {
        const suffix = textOrNull(ctx, v, key);
        if (suffix !== null) node.quoteFieldSuffix = suffix;
        break;
      }
      case 'auto_generate_synonyms_phrase_query':
        booleanValue(ctx, v, key);
        break;
      case 'fuzzy_transpositions':
        node.fuzzyTranspositions = booleanValue(ctx, v, key);
        break;
      case 'fuzzy_prefix_length':
        node.fuzzyPrefixLength = intValue(ctx, v, key);
        break;
      case 'fuzzy_max_expansions':
        node.fuzzyMaxExpansions = intValue(ctx, v, key);
        break;
      case '_name':
        text(ctx, v, key);
        break;
      default:
        throw parsingError(`[simple_query_string] unsupported field [${key}]`, here(ctx, 'value', key));
    }
  }
  if (query === undefined) throw parsingError('[simple_query_string] query text missing', here(ctx, 'end'));
  return { ...node, query, fields, lenient: lenient ?? isAllFields(fields) };
}
