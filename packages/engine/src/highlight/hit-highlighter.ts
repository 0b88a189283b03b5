/**
 * The highlight of each fetched hit (Elasticsearch's HighlightPhase): the `highlight` fields
 * (names or `*` patterns; a pattern takes only text and keyword fields) resolved once against
 * the shard's mapping, the query's clauses extracted once (or each field's highlight_query),
 * then per hit the stored `_source` is parsed — only when highlighting is asked — and each
 * field's values highlighted. The result is the hit's `"highlight"` object as JSON text, its
 * fields in java.util.HashMap order as SearchHit writes them, or null when nothing matched.
 */
import {
  type HighlightSpec,
  javaHashMapOrder,
  jsonString,
  parseJson,
  type QueryNode,
  resolveHighlightField,
} from '@shoal/protocol';
import type { IndexMapping, ResolvedField } from '../contract.ts';
import { type ShardReader, segmentOf } from '../index/shard-reader.ts';
import { type FieldContext, highlightField } from './field-highlight.ts';
import { type HighlightClause, highlightClauses } from './query-terms.ts';

/** What a fetch needs to highlight its hits (ShardFetchRequest.highlight). */
export interface HighlightFetch {
  spec: HighlightSpec;
  /** The search's query (without alias filters). */
  query: QueryNode;
  /** index.highlight.max_analyzed_offset by index name, where it is not the default. */
  maxAnalyzedOffset?: Record<string, number>;
}

export const DEFAULT_MAX_ANALYZED_OFFSET = 1_000_000;

const HIGHLIGHTABLE = new Set(['text', 'keyword']);

/** Highlights one hit: its `_source` bytes and shard doc number; null when nothing to show. */
export type DocHighlighter = (source: Uint8Array, doc: number) => string | null;

function fieldsFor(mapping: IndexMapping, name: string): ResolvedField[] {
  if (name.includes('*')) return mapping.fieldsMatching(name).filter((f) => HIGHLIGHTABLE.has(f.type));
  const f = mapping.field(name);
  return f && HIGHLIGHTABLE.has(f.type) ? [f] : [];
}

/** The `_source` values at a dotted path: through objects and arrays, dotted keys included. */
export function sourceValues(source: unknown, path: string, out: string[] = []): string[] {
  if (Array.isArray(source)) {
    for (const x of source) sourceValues(x, path, out);
    return out;
  }
  if (source === null || typeof source !== 'object') return out;
  for (const [key, v] of Object.entries(source as Record<string, unknown>)) {
    if (key === path) collectLeaves(v, out);
    else if (path.startsWith(`${key}.`)) sourceValues(v, path.slice(key.length + 1), out);
  }
  return out;
}

function collectLeaves(v: unknown, out: string[]): void {
  if (Array.isArray(v)) for (const x of v) collectLeaves(x, out);
  else if (typeof v === 'string') out.push(v);
  else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') out.push(String(v));
}

/** A multi-field (`title.raw`) reads its parent's values. */
function valuesOf(mapping: IndexMapping, source: unknown, path: string): string[] {
  const values = sourceValues(source, path);
  if (values.length > 0) return values;
  const dot = path.lastIndexOf('.');
  if (dot > 0 && mapping.field(path.slice(0, dot)) !== undefined)
    return sourceValues(source, path.slice(0, dot));
  return values;
}

export function docHighlighter(mapping: IndexMapping, req: HighlightFetch, index: string): DocHighlighter {
  const clausesByQuery = new Map<QueryNode, HighlightClause[]>();
  const clausesOf = (q: QueryNode) => {
    let c = clausesByQuery.get(q);
    if (!c) {
      c = highlightClauses(q, mapping);
      clausesByQuery.set(q, c);
    }
    return c;
  };
  const limit = req.maxAnalyzedOffset?.[index] ?? DEFAULT_MAX_ANALYZED_OFFSET;
  const contexts = new Map<string, FieldContext>();
  for (const spec of req.spec.fields) {
    const options = resolveHighlightField(req.spec, spec);
    const all = clausesOf(options.highlightQuery ?? req.query);
    for (const field of fieldsFor(mapping, spec.name)) {
      if (contexts.has(field.path)) continue;
      contexts.set(field.path, {
        field,
        options,
        // require_field_match: only the field's own clauses; otherwise every field's but _id.
        clauses: options.requireFieldMatch
          ? all.filter((c) => c.field === field.path)
          : all.filter((c) => c.field !== '_id'),
        weightMatches: options.requireFieldMatch,
        indexMaxAnalyzedOffset: limit,
        index,
      });
    }
  }
  if (contexts.size === 0) return () => null;
  const order = javaHashMapOrder([...contexts.keys()], 16);
  return (bytes, doc) => {
    if (bytes.length === 0) return null;
    const source = parseJson(bytes, '_source');
    let out = '';
    for (const path of order) {
      const ctx = contexts.get(path)!;
      const fragments = highlightField(ctx, valuesOf(mapping, source, path), doc);
      if (fragments.length === 0) continue;
      out += `${out === '' ? '{' : ','}${jsonString(path)}:[${fragments.map(jsonString).join(',')}]`;
    }
    return out === '' ? null : `${out}}`;
  };
}

/** The highlight of each of `docs` (ShardFetchResult.highlight), read from their stored `_source`. */
export function highlightHits(
  reader: ShardReader,
  mapping: IndexMapping,
  req: HighlightFetch,
  docs: readonly number[],
  index: string,
): (string | null)[] {
  const highlight = docHighlighter(mapping, req, index);
  return docs.map((doc) => {
    const rs = segmentOf(reader, doc);
    return highlight(rs.segment.source(doc - rs.docBase), doc);
  });
}
