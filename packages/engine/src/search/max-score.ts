/**
 * The disjunction of a bool query's should clauses (optionally with minimum_should_match),
 * summing the scores of the clauses that match.
 *
 * Until the collector sets a minimum competitive score it is a plain union. After that it
 * runs block-max MaxScore (Turtle & Flood; Lucene's MaxScoreBulkScorer, doc at a time): the
 * doc range is cut into windows at the clauses' block boundaries, and per window each clause
 * has an upper bound (its block maxima). Clauses sorted by bound, the longest prefix whose
 * bounds add up to no more than the threshold is non-essential: a doc that only they match
 * cannot be competitive, so only the essential clauses lead the iteration, and the others are
 * advanced to a candidate only while the candidate can still beat the threshold. A window in
 * which no clause is essential is skipped whole.
 *
 * The score of a returned doc is the sum over its matching clauses in clause order (then
 * rounded to float when this is the bool's own score), exactly as the materialised union adds
 * them; bounds added in another order go through `sumBound`.
 */
import { NO_MORE_DOCS, Scorer, sumBound } from './scorer.ts';

const f = Math.fround;

export class DisjunctionScorer extends Scorer {
  readonly cost: number;
  private readonly n: number;
  /** The score of the current doc, once computed. */
  private current = 0;
  private scored = false;
  private minScore = Number.NEGATIVE_INFINITY;
  private exhausted = false;
  // MaxScore state: the window [.., upTo], each clause's bound in it, clause indices by bound.
  private upTo = -1;
  private readonly windowMax: Float64Array;
  private readonly order: Int32Array;
  /** prefix[k]: bounds of order[0..k) added up. */
  private readonly prefix: Float64Array;
  private firstEssential = 0;
  private readonly clauseScore: Float64Array;
  private readonly on: Uint8Array;

  constructor(
    private readonly subs: readonly Scorer[],
    /** At least 1. */
    private readonly minShouldMatch: number,
    private readonly round: boolean,
  ) {
    super();
    const n = subs.length;
    this.n = n;
    let cost = 0;
    for (const s of subs) cost += s.cost;
    this.cost = cost;
    this.windowMax = new Float64Array(n);
    this.order = new Int32Array(n);
    this.prefix = new Float64Array(n + 1);
    this.clauseScore = new Float64Array(n);
    this.on = new Uint8Array(n);
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    this.scored = false;
    if (this.minScore !== Number.NEGATIVE_INFINITY) return (this.doc = this.nextCompetitive(target));
    const subs = this.subs;
    const msm = this.minShouldMatch;
    for (;;) {
      let min = NO_MORE_DOCS;
      for (let i = 0; i < this.n; i++) {
        const s = subs[i]!;
        let d = s.doc;
        if (d < target) d = d + 1 === target ? s.nextDoc() : s.advance(target);
        if (d < min) min = d;
      }
      if (min === NO_MORE_DOCS || msm <= 1) return (this.doc = min);
      let matched = 0;
      for (let i = 0; i < this.n; i++) if (subs[i]!.doc === min) matched++;
      if (matched >= msm) return (this.doc = min);
      target = min + 1;
    }
  }

  score(): number {
    if (!this.scored) {
      const doc = this.doc;
      const subs = this.subs;
      let sum = 0;
      let first = true;
      for (let i = 0; i < this.n; i++) {
        const s = subs[i]!;
        if (s.doc !== doc) continue;
        if (first) {
          sum = s.score();
          first = false;
        } else sum += s.score();
      }
      this.current = this.round ? f(sum) : sum;
      this.scored = true;
    }
    return this.current;
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
    let sum = 0;
    for (const s of this.subs) if (s.doc !== NO_MORE_DOCS) sum += s.maxScore(upTo);
    return sumBound(sum, this.round);
  }

  setMinCompetitiveScore(min: number): void {
    if (min <= this.minScore) return;
    this.minScore = min;
    // The clauses' bounds over the rest of the segment may already rule everything out.
    let rest = 0;
    for (const s of this.subs) if (s.doc !== NO_MORE_DOCS) rest += s.maxScore(NO_MORE_DOCS);
    if (!this.competitive(rest)) this.exhausted = true;
    else if (this.upTo >= 0) this.partition();
  }

