/**
 * The shard's total hit count as `track_total_hits` asks for it (paging.md §1.2): exact up to
 * `trackTotalHitsUpTo`, and once more matches than that are certain, that lower bound with
 * the relation `gte` (the coordinator sums the shards and caps the sum at the threshold).
 *
 * Counting is kept apart from scoring, so that a top-k collector can always skip the docs that
 * cannot enter the top k, and it is done as cheaply as the index allows:
 * - segments whose count the index already knows are never visited (Lucene's Weight#count,
 *   Elasticsearch's shortcut total hit count: match_all, a single term without deletions, a
 *   materialised constant-score doc list);
 * - per-segment lower bounds (a disjunction matches at least what its largest clause matches,
 *   minus the docs that do not pass) can prove the threshold is passed before any doc is seen;
 * - the other segments are counted one at a time, until the assured total passes the
 *   threshold: sparse matches by iterating them (stopping as soon as the threshold is
 *   passed), dense ones as bitsets (postings OR-ed, AND-ed, popcounted; doc-bits.ts).
 */
import type { ReaderSegment, ShardReader } from '../index/shard-reader.ts';
import { acquireBits, countBits, releaseBits, wordsFor } from './doc-bits.ts';
import type { DocFilter } from './doc-filter.ts';
import type { CancelCheck } from './query-phase.ts';
import { NO_MORE_DOCS } from './scorer.ts';
import type { Weight } from './weights.ts';

export const TRACK_DISABLED = -1;
const TRACK_ACCURATE = 2147483647;

/** Matches at most maxDoc / SPARSE are counted by iteration rather than as a bitset. */
const SPARSE = 16;

export class HitCounter {
  /** Per segment ord: its count when known (exactly), -1 while it is not. */
  private readonly exact: number[] = [];
  /** Per segment ord: a lower bound of its count. */
  private readonly lower: number[] = [];
  /** Matches the shard surely has: known counts plus lower bounds of the other segments. */
  private assured = 0;
  /** Segments whose count is not known. */
  private inexact = 0;
  /** Whether segments must still be counted. */
  private counting: boolean;

  constructor(
    private readonly weight: Weight,
    reader: ShardReader,
    private readonly filter: DocFilter,
    private readonly upTo: number,
    private readonly cancel: CancelCheck,
  ) {
    for (const rs of reader.segments) {
      if (upTo === TRACK_DISABLED) {
        // Nothing to count: the total is only what the collector happens to see.
        this.exact.push(-1);
        this.lower.push(0);
        this.inexact++;
        continue;
      }
      const excluded = filter.excluded(rs);
      const passing = filter.count(rs);
      const exact = weight.count(rs, excluded, passing);
      const lower = exact >= 0 ? exact : weight.minCount(rs, excluded, passing);
      this.exact.push(exact);
      this.lower.push(lower);
      this.assured += lower;
      if (exact < 0) this.inexact++;
    }
    this.counting = upTo !== TRACK_DISABLED && this.inexact > 0 && this.assured <= upTo;
  }

  /** Counts the segment's matches if the total still needs them. */
  countSegment(rs: ReaderSegment): void {
    const ord = rs.ord;
    if (!this.counting || this.exact[ord]! >= 0) return;
    this.cancel.now();
    const excluded = this.filter.excluded(rs);
    this.assured -= this.lower[ord]!;
    const scorer = this.weight.scorer(rs, false);
    let n = 0;
    let complete = true;
    if (scorer && scorer.cost * SPARSE < rs.segment.maxDoc) {
      const room = this.upTo - this.assured;
      for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) {
        if (excluded !== null && (excluded[doc >>> 5]! & (1 << (doc & 31))) !== 0) continue;
        this.cancel.step();
        if (++n > room) {
          complete = false;
          break;
        }
      }
    } else if (scorer) {
      const words = wordsFor(rs.segment.maxDoc);
      const bits = acquireBits(words);
      this.weight.markDocs(rs, bits);
      n = countBits(bits, excluded, words);
      releaseBits(bits, words);
    }
    this.assured += n;
    if (complete) {
      this.exact[ord] = n;
      this.inexact--;
    } else this.lower[ord] = n;
    if (this.assured > this.upTo) this.counting = false;
  }

  get total(): number {
    return this.assured;
  }

  get relation(): 'eq' | 'gte' {
    return this.inexact === 0 ? 'eq' : 'gte';
  }
}

/** The exact number of the reader's docs that match and pass the filter (`_count`). */
export function countAll(
  weight: Weight,
  reader: ShardReader,
  filter: DocFilter,
  cancel: CancelCheck,
): number {
  const counter = new HitCounter(weight, reader, filter, TRACK_ACCURATE, cancel);
  for (const rs of reader.segments) counter.countSegment(rs);
  return counter.total;
}
