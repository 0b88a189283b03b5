/**
 * The fetch phase on one shard: ids, routing, versions and `_source` of the winning docs, in
 * the requested order. Stored `_source` bytes are copied verbatim into one packed buffer;
 * only `_source` includes/excludes make a document be parsed and re-serialised.
 */

import { applySourceFilter, parseJson, stringifyJson } from '@shoal/protocol';
import type { IndexMapping, ShardFetchRequest, ShardFetchResult } from '../contract.ts';
import { highlightHits } from '../highlight/hit-highlighter.ts';
import { fieldSubsetReader } from '../index/field-subset-reader.ts';
import type { SortedSetValues, StoredFields } from '../index/segment.ts';
import { type ReaderSegment, type ShardReader, segmentOf } from '../index/shard-reader.ts';
import { withRuntimeFields } from '../runtime/runtime-view.ts';
import { fetchFieldsJson } from './fetch-fields.ts';
import { matchedQueriesJson } from './matched-queries.ts';

const encoder = new TextEncoder();

type StoredColumns = Pick<StoredFields, 'ids' | 'routing'> &
  Partial<Pick<StoredFields, 'versions' | 'seqNos' | 'primaryTerms'>>;

/** The stored columns a fetch reads: versions and sequence numbers only when asked for. */
function storedColumns(rs: ReaderSegment, req: ShardFetchRequest): StoredColumns {
  const st = rs.segment.stored;
  const cols: StoredColumns = { ids: st.ids, routing: st.routing };
  if (req.version) cols.versions = st.versions;
  if (req.seqNoPrimaryTerm) {
    cols.seqNos = st.seqNos;
    cols.primaryTerms = st.primaryTerms;
  }
  return cols;
}

/**
 * A fetch's documents with each `_source` on its own (a view of the stored bytes, or the
 * filtered copy), for a caller that lays them out itself (the shard thread packs a small
 * page's documents straight into its reply).
 */
export interface FetchedDocs extends Omit<ShardFetchResult, 'sourceBytes' | 'sourceOffsets'> {
  sources: Uint8Array[];
  /** The sources' bytes together. */
  sourceLength: number;
}

/** The fetch phase, `_source` bytes laid end to end in one buffer. */
export function executeFetch(
  reader: ShardReader,
  req: ShardFetchRequest,
  /** Needed by `fields` and `docvalue_fields` (req.fields). */
  mapping?: IndexMapping,
  index = '',
): ShardFetchResult {
  const { sources, sourceLength, ...rest } = fetchDocs(reader, req, mapping, index);
  const n = req.docs.length;
  const sourceBytes = new Uint8Array(sourceLength);
  const sourceOffsets = new Uint32Array(n + 1);
  let at = 0;
  for (let i = 0; i < sources.length; i++) {
    const p = sources[i]!;
    sourceBytes.set(p, at);
    at += p.length;
    sourceOffsets[i + 1] = at;
  }
  return { ...rest, sourceBytes, sourceOffsets };
}

/** The fetch phase, each document's `_source` on its own (none when `_source` is disabled). */
export function fetchDocs(
  reader: ShardReader,
  req: ShardFetchRequest,
  /** Needed by `fields` and `docvalue_fields` (req.fields). */
  mapping?: IndexMapping,
  index = '',
): FetchedDocs {
  reader = fieldSubsetReader(reader, req.fieldVisibility);
  if (mapping && req.fields)
    ({ reader, mapping } = withRuntimeFields(reader, mapping, req.fields.runtime, index));
  const n = req.docs.length;
  const ids: string[] = new Array(n);
  const routing: (string | null)[] = new Array(n);
  const versions: number[] = new Array(n);
  const seqNos: number[] = new Array(n);
  const primaryTerms: number[] = new Array(n);
  const pieces: Uint8Array[] = [];
  const filter = req.source;
  const filtering = filter.enabled && (filter.includes.length > 0 || filter.excludes.length > 0);
  let size = 0;
  // The stored columns of the segment in hand: looked up once per segment, not once per doc
  // (each lookup goes through the section cache).
  let current: ReaderSegment | undefined;
  let stored: StoredColumns | undefined;
  let ignored: (string[] | null)[] | undefined;
  // The segment's `_ignored` doc values, looked up with its stored columns.
  let ignoredValues: SortedSetValues | undefined;
  for (let i = 0; i < n; i++) {
    const doc = req.docs[i]!;
    const rs =
      current && doc >= current.docBase && doc < current.docBase + current.segment.maxDoc
        ? current
        : segmentOf(reader, doc);
    if (rs !== current || !stored) {
      current = rs;
      stored = storedColumns(rs, req);
      ignoredValues = rs.segment.field('_ignored')?.sortedSet;
    }
    const local = doc - rs.docBase;
    ids[i] = stored.ids[local]!;
    routing[i] = stored.routing[local] ?? null;
    versions[i] = stored.versions?.[local] ?? 0;
    seqNos[i] = stored.seqNos?.[local] ?? 0;
    primaryTerms[i] = stored.primaryTerms?.[local] ?? 0;
    const ignoredNames = ignoredValues && ignoredOf(ignoredValues, local);
    if (ignoredNames) {
      ignored ??= new Array(n).fill(null);
      ignored[i] = ignoredNames;
    }
    if (!filter.enabled) continue;
    let bytes = rs.segment.source(local);
    if (filtering)
      bytes = encoder.encode(stringifyJson(applySourceFilter(parseJson(bytes, '_source'), filter)));
    pieces.push(bytes);
    size += bytes.length;
  }
  const result: FetchedDocs = {
    ids,
    routing,
    versions,
    seqNos,
    primaryTerms,
    sources: pieces,
    sourceLength: size,
  };
  if (ignored) result.ignored = ignored;
  if (req.namedQueries && req.namedQueries.length > 0 && mapping) {
    result.matched = matchedQueriesJson(
      reader,
      mapping,
      req.namedQueries,
      req.namedQueriesScore === true,
      req.docs,
      index,
    );
  }
  if (req.fields && mapping) result.fieldsJson = fetchFieldsJson(reader, mapping, req, index);
  if (req.highlight && mapping)
    result.highlight = highlightHits(reader, mapping, req.highlight, req.docs, index);
  return result;
}

/** The `_ignored` metadata field of one document (the names of the fields it left values of). */
function ignoredOf(ss: SortedSetValues, local: number): string[] | undefined {
  const start = ss.starts[local]!;
  const end = ss.starts[local + 1]!;
  if (end <= start) return undefined;
  const out: string[] = [];
  for (let k = start; k < end; k++) out.push(ss.terms[ss.ords[k]!]!);
  return out;
}
