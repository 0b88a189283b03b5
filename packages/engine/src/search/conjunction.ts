/**
 * The required side of a bool query, doc at a time (Lucene's ConjunctionDISI,
 * BlockMaxConjunctionScorer, ReqExclScorer and ReqOptSumScorer):
 * - a conjunction leapfrogs from its rarest clause (lowest cost), the others only `advance`
 *   to the lead's candidate; once a threshold is set, windows whose summed block maxima cannot
 *   beat it are skipped, and a lone scoring clause gets the threshold itself;
 * - must_not clauses remove docs from the positive side without touching scores;
 * - optional (should) clauses add their score to the required docs they match; once a
 *   threshold is set, a window where the required side alone cannot beat it only considers
 *   the docs the optional side also matches.
 * Scores add up in clause order, required first, as the materialised bool does.
 */
import { NO_MORE_DOCS, Scorer } from './scorer.ts';

const f = Math.fround;

export class ConjunctionScorer extends Scorer {
  readonly cost: number;
  private readonly lead: Scorer;
  private readonly others: Scorer[];
  private minScore = Number.NEGATIVE_INFINITY;
  /** Window for block-max skipping: docs up to `blockEnd` are bounded by `blockMax`. */
  private blockEnd = -1;
  private blockMax = Number.POSITIVE_INFINITY;

  constructor(
    subs: readonly Scorer[],
    /** The clauses that score, in clause order (a subset of `subs`). */
    private readonly scoring: readonly Scorer[],
    private readonly round: boolean,
  ) {
    super();
    const byCost = [...subs].sort((a, b) => a.cost - b.cost);
    this.lead = byCost[0]!;
    this.others = byCost.slice(1);
    this.cost = this.lead.cost;
  }

  nextDoc(): number {
    return this.doNext(this.lead.nextDoc());
  }

  advance(target: number): number {
    return this.doNext(this.lead.advance(target));
  }

  private doNext(doc: number): number {
    const lead = this.lead;
    const others = this.others;
    const pruning = this.minScore !== Number.NEGATIVE_INFINITY && this.scoring.length > 1;
    outer: for (;;) {
      if (doc === NO_MORE_DOCS) return this.at(NO_MORE_DOCS);
      if (pruning) {
        if (doc > this.blockEnd) {
          this.blockEnd = this.advanceShallow(doc);
          this.blockMax = this.maxScore(this.blockEnd);
        }
        if (this.blockMax <= this.minScore) {
          if (this.blockEnd >= NO_MORE_DOCS) return this.at(NO_MORE_DOCS);
          doc = lead.advance(this.blockEnd + 1);
          continue;
        }
      }
      for (let i = 0; i < others.length; i++) {
        const o = others[i]!;
        let d = o.doc;
        if (d < doc) d = o.advance(doc);
        if (d > doc) {
          doc = lead.advance(d);
          continue outer;
        }
      }
      return this.at(doc);
    }
  }

  score(): number {
    const sc = this.scoring;
    if (sc.length === 0) return 0;
    let sum = sc[0]!.score();
    for (let i = 1; i < sc.length; i++) sum += sc[i]!.score();
    return this.round ? f(sum) : sum;
  }

  advanceShallow(target: number): number {
    let upTo = NO_MORE_DOCS;
    for (const s of this.scoring) {
      const e = s.advanceShallow(target);
      if (e < upTo) upTo = e;
    }
    return upTo;
  }

  maxScore(upTo: number): number {
    const sc = this.scoring;
    if (sc.length === 0) return 0;
    // The same order as score(): rounding is monotonic, so this bounds every doc's sum.
    let sum = sc[0]!.maxScore(upTo);
    for (let i = 1; i < sc.length; i++) sum += sc[i]!.maxScore(upTo);
    return this.round ? f(sum) : sum;
  }

  setMinCompetitiveScore(min: number): void {
    if (min <= this.minScore) return;
    this.minScore = min;
    // A lone scoring clause is the whole score (filters add nothing): let it skip by itself.
    if (this.scoring.length === 1) this.scoring[0]!.setMinCompetitiveScore(min);
    else if (this.scoring.length > 1) {
      // The bound over the rest of the segment may already rule everything out.
      this.blockEnd = NO_MORE_DOCS;
      this.blockMax = this.maxScore(NO_MORE_DOCS);
      if (this.blockMax > min) this.blockEnd = -1;
    }
  }
}

/** Required docs minus the excluded ones (must_not); the score is the required side's. */
export class ReqExclScorer extends Scorer {
  readonly cost: number;

  constructor(
    private readonly req: Scorer,
    private readonly excl: Scorer,
  ) {
    super();
    this.cost = req.cost;
  }

