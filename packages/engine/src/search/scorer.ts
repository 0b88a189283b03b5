/**
 * Doc-at-a-time scoring for one segment (Lucene's Scorer): an iterator over the matching docs
 * in increasing order whose `score()` is computed only when asked, with per-range score upper
 * bounds (`advanceShallow` / `maxScore`, Lucene's block-max impacts) and
 * `setMinCompetitiveScore`, through which the top-k collector lets a scorer skip the docs that
 * can no longer enter the top k. The materialised form (matches.ts) stays the reference:
 * every scorer returns the same docs with bit-identical scores when nothing is skipped.
 *
 * Competitiveness is strict: a doc is only worth returning when its score is above the
 * threshold, because docs arrive in increasing doc order and a tie loses to the doc already
 * kept (the collector orders equal scores by doc id).
 */

const f = Math.fround;

export const NO_MORE_DOCS = 0x7fffffff;

export abstract class Scorer {
  /** Current doc: -1 before the first move, NO_MORE_DOCS once exhausted. */
  doc = -1;
  /** An upper bound of the number of docs this scorer matches (leapfrog order, lead choice). */
  abstract readonly cost: number;
  /** Moves to the next match. */
  abstract nextDoc(): number;
  /** Moves to the first match >= target (target > doc). */
  abstract advance(target: number): number;
  /** Score of the current doc. */
  abstract score(): number;
  /**
   * Prepares `maxScore` for docs >= target without moving the iterator; returns the last doc
   * of the range the next bounds are precise for (NO_MORE_DOCS when they cover the segment).
   */
  advanceShallow(_target: number): number {
    return NO_MORE_DOCS;
  }
  /** An upper bound of `score()` over the docs from the last `advanceShallow` target to `upTo`. */
  abstract maxScore(upTo: number): number;
  /** From now on, docs scoring <= `min` may be skipped. */
  setMinCompetitiveScore(_min: number): void {}

  /** Moves to `doc` and returns it. */
  protected at(doc: number): number {
    this.doc = doc;
    return doc;
  }
}

/**
 * An upper bound of a double sum that was added up in another order than the score itself
 * (at most ~2^-50 relative apart for any realistic clause count), in the score's space:
 * rounded to float when the score is. Bounds are only meaningful for non-negative scores;
 * a negative one turns pruning off (Infinity).
 */
export function sumBound(sum: number, round: boolean): number {
  if (!(sum >= 0)) return sum < 0 ? Number.POSITIVE_INFINITY : sum;
  const up = sum * (1 + 2 ** -40);
  return round ? f(up) : up;
}

/** Every doc of the segment with one score (match_all). */
export class AllDocsScorer extends Scorer {
  readonly cost: number;
  private exhausted = false;

  constructor(
    private readonly maxDoc: number,
    private readonly constant: number,
  ) {
    super();
    this.cost = maxDoc;
  }

  nextDoc(): number {
    const d = this.doc + 1;
    return this.at(d < this.maxDoc && !this.exhausted ? d : NO_MORE_DOCS);
  }

  advance(target: number): number {
    return this.at(target < this.maxDoc && !this.exhausted ? target : NO_MORE_DOCS);
  }

  score(): number {
    return this.constant;
  }

  maxScore(): number {
    return this.constant < 0 ? Number.POSITIVE_INFINITY : this.constant;
  }

  setMinCompetitiveScore(min: number): void {
    if (this.constant >= 0 && this.constant <= min) this.exhausted = true;
  }
}

/**
 * A materialised doc list (constant-score queries, phrases): sorted segment docs with a score
 * each or one constant score.
 */
export class DocListScorer extends Scorer {
  readonly cost: number;
  private i = -1;
  private max = Number.NaN;
  private exhausted = false;

  constructor(
    private readonly docs: Int32Array,
    private readonly scores: Float64Array | null,
    private readonly constant: number,
  ) {
    super();
    this.cost = docs.length;
  }

  nextDoc(): number {
    const i = ++this.i;
    return this.at(i < this.docs.length && !this.exhausted ? this.docs[i]! : NO_MORE_DOCS);
  }

  advance(target: number): number {
    const docs = this.docs;
    let i = this.i + 1;
    if (i < docs.length && docs[i]! < target) i = gallop(docs, i + 1, docs.length, target);
    this.i = i;
    return this.at(i < docs.length && !this.exhausted ? docs[i]! : NO_MORE_DOCS);
  }

  score(): number {
    return this.scores ? this.scores[this.i]! : this.constant;
  }

