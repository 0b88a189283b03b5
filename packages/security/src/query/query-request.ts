/**
 * The body every `_query` API takes (`query`, `from`, `size`, `sort`, `search_after`, and for
 * API keys `aggs`), read as Elasticsearch's request parsers read it and turned into one search
 * of the security index: the user's query translated, inside a filter that keeps to one kind of
 * document (and, when asked, to the caller's own).
 */
import { actionRequestValidation, illegalArgument, xContentParse } from '@shoal/protocol';
import type { SystemIndexHits, SystemIndexStore } from '../host.ts';
import type { SecurityRequest } from '../rest/route.ts';
import type { FieldNames } from './field-names.ts';
import { translateAggregations } from './translate-aggs.ts';
import { translateQuery } from './translate-query.ts';

type Json = Record<string, unknown>;

export interface QueryApi {
  /** The request parser's name in unknown-field errors (`query_api_key_request`). */
  parser: string;
  fields: FieldNames;
  /** The entity named in aggregation errors (`API Keys`); none: no aggregations. */
  aggregations?: string;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function intField(parser: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw xContentParse(1, 1, `[${parser}] failed to parse field [${name}]`);
  }
  return v;
}

function translateSort(sort: unknown, fields: FieldNames): unknown[] {
  const list = Array.isArray(sort) ? sort : [sort];
  return list.map((entry) => {
    if (typeof entry === 'string') {
      return entry === '_doc' ? entry : fieldName(fields, entry);
    }
    if (!isObject(entry) || Object.keys(entry).length !== 1) {
      throw illegalArgument(
        `malformed sort format, within the sort array, an object, or an actual string are allowed`,
      );
    }
    const [field, spec] = Object.entries(entry)[0]!;
    if (isObject(spec) && 'nested' in spec) {
      throw illegalArgument('nested sorting is not currently supported in this context');
    }
    return { [field === '_doc' ? field : fieldName(fields, field)]: spec };
  });
}

function fieldName(fields: FieldNames, field: string): string {
  const f = fields.translate(field, true);
  // A metadata leaf shares one stored field with every other leaf: it has no order of its own.
  if (f.kind === 'metadata-key') throw illegalArgument(`sorting is not supported for field [${field}]`);
  return f.name;
}

/** The search body for a `_query` request; `filters` restrict what it may find. */
export function searchBody(req: SecurityRequest, api: QueryApi, filters: Json[]): Json {
  const body = req.body !== undefined && req.body.length > 0 ? req.json() : {};
  if (!isObject(body)) throw illegalArgument('request body must be a JSON object');
  const out: Json = {};
  let query: Json = { match_all: {} };
  const errors: string[] = [];
  let aggsSeen = false;
  for (const [k, v] of Object.entries(body)) {
    switch (k) {
      case 'query':
        query = translateQuery(v, api.fields);
        break;
      case 'from':
      case 'size': {
        const n = intField(api.parser, k, v);
        if (n < 0) errors.push(`[${k}] parameter cannot be negative but was [${n}]`);
        out[k] = n;
        break;
      }
      case 'sort':
        out.sort = translateSort(v, api.fields);
        break;
      case 'search_after':
        if (!Array.isArray(v)) throw xContentParse(1, 1, `[${api.parser}] failed to parse field [${k}]`);
        out.search_after = v;
        break;
      case 'aggs':
      case 'aggregations':
        if (api.aggregations === undefined) throw xContentParse(1, 1, `[${api.parser}] unknown field [${k}]`);
        if (aggsSeen) throw illegalArgument('Found two aggregation definitions: [aggs] and [aggregations]');
        aggsSeen = true;
        out.aggs = translateAggregations(v, api.fields, api.aggregations);
        break;
      default:
        throw xContentParse(1, 1, `[${api.parser}] unknown field [${k}]`);
    }
  }
  if (errors.length > 0) throw actionRequestValidation(errors);
  out.query = { bool: { must: [query], filter: filters } };
  return out;
}

/** Runs a `_query` request on the security index. */
export function runQuery(
  store: SystemIndexStore,
  req: SecurityRequest,
  api: QueryApi,
  filters: Json[],
  opts: { typedKeys?: boolean } = {},
): Promise<SystemIndexHits> {
  return store.search(searchBody(req, api, filters), opts);
}

/** A hit's `_sort`, when the request sorted. */
export function withSort<T extends Json>(item: T, sort: unknown[] | undefined): T {
  return sort === undefined ? item : { ...item, _sort: sort };
}
