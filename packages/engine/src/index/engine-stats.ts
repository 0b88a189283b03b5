/**
 * Counters behind `GET /{index}/_stats` for one shard: indexing, refresh, flush and merges
 * (Elasticsearch's IndexingStats, RefreshStats, FlushStats, MergeStats).
 */
import type { Segment } from './segment.ts';

export class EngineStats {
  indexTotal = 0;
  deleteTotal = 0;
  indexTimeMs = 0;
  refreshTotal = 0;
  refreshTimeMs = 0;
  flushTotal = 0;
  flushTimeMs = 0;
  mergeTotal = 0;
  mergeTimeMs = 0;
  mergeDocs = 0;
  mergeBytes = 0;

  recordMerge(inputs: readonly { segment: Segment }[], merged: Segment, ms: number): void {
    this.mergeTotal++;
    this.mergeTimeMs += ms;
    this.mergeDocs += merged.maxDoc;
    for (const i of inputs) this.mergeBytes += i.segment.sizeInBytes;
  }
}
