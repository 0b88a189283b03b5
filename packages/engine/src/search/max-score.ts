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
 * The score of a returned doc is the sum over its matching clauses in clause order, from 0 (then
 * rounded to float when this is the bool's own score), exactly as the materialised union adds
 * them, and every bound is added up in that same order (see `competitive`).
 */
import { NO_MORE_DOCS, Scorer, sumBound } from './scorer.ts';

const f = Math.fround;
const EMPTY_F64 = new Float64Array(0);
const EMPTY_I32 = new Int32Array(0);
const EMPTY_U8 = new Uint8Array(0);

export class DisjunctionScorer extends Scorer {
  readonly cost: number;
  private readonly n: number;
  /** The score of the current doc, once computed. */
  private current = 0;
  private scored = false;
  private minScore = Number.NEGATIVE_INFINITY;
  private exhausted = false;
  // MaxScore state, allocated once pruning starts: the window [.., upTo], each clause's bound
  // in it, clause indices by bound, and per clause what is known for the current candidate.
  private upTo = -1;
  private windowMax = EMPTY_F64;
  /** Each clause's bound from where pruning started to the end of the segment. */
  private restMax = EMPTY_F64;
  private order = EMPTY_I32;
  private firstEssential = 0;
  private clauseScore = EMPTY_F64;
  private status = EMPTY_U8;

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
  }

  nextDoc(): number {
    return this.advance(this.doc + 1);
  }

  advance(target: number): number {
    this.scored = false;
    if (this.minScore !== Number.NEGATIVE_INFINITY) return this.at(this.nextCompetitive(target));
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
      if (min === NO_MORE_DOCS || msm <= 1) return this.at(min);
      let matched = 0;
      for (let i = 0; i < this.n; i++) if (subs[i]!.doc === min) matched++;
      if (matched >= msm) return this.at(min);
      target = min + 1;
    }
  }

  score(): number {
    if (!this.scored) {
      const doc = this.doc;
      const subs = this.subs;
      let sum = 0;
      for (let i = 0; i < this.n; i++) {
        const s = subs[i]!;
        if (s.doc === doc) sum += s.score();
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
    // In clause order, as score() adds: rounding is monotonic, so this bounds every doc's sum.
    let sum = 0;
    for (const s of this.subs) if (s.doc !== NO_MORE_DOCS) sum += s.maxScore(upTo);
    if (!(sum >= 0)) return Number.POSITIVE_INFINITY;
    return this.round ? f(sum) : sum;
  }

  setMinCompetitiveScore(min: number): void {
    if (min <= this.minScore) return;
    this.minScore = min;
    const n = this.n;
    if (this.windowMax.length !== n) {
      // Pruning starts: the state, and each clause's bound over the rest of the segment.
      this.windowMax = new Float64Array(n);
      this.restMax = new Float64Array(n);
      this.clauseScore = new Float64Array(n);
      this.order = new Int32Array(n);
      this.status = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const s = this.subs[i]!;
        this.restMax[i] = s.doc === NO_MORE_DOCS ? 0 : s.maxScore(NO_MORE_DOCS);
      }
    }
    this.status.fill(UNKNOWN);
    if (!this.competitive(this.restMax)) this.exhausted = true;
    else if (this.upTo >= 0) this.partition();
  }

  /**
   * Whether a doc may still beat the threshold given what is known of its clauses: the score
   * of those evaluated (MATCHED), nothing for those that do not match (ABSENT), the window
   * bound (`wm`) for the others (UNKNOWN). Added up in clause order, as the score itself is: rounding
   * is monotonic, so the result bounds the score exactly (no margin, and no doc tying with the
   * threshold is let through). Past EXACT_ORDER clauses, an order-independent margin is used.
   */
  private competitive(wm: Float64Array = this.windowMax): boolean {
    const status = this.status;
    const cs = this.clauseScore;
    let sum = 0;
    for (let i = 0; i < this.n; i++) {
      const st = status[i]!;
      if (st !== ABSENT) sum += st === MATCHED ? cs[i]! : wm[i]!;
    }
    if (this.n > EXACT_ORDER) return sumBound(sum, this.round) > this.minScore;
    if (!(sum >= 0)) return true;
    return (this.round ? f(sum) : sum) > this.minScore;
  }

  /** MaxScore: the first doc >= target that may be competitive, with its score computed. */
  private nextCompetitive(target: number): number {
    if (this.exhausted) return NO_MORE_DOCS;
    const subs = this.subs;
    const n = this.n;
    const msm = this.minShouldMatch;
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
      const order = this.order;
      const status = this.status;
      const clauseScore = this.clauseScore;
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
      let matched = 0;
      for (let k = 0; k < n; k++) status[k] = UNKNOWN;
      for (let k = this.firstEssential; k < n; k++) {
        const i = order[k]!;
        const s = subs[i]!;
        if (s.doc !== cand) {
          status[i] = ABSENT;
          continue;
        }
        clauseScore[i] = s.score();
        status[i] = MATCHED;
        matched++;
      }
      let ok = this.competitive();
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
          clauseScore[i] = s.score();
          status[i] = MATCHED;
          matched++;
        } else status[i] = ABSENT;
        ok = this.competitive();
      }
      if (ok && matched >= msm) {
        let sum = 0;
        for (let i = 0; i < n; i++) if (status[i] === MATCHED) sum += clauseScore[i]!;
        this.current = this.round ? f(sum) : sum;
        this.scored = true;
        return cand;
      }
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

  /**
   * Clauses by ascending bound; the non-essential ones are the longest prefix of that order
   * whose bounds together cannot beat the threshold.
   */
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
    const status = this.status;
    status.fill(ABSENT);
    let k = 0;
    for (; k < n; k++) {
      status[order[k]!] = UNKNOWN;
      if (this.competitive()) break;
    }
    this.firstEssential = k;
  }
}

const UNKNOWN = 0;
const MATCHED = 1;
const ABSENT = 2;
/** Up to this many clauses, bounds are added up in clause order (exact); beyond, with a margin. */
const EXACT_ORDER = 32;