  maxScore(): number {
    if (Number.isNaN(this.max)) {
      let m = this.scores ? Number.NEGATIVE_INFINITY : this.constant;
      const s = this.scores;
      if (s) for (let i = 0; i < s.length; i++) if (s[i]! > m) m = s[i]!;
      this.max = m < 0 ? Number.POSITIVE_INFINITY : m;
    }
    return this.max;
  }

  setMinCompetitiveScore(min: number): void {
    if (this.maxScore() <= min) this.exhausted = true;
  }
}

/** `constant_score` and filter clauses: the inner scorer's docs, one score. */
export class ConstantScorer extends Scorer {
  readonly cost: number;
  private exhausted = false;

  constructor(
    private readonly inner: Scorer,
    private readonly constant: number,
  ) {
    super();
    this.cost = inner.cost;
  }

  nextDoc(): number {
    return this.at(this.exhausted ? NO_MORE_DOCS : this.inner.nextDoc());
  }

  advance(target: number): number {
    return this.at(this.exhausted ? NO_MORE_DOCS : this.inner.advance(target));
  }

  score(): number {
    return this.constant;
  }

  maxScore(): number {
    return this.constant < 0 ? Number.POSITIVE_INFINITY : this.constant;
  }

  setMinCompetitiveScore(min: number): void {
    if (this.constant >= 0 && this.constant <= min) this.exhausted = true;
  }
}

/**
 * A constant-score doc set checked doc by doc (two-phase): the approximation's docs that pass
 * `matches`. Costs nothing until asked, and as a conjunction's follower it only checks the
 * docs the lead proposes.
 */
export class VerifyingScorer extends Scorer {
  readonly cost: number;
  private i = -1;
  private exhausted = false;

  constructor(
    private readonly approximation: Int32Array,
    private readonly matches: (doc: number) => boolean,
    private readonly constant: number,
  ) {
    super();
    this.cost = approximation.length;
  }

  nextDoc(): number {
    return this.scan(this.i + 1);
  }

  advance(target: number): number {
    const a = this.approximation;
    let i = this.i + 1;
    if (i < a.length && a[i]! < target) i = gallop(a, i + 1, a.length, target);
    return this.scan(i);
  }

  private scan(i: number): number {
    const a = this.approximation;
    if (this.exhausted) i = a.length;
    while (i < a.length && !this.matches(a[i]!)) i++;
    this.i = i;
    return this.at(i < a.length ? a[i]! : NO_MORE_DOCS);
  }

  score(): number {
    return this.constant;
  }

  maxScore(): number {
    return this.constant < 0 ? Number.POSITIVE_INFINITY : this.constant;
  }

  setMinCompetitiveScore(min: number): void {
    if (this.constant >= 0 && this.constant <= min) this.exhausted = true;
  }
}

/** First index in [from, to) whose doc is >= target (exponential then binary search). */
export function gallop(arr: Int32Array, from: number, to: number, target: number): number {
  let step = 1;
  let lo = from;
  let hi = from;
  while (hi < to && arr[hi]! < target) {
    lo = hi + 1;
    hi += step;
    step <<= 1;
  }
  if (hi > to) hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A scorer known first by an upper bound of its scores: the doc list behind it is only built
 * when a doc is asked for, so a collector whose threshold the bound cannot beat never builds it.
 */
export class LazyScorer extends Scorer {
  private inner: Scorer | null = null;
  private exhausted = false;

  constructor(
    private readonly bound: number,
    /** The scorer behind the bound; null when the segment has no match. */
    private readonly build: () => Scorer | null,
  ) {
    super();
  }

  private get scorer(): Scorer {
    this.inner ??= this.build() ?? new DocListScorer(new Int32Array(0), null, 0);
    return this.inner;
  }

  get cost(): number {
    return this.scorer.cost;
  }

  nextDoc(): number {
    return this.at(this.exhausted ? NO_MORE_DOCS : this.scorer.nextDoc());
  }

  advance(target: number): number {
    return this.at(this.exhausted ? NO_MORE_DOCS : this.scorer.advance(target));
  }

  score(): number {
    return this.scorer.score();
  }

  advanceShallow(target: number): number {
    return this.inner === null ? NO_MORE_DOCS : this.inner.advanceShallow(target);
  }

  maxScore(upTo: number): number {
    return this.inner === null ? this.bound : this.inner.maxScore(upTo);
  }

  setMinCompetitiveScore(min: number): void {
    if (this.inner === null) {
      if (this.bound <= min) this.exhausted = true;
    } else this.inner.setMinCompetitiveScore(min);
  }
}
