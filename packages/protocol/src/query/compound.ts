/**
 * Compound and trivial queries: bool and match_all (ObjectParser-based in Elasticsearch 8, hence
 * `x_content_parse_exception`s), constant_score and match_none (hand-written token loops, hence
 * `parsing_exception`s).
 */
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import type { QueryNode } from './ast.ts';
import { parsingError } from './local-errors.ts';
import {
  assertSupports,
  here,
  isObject,
  isValue,
  type ParseCtx,
  parseField,
  tokenOf,
  unknownField,
  VT,
} from './parse-context.ts';
import type { InnerParser } from './parse-query.ts';
import { booleanValue, floatValue, text, textOrNull } from './xcontent-values.ts';

const BOOL_FIELDS = [
  'must',
  'should',
  'must_not',
  'filter',
  'adjust_pure_negative',
  'minimum_should_match',
  '_name',
  'boost',
];

type BoolNode = Extract<QueryNode, { type: 'bool' }>;

export function parseBool(body: Record<string, unknown>, ctx: ParseCtx, inner: InnerParser): QueryNode {
  const node: BoolNode = { type: 'bool', must: [], filter: [], should: [], mustNot: [], boost: 1 };
  for (const key of Object.keys(body)) {
    const v = body[key];
    switch (key) {
      case 'must':
      case 'should':
      case 'must_not':
      case 'filter': {
        assertSupports(ctx, 'bool', key, v, VT.OBJECT_ARRAY_OR_NULL);
        if (v === null) break;
        const out =
          key === 'must'
            ? node.must
            : key === 'should'
              ? node.should
              : key === 'filter'
                ? node.filter
                : node.mustNot;
        parseField(ctx, 'bool', key, () => clauses(ctx, v, out, inner));
        break;
      }
      case 'minimum_should_match': {
        assertSupports(ctx, 'bool', key, v, VT.VALUE);
        const msm = parseField(ctx, 'bool', key, () => textOrNull(ctx, v));
        if (msm === null) delete node.minimumShouldMatch;
        else node.minimumShouldMatch = msm;
        break;
      }
      case 'adjust_pure_negative': {
        assertSupports(ctx, 'bool', key, v, VT.BOOLEAN);
        const adjust = parseField(ctx, 'bool', key, () => booleanValue(ctx, v));
        if (adjust) delete node.adjustPureNegative;
        else node.adjustPureNegative = false;
        break;
      }
      case '_name':
        assertSupports(ctx, 'bool', key, v, VT.STRING);
        break;
      case 'boost':
        assertSupports(ctx, 'bool', key, v, VT.FLOAT);
        node.boost = parseField(ctx, 'bool', key, () => floatValue(ctx, v));
        break;
      default:
        throw unknownField(ctx, 'bool', key, BOOL_FIELDS);
    }
  }
  return node;
}

/** ObjectParser.parseArray: one clause object, or an array of them. `v` sits at `ctx.path`. */
function clauses(ctx: ParseCtx, v: unknown, out: QueryNode[], inner: InnerParser): void {
  if (!Array.isArray(v)) {
    out.push(inner(ctx, v));
    return;
  }
  for (let i = 0; i < v.length; i++) {
    ctx.path.push(i);
    out.push(inner(ctx, v[i]));
    ctx.path.pop();
  }
}

export function parseConstantScore(
  body: Record<string, unknown>,
  ctx: ParseCtx,
  inner: InnerParser,
): QueryNode {
  let filter: QueryNode | undefined;
  let boost = 1;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (isObject(v)) {
      if (key !== 'filter') {
        throw parsingError(`[constant_score] query does not support [${key}]`, here(ctx, 'value', key));
      }
      ctx.path.push(key);
      filter = inner(ctx, v);
      ctx.path.pop();
    } else if (isValue(v)) {
      if (key === '_name') text(ctx, v, key);
      else if (key === 'boost') boost = floatValue(ctx, v, key);
      else throw parsingError(`[constant_score] query does not support [${key}]`, here(ctx, 'value', key));
    } else {
      throw parsingError(`unexpected token [${tokenOf(v)}]`, here(ctx, 'value', key));
    }
  }
  if (filter === undefined) {
    throw parsingError("[constant_score] requires a 'filter' element", here(ctx, 'end'));
  }
  return { type: 'constant_score', filter, boost };
}

/** DisMaxQueryBuilder.fromXContent: `queries` (an object or an array of them) and tie_breaker. */
export function parseDisMax(body: Record<string, unknown>, ctx: ParseCtx, inner: InnerParser): QueryNode {
  const queries: QueryNode[] = [];
  let found = false;
  let tieBreaker = 0;
  let boost = 1;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (isObject(v) || Array.isArray(v)) {
      if (key !== 'queries') {
        throw parsingError(`[dis_max] query does not support [${key}]`, here(ctx, 'value', key));
      }
      found = true;
      ctx.path.push(key);
      if (isObject(v)) queries.push(inner(ctx, v));
      else
        v.forEach((q, i) => {
          ctx.path.push(i);
          queries.push(inner(ctx, q));
          ctx.path.pop();
        });
      ctx.path.pop();
    } else {
      if (key === 'boost') boost = floatValue(ctx, v, key);
      else if (key === 'tie_breaker') tieBreaker = floatValue(ctx, v, key);
      else if (key === '_name') text(ctx, v, key);
      else throw parsingError(`[dis_max] query does not support [${key}]`, here(ctx, 'value', key));
    }
  }
  if (!found)
    throw parsingError("[dis_max] requires 'queries' field with at least one clause", here(ctx, 'end'));
  return { type: 'dis_max', queries, tieBreaker, boost };
}

/** match_all is an ObjectParser whose IllegalArgumentExceptions become ParsingExceptions. */
export function parseMatchAll(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let boost = 1;
  try {
    for (const key of Object.keys(body)) {
      const v = body[key];
      if (key === 'boost') {
        assertSupports(ctx, 'match_all', key, v, VT.FLOAT);
        boost = parseField(ctx, 'match_all', key, () => floatValue(ctx, v));
      } else if (key === '_name') {
        assertSupports(ctx, 'match_all', key, v, VT.STRING);
      } else {
        throw unknownField(ctx, 'match_all', key, ['boost', '_name']);
      }
    }
  } catch (e) {
    throw asParsingException(ctx, e);
  }
  return { type: 'match_all', boost };
}

export function parseMatchNone(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (!isValue(v)) {
      throw parsingError(
        `[match_none] unknown token [${tokenOf(v)}] after [${key}]`,
        here(ctx, 'value', key),
      );
    }
    if (key === '_name') text(ctx, v, key);
    else if (key === 'boost') floatValue(ctx, v, key);
    else throw parsingError(`[match_none] query does not support [${key}]`, here(ctx, 'value', key));
  }
  return { type: 'match_none' };
}

/**
 * `catch (IllegalArgumentException e) { throw new ParsingException(loc, e.getMessage(), e) }`, as
 * match_all and ids do. XContentParseException and NumberFormatException are IAEs too.
 */
export function asParsingException(ctx: ParseCtx, e: unknown): unknown {
  if (!isShoalError(e) || !IAE_TYPES.has(e.type)) return e;
  return parsingError(e.reason, ctx.errorLoc, e as ShoalError);
}

const IAE_TYPES = new Set([
  'illegal_argument_exception',
  'x_content_parse_exception',
  'number_format_exception',
]);
