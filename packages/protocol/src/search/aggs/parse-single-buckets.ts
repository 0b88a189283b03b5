/**
 * Bodies of the aggregations that select docs rather than group values: `filter` (a query),
 * `filters` (named or anonymous queries, with an optional other bucket), `missing` and `global`.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import type { QueryNode } from '../../query/ast.ts';
import { parsingError } from '../../query/local-errors.ts';
import { here, isObject, tokenOf } from '../../query/parse-context.ts';
import { parseInnerQuery } from '../../query/parse-query.ts';
import type { BodyContext, SpecDraft } from './body-context.ts';
import { readDeclared } from './object-parser.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

export function parseFilter(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  return { type: 'filter', query: parseInnerQuery(b.ctx, body) };
}

/** FiltersAggregationBuilder.parse (a hand-written parser, hence its own messages). */
export function parseFilters(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  let keyedFilters: { key: string; query: QueryNode }[] | undefined;
  let anonymous: QueryNode[] | undefined;
  let otherBucket: boolean | undefined;
  let otherBucketKey: string | undefined;
  let keyed: boolean | undefined;
  const unknown = (key: string, v: unknown) =>
    parsingError(`Unknown key for a ${tokenOf(v)} in [${name}]: [${key}].`, here(ctx, 'value', key));
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (typeof v === 'boolean') {
      if (key === 'other_bucket') otherBucket = v;
      else if (key === 'keyed') keyed = v;
      else throw unknown(key, v);
    } else if (typeof v === 'string') {
      if (key === 'other_bucket_key') otherBucketKey = v;
      else throw unknown(key, v);
    } else if (isObject(v) && key === 'filters') {
      ctx.path.push(key);
      keyedFilters = Object.keys(v).map((k) => {
        ctx.path.push(k);
        const query = parseInnerQuery(ctx, v[k]);
        ctx.path.pop();
        return { key: k, query };
      });
      ctx.path.pop();
    } else if (Array.isArray(v) && key === 'filters') {
      ctx.path.push(key);
      anonymous = v.map((item, i) => {
        ctx.path.push(i);
        const query = parseInnerQuery(ctx, item);
        ctx.path.pop();
        return query;
      });
      ctx.path.pop();
    } else {
      throw unknown(key, v);
    }
  }
  // A key for the other bucket turns it on, as the documentation promises.
  if (otherBucket === undefined && otherBucketKey !== undefined) otherBucket = true;
  let filters: { key: string; query: QueryNode }[];
  if (keyedFilters !== undefined) {
    // Named filters are kept in key order, whatever the request's order.
    filters = keyedFilters.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  } else {
    filters = (anonymous ?? []).map((query, i) => ({ key: String(i), query }));
  }
  if (filters.length === 0) throw illegalArgument('[filters] cannot be empty.');
  return {
    type: 'filters',
    filters,
    named: keyedFilters !== undefined,
    // Anonymous filters are always a list, whatever `keyed` says (FiltersAggregator's keyedBucket).
    keyed: keyedFilters !== undefined && (keyed ?? true),
    otherBucket: otherBucket ?? false,
    otherBucketKey: otherBucketKey ?? '_other_',
  };
}

export function parseMissing(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const draft: SourceDraft = {};
  const fields = sourceFields(b.ctx, 'missing', draft, { formattable: true, timeZoneAware: false });
  const seen = readDeclared(b.ctx, 'missing', body, fields);
  return { type: 'missing', source: finishSource(draft, seen) };
}

export function parseGlobal(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  readDeclared(b.ctx, 'global', body, {});
  return { type: 'global' };
}