  nextDoc(): number {
    return this.at(this.skipExcluded(this.req.nextDoc()));
  }

  advance(target: number): number {
    return this.at(this.skipExcluded(this.req.advance(target)));
  }

  private skipExcluded(d: number): number {
    const excl = this.excl;
    while (d !== NO_MORE_DOCS) {
      let e = excl.doc;
      if (e < d) e = excl.advance(d);
      if (e !== d) return d;
      d = this.req.nextDoc();
    }
    return d;
  }

  score(): number {
    return this.req.score();
  }

  advanceShallow(target: number): number {
    return this.req.advanceShallow(target);
  }

  maxScore(upTo: number): number {
    return this.req.maxScore(upTo);
  }

  setMinCompetitiveScore(min: number): void {
    this.req.setMinCompetitiveScore(min);
  }
}

/** Required docs, plus the optional side's score where it also matches. */
export class ReqOptScorer extends Scorer {
  readonly cost: number;
  private minScore = Number.NEGATIVE_INFINITY;
  private blockEnd = -1;
  /** In the current window: no doc can compete / only docs the optional side matches can. */
  private skipBlock = false;
  private optRequired = false;

  constructor(
    private readonly req: Scorer,
    private readonly opt: Scorer,
    private readonly round: boolean,
  ) {
    super();
    this.cost = req.cost;
  }

  nextDoc(): number {
    return this.doNext(this.req.nextDoc());
  }

  advance(target: number): number {
    return this.doNext(this.req.advance(target));
  }

  private doNext(doc: number): number {
    if (this.minScore === Number.NEGATIVE_INFINITY) return this.at(doc);
    const req = this.req;
    const opt = this.opt;
    for (;;) {
      if (doc === NO_MORE_DOCS) return this.at(NO_MORE_DOCS);
      if (doc > this.blockEnd) this.window(doc);
      if (this.skipBlock) {
        if (this.blockEnd >= NO_MORE_DOCS) return this.at(NO_MORE_DOCS);
        doc = req.advance(this.blockEnd + 1);
        continue;
      }
      if (!this.optRequired) return this.at(doc);
      // Only docs of both sides can compete here: leapfrog them.
      let o = opt.doc;
      if (o < doc) o = opt.advance(doc);
      if (o === doc) return this.at(doc);
      if (o > this.blockEnd) {
        // Nothing of the optional side left in this window.
        if (this.blockEnd >= NO_MORE_DOCS) return this.at(NO_MORE_DOCS);
        doc = req.advance(Math.min(o, this.blockEnd + 1));
      } else doc = req.advance(o);
    }
  }

  private window(doc: number): void {
    const reqEnd = this.req.advanceShallow(doc);
    const optEnd = this.opt.doc === NO_MORE_DOCS ? NO_MORE_DOCS : this.opt.advanceShallow(doc);
    const end = Math.min(reqEnd, optEnd);
    const reqMax = this.req.maxScore(end);
    const optMax = this.opt.doc === NO_MORE_DOCS ? 0 : this.opt.maxScore(end);
    const bound = reqMax + optMax;
    this.blockEnd = end;
    this.skipBlock = (this.round ? f(bound) : bound) <= this.minScore;
    this.optRequired = !this.skipBlock && (this.round ? f(reqMax) : reqMax) <= this.minScore;
  }

  score(): number {
    const doc = this.doc;
    let sum = this.req.score();
    const opt = this.opt;
    let o = opt.doc;
    if (o < doc) o = opt.advance(doc);
    if (o === doc) sum += opt.score();
    return this.round ? f(sum) : sum;
  }

  advanceShallow(target: number): number {
    const a = this.req.advanceShallow(target);
    if (this.opt.doc === NO_MORE_DOCS) return a;
    return Math.min(a, this.opt.advanceShallow(target));
  }

  maxScore(upTo: number): number {
    let sum = this.req.maxScore(upTo);
    if (this.opt.doc !== NO_MORE_DOCS) sum += this.opt.maxScore(upTo);
    return this.round ? f(sum) : sum;
  }

  setMinCompetitiveScore(min: number): void {
    if (min <= this.minScore) return;
    this.minScore = min;
    // Until the next window: the rest of the segment, which may already be ruled out.
    this.blockEnd = NO_MORE_DOCS;
    const reqMax = this.req.maxScore(NO_MORE_DOCS);
    const bound = reqMax + (this.opt.doc === NO_MORE_DOCS ? 0 : this.opt.maxScore(NO_MORE_DOCS));
    this.skipBlock = (this.round ? f(bound) : bound) <= min;
    if (!this.skipBlock) this.blockEnd = -1;
  }
}
