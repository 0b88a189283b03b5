/**
 * Deferred collection (Elasticsearch's DeferringBucketCollector): an aggregation that decides
 * which docs its sub-aggregations see only once every doc has been seen (the samplers,
 * auto_date_histogram) keeps (segment, doc, bucket) triples and replays them into the
 * sub-collectors at build time, segment by segment in ascending doc order, as a first pass would
 * have fed them.
 */
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { AggCollector } from './collector.ts';

export interface DeferredDoc {
  readonly segment: ReaderSegment;
  readonly doc: number;
  readonly bucket: number;
}

/** Feeds `docs` (in any order) to `subs`; each sub-collector then builds its buckets as usual. */
export function replay(subs: readonly AggCollector[], docs: DeferredDoc[]): void {
  if (subs.length === 0 || docs.length === 0) return;
  docs.sort((a, b) => a.segment.ord - b.segment.ord || a.doc - b.doc || a.bucket - b.bucket);
  let current: ReaderSegment | null = null;
  for (const d of docs) {
    if (d.segment !== current) {
      current = d.segment;
      for (const s of subs) s.setSegment(current);
    }
    for (const s of subs) s.collect(d.doc, d.bucket);
  }
}
