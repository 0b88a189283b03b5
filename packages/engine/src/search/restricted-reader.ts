/**
 * A shard reader narrowed to the documents a filter matches and the fields a visibility
 * allows (Elasticsearch's DocumentSubsetReader under its FieldSubsetReader): the other
 * documents read as deleted, so no query, count, aggregation (a `global` one included) or
 * fetch can reach them. The filter is evaluated on the whole reader, before fields are hidden:
 * it may read fields the request cannot see, as in Elasticsearch.
 *
 * A segment's filter matches depend on the segment alone, so they are kept with it for the
 * last few filters; each reader combines them with its own live docs.
 */
import type { FieldVisibility, QueryNode } from '@shoal/protocol';
import type { IndexMapping } from '../contract.ts';
import { fieldSubsetReader } from '../index/field-subset-reader.ts';
import { LiveDocs } from '../index/live-docs.ts';
import type { Segment } from '../index/segment.ts';
import type { ReaderSegment, ShardReader } from '../index/shard-reader.ts';
import type { CompileEnv } from './compile-env.ts';
import { wordsFor } from './doc-bits.ts';
import { compileQuery } from './query-compiler.ts';
import { topLevelFields } from './top-level-fields.ts';

export interface ReadRestriction {
  /** Only the documents this query matches exist for the request. */
  documentFilter?: QueryNode;
  /** Only these fields exist for the request. */
  fieldVisibility?: FieldVisibility;
}

/** How many filters a segment keeps its matches for. */
const KEPT_FILTERS = 8;
const matchesBySegment = new WeakMap<Segment, Map<string, Uint32Array>>();

function segmentMatches(seg: Segment, key: string, compute: () => Uint32Array): Uint32Array {
  let byKey = matchesBySegment.get(seg);
  if (!byKey) {
    byKey = new Map();
    matchesBySegment.set(seg, byKey);
    seg.onClose(() => matchesBySegment.delete(seg));
  }
  let bits = byKey.get(key);
  if (!bits) {
    bits = compute();
    if (byKey.size >= KEPT_FILTERS) byKey.delete(byKey.keys().next().value as string);
    byKey.set(key, bits);
  }
  return bits;
}

/** Narrowed live docs by the live docs they narrow, then by filter: readers share them. */
const narrowedByLiveDocs = new WeakMap<LiveDocs, Map<string, LiveDocs>>();

/** The segment's live docs minus those the filter does not match (kept per live docs and filter). */
function narrowedOnce(rs: ReaderSegment, key: string, matches: Uint32Array): LiveDocs {
  let byKey = narrowedByLiveDocs.get(rs.liveDocs);
  if (!byKey) {
    byKey = new Map();
    narrowedByLiveDocs.set(rs.liveDocs, byKey);
  }
  let out = byKey.get(key);
  if (!out) {
    out = narrowed(rs, matches);
    if (byKey.size >= KEPT_FILTERS) byKey.delete(byKey.keys().next().value as string);
    byKey.set(key, out);
  }
  return out;
}

function narrowed(rs: ReaderSegment, matches: Uint32Array): LiveDocs {
  const words = wordsFor(rs.segment.maxDoc);
  const deleted = new Uint32Array(words);
  const before = rs.liveDocs.deletedBits;
  for (let w = 0; w < words; w++) deleted[w] = ~matches[w]! | (before ? before[w]! : 0);
  // Bits past the last doc stay clear (they are no docs, deleted or not).
  const tail = rs.segment.maxDoc & 31;
  if (tail !== 0) deleted[words - 1]! &= (1 << tail) - 1;
  return LiveDocs.fromDeleted(rs.segment.maxDoc, deleted).freeze();
}

function documentSubsetReader(
  reader: ShardReader,
  filter: QueryNode,
  env: Omit<CompileEnv, 'reader'>,
): ShardReader {
  const weight = compileQuery(filter, { ...env, reader });
  const key = JSON.stringify(filter);
  let live = 0;
  const segments: ReaderSegment[] = reader.segments.map((rs) => {
    const matches = segmentMatches(rs.segment, key, () => {
      const bits = new Uint32Array(wordsFor(rs.segment.maxDoc));
      weight.markDocs(rs, bits);
      return bits;
    });
    const liveDocs = narrowedOnce(rs, key, matches);
    live += liveDocs.numLive;
    return { ...rs, liveDocs };
  });
  const cache = new Map<string, unknown>();
  return {
    id: reader.id,
    segments,
    maxDoc: reader.maxDoc,
    numDocs: live,
    release: () => reader.release(),
    cached: <T>(k: string, compute: () => T): T => {
      let v = cache.get(k) as T | undefined;
      if (v === undefined) {
        v = compute();
        cache.set(k, v);
      }
      return v;
    },
  };
}

/** `reader` as a restricted request sees it (the reader itself when nothing is restricted). */
export function restrictedReader(
  reader: ShardReader,
  mapping: IndexMapping,
  restriction: ReadRestriction,
  ctx: Pick<CompileEnv, 'index' | 'indexUuid' | 'nowMillis' | 'shardId'>,
): ShardReader {
  let out = reader;
  if (restriction.documentFilter) {
    out = documentSubsetReader(out, restriction.documentFilter, {
      mapping: topLevelFields(mapping),
      index: ctx.index,
      indexUuid: ctx.indexUuid,
      nowMillis: ctx.nowMillis,
      shardId: ctx.shardId,
    });
  }
  return fieldSubsetReader(out, restriction.fieldVisibility);
}
