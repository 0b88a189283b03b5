/**
 * The `knn` query (KnnVectorQueryBuilder) and the body of a top-level `knn` search
 * (KnnSearchBuilder): field, query_vector, k, num_candidates, filter (one query or a list),
 * similarity, boost and _name. `query_vector_builder` (a model turning text into a vector)
 * answers 501: Shoal runs no models.
 */
import { illegalArgument, notImplemented } from '../errors/catalogue.ts';
import type { KnnQuery, QueryNode } from './ast.ts';
import { parsingError } from './local-errors.ts';
import { here, type ParseCtx } from './parse-context.ts';

/** KnnSearchBuilder.NUM_CANDS_LIMIT. */
export const MAX_NUM_CANDIDATES = 10_000;

type Inner = (ctx: ParseCtx, v: unknown) => QueryNode;

/** Parses a knn body sitting at `ctx.path` (the query's, or one entry of a search's `knn`). */
export function parseKnnBody(
  body: Record<string, unknown>,
  ctx: ParseCtx,
  inner: Inner,
  what: string,
): KnnQuery {
  let field: string | undefined;
  let vector: number[] | undefined;
  const node: KnnQuery = { type: 'knn', field: '', vector: [], filter: [], boost: 1 };
  for (const key of Object.keys(body)) {
    const v = body[key];
    switch (key) {
      case 'field':
        if (typeof v !== 'string')
          throw parsingError(`[${what}] field [field] must be a string`, here(ctx, 'value', key));
        field = v;
        break;
      case 'query_vector':
        vector = queryVector(v, ctx);
        break;
      case 'query_vector_builder':
        throw notImplemented('[query_vector_builder] in knn (Shoal runs no inference models)');
      case 'k':
        node.k = positiveInt(v, ctx, key, what);
        break;
      case 'num_candidates':
        node.numCandidates = positiveInt(v, ctx, key, what);
        break;
      case 'similarity':
        node.similarity = number(v, ctx, key, what);
        break;
      case 'boost':
        node.boost = number(v, ctx, key, what);
        break;
      case '_name':
        break;
      case 'filter': {
        ctx.path.push('filter');
        if (Array.isArray(v)) {
          for (let i = 0; i < v.length; i++) {
            ctx.path.push(i);
            node.filter.push(inner(ctx, v[i]));
            ctx.path.pop();
          }
        } else node.filter.push(inner(ctx, v));
        ctx.path.pop();
        break;
      }
      default:
        throw parsingError(`[${what}] unknown field [${key}]`, here(ctx, 'key', key));
    }
  }
  if (field === undefined) throw illegalArgument(`[${what}] requires field [field] to be configured`);
  if (vector === undefined) {
    throw illegalArgument(
      `[${what}] requires either [query_vector] or [query_vector_builder] to be configured`,
    );
  }
  if (node.numCandidates !== undefined && node.numCandidates > MAX_NUM_CANDIDATES) {
    throw illegalArgument(`[num_candidates] cannot exceed [${MAX_NUM_CANDIDATES}]`);
  }
  if (node.k !== undefined && node.numCandidates !== undefined && node.numCandidates < node.k) {
    throw illegalArgument('[num_candidates] cannot be less than [k]');
  }
  node.field = field;
  node.vector = vector;
  return node;
}

/** The `knn` query clause. */
export function parseKnnQuery(body: Record<string, unknown>, ctx: ParseCtx, inner: Inner): QueryNode {
  return parseKnnBody(body, ctx, inner, 'knn');
}

/** An array of numbers, or a hex string (a byte vector). */
function queryVector(v: unknown, ctx: ParseCtx): number[] {
  if (typeof v === 'string') {
    if (!/^([0-9a-fA-F]{2})*$/.test(v)) {
      throw parsingError(
        `failed to parse field [query_vector]: [${v}] is not a hexadecimal string`,
        here(ctx, 'value', 'query_vector'),
      );
    }
    const out: number[] = [];
    for (let i = 0; i < v.length; i += 2) out.push((Number.parseInt(v.slice(i, i + 2), 16) << 24) >> 24);
    return out;
  }
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'number' || !Number.isFinite(x))) {
    throw parsingError('[knn] failed to parse field [query_vector]', here(ctx, 'value', 'query_vector'));
  }
  return v as number[];
}

function positiveInt(v: unknown, ctx: ParseCtx, key: string, what: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw parsingError(`[${what}] failed to parse field [${key}]`, here(ctx, 'value', key));
  }
  if (v < 1) throw illegalArgument(`[${key}] must be greater than 0`);
  return v;
}

function number(v: unknown, ctx: ParseCtx, key: string, what: string): number {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) {
    throw parsingError(`[${what}] failed to parse field [${key}]`, here(ctx, 'value', key));
  }
  return n;
}
