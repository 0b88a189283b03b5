/**
 * The query scores of the docs an aggregation visits, for the aggregations that show or sort
 * by them (top_hits): the query's matches of the segment with scores, looked up by doc.
 */
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { Matches } from '../search/matches.ts';

export interface ScoreSource {
  /** The segment's matches with their scores. */
  scored(rs: ReaderSegment): Matches;
}

export class DocScores {
  private matches: Matches | null = null;
  private segment: ReaderSegment | null = null;

  constructor(private readonly source: ScoreSource | undefined) {}

  setSegment(rs: ReaderSegment): void {
    if (this.segment !== rs) {
      this.segment = rs;
      this.matches = null;
    }
  }

  /** The score of a segment doc the query matched (1 when the query gives no scores). */
  score(doc: number): number {
    if (this.source === undefined || this.segment === null) return 1;
    this.matches ??= this.source.scored(this.segment);
    const m = this.matches;
    if (m.kind === 'all') return m.score;
    if (m.scores === null) return 1;
    const docs = m.docs;
    let lo = 0;
    let hi = docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const d = docs[mid]!;
      if (d === doc) return m.scores[mid]!;
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }
}
