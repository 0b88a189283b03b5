/**
 * Block-max impacts (Lucene's Impacts / ImpactsDISI): a term's postings in one segment cut
 * into blocks of BLOCK postings, and per block the competitive (freq, norm) pairs — those no
 * other posting of the block beats on both freq (higher) and norm (shorter field). BM25 grows
 * with freq and shrinks with the field length, so the best score of a block is the best score
 * of its pairs, whatever the reader's idf, avgdl and boost. That makes the impacts a property
 * of the immutable segment: they are computed lazily, once per term, and cached on it.
 *
 * TermScorer walks one term's postings and uses the impacts for `maxScore` and, once the
 * collector sets a minimum competitive score, to jump over every block that cannot beat it.
 */
import type { Postings, Segment } from '../index/segment.ts';
import type { Bm25Scorer } from './bm25.ts';
import { gallop, NO_MORE_DOCS, Scorer } from './scorer.ts';

const f = Math.fround;

/** Postings per block, as Lucene's postings format. */
export const BLOCK = 128;

export interface TermImpacts {
  /** Last doc of each block. */
  lastDoc: Int32Array;
  /** Block b's competitive pairs are [start[b], start[b + 1]) of `freq` / `norm`. */
  start: Uint32Array;
  freq: Int32Array;
  norm: Uint8Array;
  /** The competitive pairs of the whole postings list. */
  allFreq: Int32Array;
  allNorm: Uint8Array;
  /**
   * The block maxima under the last BM25 parameters that asked (a query's term weight and the
   * reader's length normalisation): the next query of the same term on the same reader reuses
   * them instead of scoring every block's pairs again.
   */
  scores?: ImpactScores;
}

interface ImpactScores {
  weight: number;
  normInverse: Float64Array;
  /** Per block: its best score (NaN until computed). */
  blockMax: Float64Array;
  /** The best score of the whole list (NaN until computed). */
  globalMax: number;
}

/** Impacts of term ordinal `t` of `field` in `segment` (cached with the segment). */
export function termImpacts(segment: Segment, field: string, p: Postings, t: number): TermImpacts {
  // A single block is as cheap to compute as to look up: only longer lists are kept.
  if (p.starts[t + 1]! - p.starts[t]! <= BLOCK) return computeImpacts(p, p.starts[t]!, p.starts[t + 1]!);
  const perField = segment.cached(`impacts:${field}`, () => new Map<number, TermImpacts>());
  let imp = perField.get(t);
  if (!imp) {
    imp = computeImpacts(p, p.starts[t]!, p.starts[t + 1]!);
    perField.set(t, imp);
  }
  return imp;
}

function computeImpacts(p: Postings, from: number, to: number): TermImpacts {
  const blocks = Math.ceil((to - from) / BLOCK);
  const lastDoc = new Int32Array(blocks);
  const start = new Uint32Array(blocks + 1);
  const freqOut: number[] = [];
  const normOut: number[] = [];
  // Highest freq per norm byte within the block / over the whole list.
  const best = new Int32Array(256);
  const bestAll = new Int32Array(256);
  const { docs, freqs, norms } = p;
  for (let b = 0; b < blocks; b++) {
    const a = from + b * BLOCK;
    const e = Math.min(to, a + BLOCK);
    let lo = 255;
    let hi = 0;
    for (let i = a; i < e; i++) {
      const fr = freqs ? freqs[i]! : 1;
      const n = norms ? norms[docs[i]!]! : 1;
      if (fr > best[n]!) best[n] = fr;
      if (n < lo) lo = n;
      if (n > hi) hi = n;
    }
    lastDoc[b] = docs[e - 1]!;
    start[b] = freqOut.length;
    // Shortest norm first; a longer norm is competitive only with a strictly higher freq.
    let top = 0;
    for (let n = lo; n <= hi; n++) {
      const fr = best[n]!;
      if (fr === 0) continue;
      best[n] = 0;
      if (fr > bestAll[n]!) bestAll[n] = fr;
      if (fr <= top) continue;
      top = fr;
      freqOut.push(fr);
      normOut.push(n);
    }
  }
  start[blocks] = freqOut.length;
  const allFreq: number[] = [];
  const allNorm: number[] = [];
  let top = 0;
  for (let n = 0; n < 256; n++) {
    const fr = bestAll[n]!;
    if (fr <= top) continue;
    top = fr;
    allFreq.push(fr);
    allNorm.push(n);
  }
  return {
    lastDoc,
    start,
    freq: Int32Array.from(freqOut),
    norm: Uint8Array.from(normOut),
    allFreq: Int32Array.from(allFreq),
    allNorm: Uint8Array.from(allNorm),
  };
}

/** One term's postings in one segment, BM25-scored (Lucene's TermScorer over ImpactsDISI). */
export class TermScorer extends Scorer {
  readonly cost: number;
  private i: number;
  private readonly from: number;
  private readonly to: number;
  private readonly docs: Int32Array;
  private readonly freqs: Int32Array | null;
  private readonly norms: Uint8Array | null;
  private readonly w: number;
  private readonly normInverse: Float64Array;
  private impacts: TermImpacts | undefined;
  /** Per block: its best score under this scorer (NaN until computed). */
  private blockMax: Float64Array | undefined;
  private globalMax = Number.NaN;
  /** Block of the last advanceShallow target. */
  private shallowBlock = 0;
  private minScore = Number.NEGATIVE_INFINITY;
  private exhausted = false;
  /** Postings below this index lie in blocks already checked against minScore. */
  private checkedEnd: number;

