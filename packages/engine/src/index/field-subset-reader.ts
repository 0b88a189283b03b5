/**
 * A shard reader that shows only some fields (Lucene/Elasticsearch's FieldSubsetReader): a
 * hidden field has no postings, doc values or points in any segment, and `_source` comes back
 * without it. Everything built on the reader — queries, sorts, aggregations, `fields`,
 * `docvalue_fields`, highlighting, scripts — then sees a document as if it never had the
 * field: a query on it matches nothing, a sort finds it missing. The mapping is left alone.
 *
 * The view's segments keep their derived data (filter cache, sort permutations) apart from the
 * whole segment's, per visibility, so a cached result computed with a field never answers a
 * reader without it. The views of a segment are kept for the last few visibilities, so their
 * caches live as long as the segment and not only for one search.
 */
import {
  type FieldVisibility,
  fieldPredicate,
  parseJson,
  stringifyJson,
  visibleSource,
} from '@shoal/protocol';
import type { Segment, SegmentField } from './segment.ts';
import type { ReaderSegment, ShardReader } from './shard-reader.ts';

/** How many visibilities a segment keeps a view (and its caches) for. */
const KEPT_VIEWS = 8;

const views = new WeakMap<Segment, Map<string, Segment>>();
const encoder = new TextEncoder();

function segmentView(seg: Segment, key: string, visible: (path: string) => boolean): Segment {
  let byKey = views.get(seg);
  if (!byKey) {
    byKey = new Map();
    views.set(seg, byKey);
    seg.onClose(() => views.delete(seg));
  }
  const known = byKey.get(key);
  if (known) return known;
  const view = Object.create(seg) as Segment;
  const cache = new Map<string, unknown>();
  view.cached = <T>(k: string, compute: () => T): T => {
    let v = cache.get(k) as T | undefined;
    if (v === undefined) {
      v = compute();
      cache.set(k, v);
    }
    return v;
  };
  view.field = (path: string): SegmentField | undefined => (visible(path) ? seg.field(path) : undefined);
  view.source = (doc: number): Uint8Array => {
    const bytes = seg.source(doc);
    if (bytes.length === 0) return bytes;
    return encoder.encode(stringifyJson(visibleSource(parseJson(bytes, '_source'), visible)));
  };
  if (byKey.size >= KEPT_VIEWS) byKey.delete(byKey.keys().next().value as string);
  byKey.set(key, view);
  return view;
}

/** `reader` as a request limited to `visibility` sees it (the reader itself when unlimited). */
export function fieldSubsetReader(reader: ShardReader, visibility: FieldVisibility | undefined): ShardReader {
  if (visibility === undefined) return reader;
  const key = JSON.stringify(visibility);
  const visible = fieldPredicate(visibility);
  const segments: ReaderSegment[] = reader.segments.map((rs) => ({
    ...rs,
    segment: segmentView(rs.segment, key, visible),
  }));
  const readerCache = new Map<string, unknown>();
  return {
    id: reader.id,
    segments,
    maxDoc: reader.maxDoc,
    numDocs: reader.numDocs,
    release: () => reader.release(),
    cached: <T>(k: string, compute: () => T): T => {
      let v = readerCache.get(k) as T | undefined;
      if (v === undefined) {
        v = compute();
        readerCache.set(k, v);
      }
      return v;
    },
  };
}
