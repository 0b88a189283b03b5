/** Lucene's DisjunctionMaxQuery compiled per reader. */
import type { ReaderSegment } from '../index/shard-reader.ts';
import { DisMaxScorer } from './dis-max.ts';
import { type Matches, materialise, union } from './matches.ts';
import type { Scorer } from './scorer.ts';
import type { Weight } from './weights.ts';

const f = Math.fround;

/** Lucene's DisjunctionMaxQuery: the best clause's score plus tie_breaker × the others'. */
export class DisMaxWeight implements Weight {
  constructor(
    readonly clauses: Weight[],
    readonly tieBreaker: number,
  ) {}

  scorer(rs: ReaderSegment, needsScores: boolean): Scorer | null {
    const subs: Scorer[] = [];
    for (const w of this.clauses) {
      const s = w.scorer(rs, needsScores);
      if (s) subs.push(s);
    }
    if (subs.length === 0) return null;
    // A single clause is returned as it is (its score unchanged), as the materialised form does.
    if (this.clauses.length === 1) return subs[0]!;
    return new DisMaxScorer(subs, this.tieBreaker);
  }

  count(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    return this.clauses.length === 1 ? this.clauses[0]!.count(rs, excluded, passing) : -1;
  }

  minCount(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    let best = 0;
    for (const w of this.clauses) best = Math.max(best, w.minCount(rs, excluded, passing));
    return best;
  }

  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    for (const w of this.clauses) w.markDocs(rs, bits);
  }

  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    const maxDoc = rs.segment.maxDoc;
    const parts = this.clauses.map((w) => materialise(w.matches(rs, needsScores), maxDoc, needsScores));
    if (parts.length === 1) return parts[0]!;
    const u = union(parts, maxDoc, false, false);
    if (!needsScores) return { kind: 'docs', docs: u.docs, scores: null };
    const sum = new Float64Array(u.docs.length);
    const max = new Float64Array(u.docs.length);
    for (const part of parts) {
      let j = 0;
      for (let i = 0; i < part.docs.length; i++) {
        const doc = part.docs[i]!;
        while (u.docs[j]! < doc) j++;
        const s = part.scores?.[i] ?? 0;
        sum[j]! += s;
        if (s > max[j]!) max[j] = s;
      }
    }
    const scores = new Float64Array(u.docs.length);
    for (let i = 0; i < scores.length; i++) scores[i] = f(max[i]! + (sum[i]! - max[i]!) * this.tieBreaker);
    return { kind: 'docs', docs: u.docs, scores };
  }
}
