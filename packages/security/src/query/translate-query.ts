/**
 * A `_query` API's query rewritten over the security index's stored fields
 * (FieldNameTranslators.translateQueryBuilderFields): only the query types Elasticsearch allows
 * there, each field name translated or refused. A metadata leaf (`metadata.<path>`) is stored as
 * `path\0value` in one keyword field, as a `flattened` field's keyed part is, so its values are
 * rewritten with the path in front.
 */
import { illegalArgument } from '@shoal/protocol';
import { type FieldNames, type IndexField, KEY_SEPARATOR, METADATA_KEYED } from './field-names.ts';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function unsupported(type: string): Error {
  return illegalArgument(`Query type [${type}] is not currently supported in this context`);
}

/** A single-field query body (`{"field": value}` or `{"field": {...}}`): the field and the rest. */
function fieldEntry(type: string, body: unknown): { field: string; value: unknown; extra: Json } {
  if (!isObject(body)) throw illegalArgument(`[${type}] query malformed, no start_object after query name`);
  const extra: Json = {};
  let field: string | undefined;
  let value: unknown;
  for (const [k, v] of Object.entries(body)) {
    if (k === 'boost' || k === '_name') extra[k] = v;
    else if (field === undefined) {
      field = k;
      value = v;
    } else {
      throw illegalArgument(`[${type}] query doesn't support multiple fields, found [${field}] and [${k}]`);
    }
  }
  if (field === undefined) throw illegalArgument(`[${type}] query requires a field`);
  return { field, value, extra };
}

const keyed = (path: string, v: unknown) => `${path}${KEY_SEPARATOR}${v === null ? 'null' : String(v)}`;

/** A term-like query's value (plain, or `{"value": …}`) with the metadata path put in front. */
function keyedValue(path: string, value: unknown, valueKey: string): unknown {
  if (isObject(value)) return { ...value, [valueKey]: keyed(path, value[valueKey]) };
  return keyed(path, value);
}

function translateRange(path: string, spec: unknown): Json {
  if (!isObject(spec)) return { [METADATA_KEYED]: spec };
  const out: Json = {};
  for (const [k, v] of Object.entries(spec)) {
    if (['gt', 'gte', 'lt', 'lte', 'from', 'to'].includes(k) && v !== null && v !== undefined)
      out[k] = keyed(path, v);
    else out[k] = v;
  }
  // The leaf's own values only: bounded by its path on the sides the query leaves open.
  if (!('gt' in out || 'gte' in out || 'from' in out)) out.gte = `${path}${KEY_SEPARATOR}`;
  if (!('lt' in out || 'lte' in out || 'to' in out)) out.lt = `${path}\u0001`;
  return out;
}

function singleField(
  type: string,
  body: unknown,
  fields: FieldNames,
  onMetadata: (path: string, value: unknown, extra: Json) => Json,
): Json {
  const { field, value, extra } = fieldEntry(type, body);
  const f: IndexField = fields.translate(field);
  if (f.kind === 'metadata-key') return onMetadata(f.path, value, extra);
  return { [type]: { [f.name]: value, ...extra } };
}

function translateBool(body: unknown, fields: FieldNames): Json {
  if (!isObject(body)) throw illegalArgument('[bool] query malformed, no start_object after query name');
  const out: Json = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'must' || k === 'should' || k === 'must_not' || k === 'filter') {
      const list = Array.isArray(v) ? v : [v];
      out[k] = list.map((q) => translateQuery(q, fields));
    } else out[k] = v;
  }
  return { bool: out };
}

function translateSimpleQueryString(body: unknown, fields: FieldNames): Json {
  if (!isObject(body)) throw illegalArgument('[simple_query_string] malformed query');
  const requested = Array.isArray(body.fields) && body.fields.length > 0 ? (body.fields as unknown[]) : ['*'];
  const translated = new Map<string, number>();
  for (const entry of requested) {
    const [name, boostText] = String(entry).split('^');
    const boost = boostText === undefined ? 1 : Number(boostText);
    for (const f of fields.translatePattern(name!)) translated.set(f, (translated.get(f) ?? 1) * boost);
  }
  // A query that reaches only fields it may not read matches nothing, never everything.
  if (translated.size === 0) return { match_none: {} };
  const out: Json = { ...body };
  out.fields = [...translated].map(([f, b]) => (b === 1 ? f : `${f}^${b}`));
  if (requested.includes('*')) out.lenient = true;
  return { simple_query_string: out };
}

/** Rewrites one query; 400 for a query type or field the `_query` API does not allow. */
export function translateQuery(query: unknown, fields: FieldNames): Json {
  if (!isObject(query)) throw illegalArgument('query malformed, must start with start_object');
  const entries = Object.entries(query);
  if (entries.length !== 1) {
    throw illegalArgument(
      entries.length === 0
        ? 'query malformed, empty clause found'
        : `[${entries[0]![0]}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]`,
    );
  }
  const [type, body] = entries[0]!;
  switch (type) {
    case 'bool':
      return translateBool(body, fields);
    case 'match_all':
    case 'ids':
      return { [type]: body };
    case 'term':
      return singleField(type, body, fields, (path, v, extra) => ({
        term: { [METADATA_KEYED]: keyedValue(path, v, 'value'), ...extra },
      }));
    case 'prefix':
    case 'wildcard':
      return singleField(type, body, fields, (path, v, extra) => ({
        [type]: {
          [METADATA_KEYED]: keyedValue(path, v, isObject(v) && 'wildcard' in v ? 'wildcard' : 'value'),
          ...extra,
        },
      }));
    case 'match':
      // On a keyword leaf a match is a term (its value is not analyzed).
      return singleField(type, body, fields, (path, v, extra) => ({
        term: { [METADATA_KEYED]: keyed(path, isObject(v) ? v.query : v), ...extra },
      }));
    case 'range':
      return singleField(type, body, fields, (path, v, extra) => ({
        range: { [METADATA_KEYED]: translateRange(path, v), ...extra },
      }));
    case 'terms': {
      if (!isObject(body)) throw illegalArgument('[terms] query malformed, no start_object after query name');
      const { field, value, extra } = fieldEntry('terms', body);
      if (isObject(value)) {
        throw illegalArgument('terms query with terms lookup is not currently supported in this context');
      }
      const f = fields.translate(field);
      if (f.kind === 'metadata-key') {
        const values = Array.isArray(value) ? value : [value];
        return { terms: { [METADATA_KEYED]: values.map((v) => keyed(f.path, v)), ...extra } };
      }
      return { terms: { [f.name]: value, ...extra } };
    }
    case 'exists': {
      if (!isObject(body) || typeof body.field !== 'string')
        throw illegalArgument('[exists] must be provided with a [field]');
      const f = fields.translate(body.field);
      if (f.kind === 'metadata-key') {
        const { field: _f, ...rest } = body;
        return { prefix: { [METADATA_KEYED]: { value: `${f.path}${KEY_SEPARATOR}`, ...rest } } };
      }
      return { exists: { ...body, field: f.name } };
    }
    case 'simple_query_string':
      return translateSimpleQueryString(body, fields);
    default:
      throw unsupported(type);
  }
}