  constructor(
    private readonly segment: Segment,
    private readonly field: string,
    private readonly p: Postings,
    private readonly t: number,
    private readonly bm25: Bm25Scorer,
  ) {
    super();
    this.from = p.starts[t]!;
    this.to = p.starts[t + 1]!;
    this.i = this.from - 1;
    this.checkedEnd = this.from;
    this.cost = this.to - this.from;
    this.docs = p.docs;
    this.freqs = p.freqs;
    this.norms = p.norms;
    this.w = bm25.weight;
    this.normInverse = bm25.normInverse;
  }

  nextDoc(): number {
    const i = ++this.i;
    if (i >= this.to) return this.at(NO_MORE_DOCS);
    if (i >= this.checkedEnd && this.minScore !== Number.NEGATIVE_INFINITY) return this.skipBlocks(i);
    return this.at(this.docs[i]!);
  }

  advance(target: number): number {
    let i = this.i + 1;
    const docs = this.docs;
    if (i < this.to && docs[i]! < target) i = gallop(docs, i + 1, this.to, target);
    this.i = i;
    if (i >= this.to) return this.at(NO_MORE_DOCS);
    if (i >= this.checkedEnd && this.minScore !== Number.NEGATIVE_INFINITY) return this.skipBlocks(i);
    return this.at(docs[i]!);
  }

  /** From posting i, moves to the first posting of a block that can beat minScore. */
  private skipBlocks(i: number): number {
    if (this.exhausted) {
      this.i = this.to;
      return this.at(NO_MORE_DOCS);
    }
    const bm = this.blockMaxes();
    const min = this.minScore;
    let b = ((i - this.from) / BLOCK) | 0;
    const blocks = bm.length;
    while (b < blocks && this.blockScore(b) <= min) b++;
    if (b >= blocks) {
      this.i = this.to;
      return this.at(NO_MORE_DOCS);
    }
    const blockStart = this.from + b * BLOCK;
    if (i < blockStart) i = blockStart;
    this.i = i;
    this.checkedEnd = Math.min(this.to, blockStart + BLOCK);
    return this.at(this.docs[i]!);
  }

  score(): number {
    const i = this.i;
    const freq = this.freqs ? this.freqs[i]! : 1;
    const norm = this.norms ? this.norms[this.docs[i]!]! : 1;
    // Bm25Scorer.score, inlined.
    const w = this.w;
    return f(w - f(w / f(1 + f(freq * this.normInverse[norm]!))));
  }

  advanceShallow(target: number): number {
    const last = this.ensureImpacts().lastDoc;
    let b = this.shallowBlock;
    if (this.i >= this.from) b = Math.max(b, ((this.i - this.from) / BLOCK) | 0);
    while (b < last.length && last[b]! < target) b++;
    this.shallowBlock = b;
    return b < last.length ? last[b]! : NO_MORE_DOCS;
  }

  maxScore(upTo: number): number {
    if (this.w < 0) return Number.POSITIVE_INFINITY;
    if (upTo === NO_MORE_DOCS) return this.segmentMax();
    const last = this.ensureImpacts().lastDoc;
    const docs = this.docs;
    let m = 0;
    for (let b = this.shallowBlock; b < last.length; b++) {
      // A block that starts past `upTo` has no doc in the window, nor has any later block: a
      // term with no posting in a stretch of docs adds nothing to their bound there.
      if (docs[this.from + b * BLOCK]! > upTo) break;
      const s = this.blockScore(b);
      if (s > m) m = s;
      if (last[b]! >= upTo) break;
    }
    return m;
  }

  setMinCompetitiveScore(min: number): void {
    if (this.w < 0 || min <= this.minScore) return;
    this.minScore = min;
    if (this.segmentMax() <= min) {
      // Nothing left can compete: end at the next move.
      this.checkedEnd = this.i + 1;
      this.exhausted = true;
      return;
    }
    // Re-check the current block against the new threshold at the next move.
    this.checkedEnd = this.i + 1;
  }

  /** The best score of the term in this segment. */
  segmentMax(): number {
    if (Number.isNaN(this.globalMax)) {
      const scores = this.impactScores();
      if (Number.isNaN(scores.globalMax)) {
        const imp = this.impacts!;
        scores.globalMax = this.best(imp.allFreq, imp.allNorm, 0, imp.allFreq.length);
      }
      this.globalMax = scores.globalMax;
    }
    return this.globalMax;
  }

  private ensureImpacts(): TermImpacts {
    this.impacts ??= termImpacts(this.segment, this.field, this.p, this.t);
    return this.impacts;
  }

  /** The block scores under this scorer's parameters, shared with earlier scorers that had them. */
  private impactScores(): ImpactScores {
    const imp = this.ensureImpacts();
    let scores = imp.scores;
    if (!scores || scores.weight !== this.w || scores.normInverse !== this.normInverse) {
      scores = {
        weight: this.w,
        normInverse: this.normInverse,
        blockMax: new Float64Array(imp.lastDoc.length).fill(Number.NaN),
        globalMax: Number.NaN,
      };
      imp.scores = scores;
    }
    return scores;
  }

  private blockMaxes(): Float64Array {
    this.blockMax ??= this.impactScores().blockMax;
    return this.blockMax;
  }

  private blockScore(b: number): number {
    const bm = this.blockMaxes();
    let s = bm[b]!;
    if (Number.isNaN(s)) {
      const imp = this.impacts!;
      s = this.best(imp.freq, imp.norm, imp.start[b]!, imp.start[b + 1]!);
      bm[b] = s;
    }
    return s;
  }

  private best(freq: Int32Array, norm: Uint8Array, a: number, e: number): number {
    let m = 0;
    for (let j = a; j < e; j++) {
      const s = this.bm25.score(freq[j]!, norm[j]!);
      if (s > m) m = s;
    }
    return m;
  }
}
