/**
 * A `_query/api_key` request's aggregations rewritten over the stored fields
 * (ApiKeyAggregationsBuilder): only terms, range, date_range, missing, cardinality, value_count,
 * composite, filter and filters, each field translated, each filter query translated as the
 * request's own query is. Scripts are refused: they could read any stored field.
 */
import { illegalArgument } from '@shoal/protocol';
import type { FieldNames } from './field-names.ts';
import { translateQuery } from './translate-query.ts';

type Json = Record<string, unknown>;

const FIELD_AGGS = new Set(['terms', 'range', 'date_range', 'missing', 'cardinality', 'value_count']);
const COMPOSITE_SOURCES = new Set(['terms', 'histogram', 'date_histogram']);

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fieldOf(name: string, type: string, body: Json, fields: FieldNames): Json {
  if ('script' in body) throw illegalArgument(`Unsupported script value source for [${name}] agg`);
  if (typeof body.field !== 'string') return body;
  const f = fields.translate(body.field);
  // A metadata leaf's values carry their path (`path\0value`): no bucket would name them right.
  if (f.kind === 'metadata-key') {
    throw illegalArgument(`Field [${body.field}] is not supported in the [${type}] agg [${name}]`);
  }
  return { ...body, field: f.name };
}

function translateOne(name: string, agg: unknown, fields: FieldNames, entity: string): Json {
  if (!isObject(agg)) throw illegalArgument(`Expected [START_OBJECT] under [${name}], but got a value`);
  const out: Json = {};
  for (const [type, body] of Object.entries(agg)) {
    if (type === 'aggs' || type === 'aggregations') {
      out[type] = translateAggregations(body, fields, entity);
      continue;
    }
    if (type === 'meta') {
      out[type] = body;
      continue;
    }
    if (!isObject(body)) throw illegalArgument(`Unsupported ${entity} agg [${name}] of type [${type}]`);
    if (FIELD_AGGS.has(type)) out[type] = fieldOf(name, type, body, fields);
    else if (type === 'filter') out[type] = translateQuery(body, fields);
    else if (type === 'filters') {
      const filters = body.filters;
      const translated = Array.isArray(filters)
        ? filters.map((q) => translateQuery(q, fields))
        : isObject(filters)
          ? Object.fromEntries(Object.entries(filters).map(([k, q]) => [k, translateQuery(q, fields)]))
          : filters;
      out[type] = { ...body, filters: translated };
    } else if (type === 'composite') {
      const sources = Array.isArray(body.sources) ? body.sources : [];
      out[type] = {
        ...body,
        sources: sources.map((s: unknown) => {
          if (!isObject(s)) return s;
          return Object.fromEntries(
            Object.entries(s).map(([sourceName, src]) => {
              if (!isObject(src)) return [sourceName, src];
              return [
                sourceName,
                Object.fromEntries(
                  Object.entries(src).map(([srcType, srcBody]) => {
                    if (!COMPOSITE_SOURCES.has(srcType) || !isObject(srcBody)) {
                      throw illegalArgument(`Unsupported ${entity} agg [${name}] of type [${srcType}]`);
                    }
                    return [srcType, fieldOf(name, srcType, srcBody, fields)];
                  }),
                ),
              ];
            }),
          );
        }),
      };
    } else throw illegalArgument(`Unsupported ${entity} agg [${name}] of type [${type}]`);
  }
  return out;
}

/** `aggs` rewritten; `entity` names the API in errors (`API Keys`). */
export function translateAggregations(aggs: unknown, fields: FieldNames, entity: string): Json {
  if (!isObject(aggs)) throw illegalArgument('Expected [START_OBJECT] under [aggs]');
  return Object.fromEntries(Object.entries(aggs).map(([n, a]) => [n, translateOne(n, a, fields, entity)]));
}
