/**
 * `min_score`: the docs whose score is below it are not hits, are not counted and are not
 * collected by the aggregations (Elasticsearch's MinimumScoreCollector / QueryPhaseCollector).
 * The comparison is on the float score a hit would report.
 */
import type { ReaderSegment } from '../index/shard-reader.ts';
import { markDocs } from './doc-bits.ts';
import { countPassing, docs, type Matches, NO_MATCHES } from './matches.ts';
import { DocListScorer, type Scorer } from './scorer.ts';
import type { Weight } from './weights.ts';

export class MinScoreWeight implements Weight {
  private readonly bySegment = new Map<ReaderSegment['segment'], Matches>();

  constructor(
    readonly inner: Weight,
    readonly minScore: number,
  ) {}

  /** The inner query's matches with their scores, less those below min_score (once per segment). */
  private passing(rs: ReaderSegment): Matches {
    let m = this.bySegment.get(rs.segment);
    if (m) return m;
    const all = this.inner.matches(rs, true);
    if (all.kind === 'all') {
      m = Math.fround(all.score) >= this.minScore ? all : NO_MATCHES;
    } else {
      const scores = all.scores;
      const keep = new Int32Array(all.docs.length);
      const kept = new Float64Array(all.docs.length);
      let n = 0;
      for (let i = 0; i < all.docs.length; i++) {
        const s = scores ? scores[i]! : 0;
        if (Math.fround(s) >= this.minScore) {
          keep[n] = all.docs[i]!;
          kept[n++] = s;
        }
      }
      m = docs(keep.subarray(0, n), kept.subarray(0, n));
    }
    this.bySegment.set(rs.segment, m);
    return m;
  }

  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    const m = this.passing(rs);
    return m.kind === 'docs' && !needsScores ? docs(m.docs) : m;
  }

  scorer(rs: ReaderSegment): Scorer | null {
    const m = this.passing(rs);
    if (m.kind === 'all') return this.inner.scorer(rs, true);
    return m.docs.length === 0 ? null : new DocListScorer(m.docs, m.scores, 0);
  }

  count(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    const m = this.passing(rs);
    return m.kind === 'all' ? this.inner.count(rs, excluded, passing) : countPassing(m.docs, excluded);
  }

  minCount(): number {
    return 0;
  }

  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    const m = this.passing(rs);
    if (m.kind === 'all') this.inner.markDocs(rs, bits);
    else markDocs(m.docs, bits);
  }
}