  /** Whether a doc whose score is at most `bound` (added up in any order) may beat the threshold. */
  private competitive(bound: number): boolean {
    return sumBound(bound, this.round) > this.minScore;
  }

  /** MaxScore: the first doc >= target that may be competitive, with its score computed. */
  private nextCompetitive(target: number): number {
    const subs = this.subs;
    const order = this.order;
    const n = this.n;
    const msm = this.minShouldMatch;
    const clauseScore = this.clauseScore;
    const on = this.on;
    if (this.exhausted) return NO_MORE_DOCS;
    for (;;) {
      if (target > this.upTo) {
        if (target >= NO_MORE_DOCS) return NO_MORE_DOCS;
        this.window(target);
        if (this.firstEssential === n) {
          if (this.upTo >= NO_MORE_DOCS) return NO_MORE_DOCS;
          target = this.upTo + 1;
          continue;
        }
      }
      // The candidate: the smallest doc of an essential clause.
      let cand = NO_MORE_DOCS;
      for (let k = this.firstEssential; k < n; k++) {
        const s = subs[order[k]!]!;
        let d = s.doc;
        if (d < target) d = d + 1 === target ? s.nextDoc() : s.advance(target);
        if (d < cand) cand = d;
      }
      if (cand > this.upTo || cand === NO_MORE_DOCS) {
        if (this.upTo >= NO_MORE_DOCS) return NO_MORE_DOCS;
        target = this.upTo + 1;
        continue;
      }
      let partial = 0;
      let matched = 0;
      for (let k = this.firstEssential; k < n; k++) {
        const i = order[k]!;
        const s = subs[i]!;
        if (s.doc !== cand) continue;
        const sc = s.score();
        clauseScore[i] = sc;
        on[i] = 1;
        partial += sc;
        matched++;
      }
      let ok = this.competitive(partial + this.prefix[this.firstEssential]!);
      // Non-essential clauses, highest bound first, while the doc can still make it.
      for (let k = this.firstEssential - 1; ok && k >= 0; k--) {
        if (matched + k + 1 < msm) {
          ok = false;
          break;
        }
        const i = order[k]!;
        const s = subs[i]!;
        if (s.doc < cand) s.advance(cand);
        if (s.doc === cand) {
          const sc = s.score();
          clauseScore[i] = sc;
          on[i] = 1;
          partial += sc;
          matched++;
        }
        ok = this.competitive(partial + this.prefix[k]!);
      }
      if (ok && matched >= msm) {
        let sum = 0;
        let first = true;
        for (let i = 0; i < n; i++) {
          if (on[i] === 0) continue;
          on[i] = 0;
          if (first) {
            sum = clauseScore[i]!;
            first = false;
          } else sum += clauseScore[i]!;
        }
        this.current = this.round ? f(sum) : sum;
        this.scored = true;
        return cand;
      }
      on.fill(0);
      target = cand + 1;
    }
  }

  /** A new window from `target`: its end, the clauses' bounds in it, and the partition. */
  private window(target: number): void {
    const subs = this.subs;
    let upTo = NO_MORE_DOCS;
    for (let i = 0; i < this.n; i++) {
      const s = subs[i]!;
      if (s.doc === NO_MORE_DOCS) continue;
      const e = s.advanceShallow(target);
      if (e < upTo) upTo = e;
    }
    for (let i = 0; i < this.n; i++) {
      const s = subs[i]!;
      this.windowMax[i] = s.doc === NO_MORE_DOCS ? 0 : s.maxScore(upTo);
    }
    this.upTo = upTo;
    this.partition();
  }

  /** Clauses by ascending bound; the non-essential prefix is what cannot beat the threshold. */
  private partition(): void {
    const n = this.n;
    const order = this.order;
    const wm = this.windowMax;
    for (let i = 0; i < n; i++) {
      // Insertion sort: clause counts are small.
      let j = i;
      while (j > 0 && wm[order[j - 1]!]! > wm[i]!) {
        order[j] = order[j - 1]!;
        j--;
      }
      order[j] = i;
    }
    const prefix = this.prefix;
    prefix[0] = 0;
    for (let k = 0; k < n; k++) prefix[k + 1] = prefix[k]! + wm[order[k]!]!;
    let k = 0;
    while (k < n && !this.competitive(prefix[k + 1]!)) k++;
    this.firstEssential = k;
  }
}
