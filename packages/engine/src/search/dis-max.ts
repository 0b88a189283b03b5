/**
 * dis_max doc at a time (Lucene's DisjunctionMaxScorer): the union of the clauses, scored as
 * the best clause plus tie_breaker × the others, in float. With a tie_breaker of 0 the score
 * is the best clause's alone, so a threshold passes to every clause unchanged: a doc whose
 * clauses all stay at or under it cannot compete, and a clause that skips such a doc cannot
 * lower the maximum of a doc another clause makes competitive (as Lucene does).
 */
import { NO_MORE_DOCS, Scorer, sumBound } from './scorer.ts';

const f = Math.fround;

export class DisMaxScorer extends Scorer {
  readonly cost: number;

  constructor(
    private readonly subs: readonly Scorer[],
    private readonly tieBreaker: number,
  ) {
    super();
    let cost = 0;
    for (const s of subs) cost += s.cost;
    this.cost = cost;
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    let min = NO_MORE_DOCS;
    const subs = this.subs;
    for (let i = 0; i < subs.length; i++) {
      const s = subs[i]!;
      let d = s.doc;
      if (d < target) d = d + 1 === target ? s.nextDoc() : s.advance(target);
      if (d < min) min = d;
    }
    return this.at(min);
  }

  score(): number {
    const doc = this.doc;
    let sum = 0;
    let max = 0;
    for (const s of this.subs) {
      if (s.doc !== doc) continue;
      const sc = s.score();
      sum += sc;
      if (sc > max) max = sc;
    }
    return f(max + (sum - max) * this.tieBreaker);
  }

  advanceShallow(target: number): number {
    let upTo = NO_MORE_DOCS;
    for (const s of this.subs) {
      if (s.doc === NO_MORE_DOCS) continue;
      const e = s.advanceShallow(target);
      if (e < upTo) upTo = e;
    }
    return upTo;
  }

  maxScore(upTo: number): number {
    const tie = this.tieBreaker;
    if (!(tie >= 0 && tie <= 1)) return Number.POSITIVE_INFINITY;
    let sum = 0;
    let max = 0;
    for (const s of this.subs) {
      if (s.doc === NO_MORE_DOCS) continue;
      const m = s.maxScore(upTo);
      sum += m;
      if (m > max) max = m;
    }
    // With tie 0 the score is the best clause's, exactly; otherwise (1 - tie)·max + tie·sum
    // grows with every clause's score, up to the rounding of sum - max (hence the margin).
    if (tie === 0) return max;
    return sumBound(max + (sum - max) * tie, true);
  }

  setMinCompetitiveScore(min: number): void {
    // A doc no clause matches positively still scores 0 (the maximum starts there).
    if (this.tieBreaker === 0 && min >= 0) for (const s of this.subs) s.setMinCompetitiveScore(min);
  }
}
