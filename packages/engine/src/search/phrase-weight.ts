/** Phrase queries compiled per reader: positions matched per doc, BM25 over the phrase frequency. */
import type { Postings, Segment } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { findTerm } from '../index/term-order.ts';
import { termImpacts } from './block-max.ts';
import type { Bm25Scorer } from './bm25.ts';
import { markDocs } from './doc-bits.ts';
import { type DocMatches, intersect, type Matches, NO_MATCHES, union } from './matches.ts';
import { phraseFreq } from './phrase-matcher.ts';
import { reusedResult } from './reuse-cache.ts';
import { DocListScorer, LazyScorer, type Scorer } from './scorer.ts';
import { termPostings } from './term-stats.ts';
import type { Weight } from './weights.ts';

const _f = Math.fround;

/** One position of a phrase: any of `terms`, at `offset` from the phrase start. */
export interface PhrasePosition {
  terms: string[];
  offset: number;
}

export class PhraseWeight implements Weight {
  // Per segment, the matches once computed (with or without scores): counting, then scoring,
  // a segment checks positions once or twice, not once per use.
  private readonly bySegment = new Map<Segment, DocMatches>();

  constructor(
    readonly field: string,
    readonly positions: PhrasePosition[],
    readonly slop: number,
    readonly bm25: Bm25Scorer,
  ) {}

  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    const known = this.bySegment.get(rs.segment);
    if (known && (known.scores || !needsScores)) return needsScores ? known : { ...known, scores: null };
    const m = this.compute(rs, needsScores);
    this.bySegment.set(rs.segment, m);
    return m;
  }

  scorer(rs: ReaderSegment, needsScores: boolean): Scorer | null {
    // Positions are checked for every candidate anyway: materialise, then iterate — unless the
    // collector, already holding k docs, shows first that no doc of the segment can compete.
    if (needsScores && !this.bySegment.get(rs.segment)?.scores) {
      const bound = this.segmentBound(rs);
      if (bound === 0) return null;
      if (bound !== undefined) {
        return new LazyScorer(bound, () => {
          const m = this.matches(rs, true) as DocMatches;
          return new DocListScorer(m.docs, m.scores, 0);
        });
      }
    }
    const m = this.matches(rs, needsScores) as DocMatches;
    return m.docs.length === 0 ? null : new DocListScorer(m.docs, m.scores, 0);
  }

  /**
   * An upper bound of the phrase's score in the segment without matching positions (0: a term
   * is missing, undefined: none known). An exact phrase occurs in a doc at most as often as
   * each of its terms, so its BM25 (growing with the frequency, shrinking with the field
   * length) is at most the best score of any one term's competitive (freq, norm) pairs
   * (block-max.ts) under the phrase's own weight.
   */
  private segmentBound(rs: ReaderSegment): number | undefined {
    if (this.slop !== 0 || !(this.bm25.weight >= 0)) return undefined;
    const p = rs.segment.field(this.field)?.postings;
    if (!p?.positions || !p.positionStarts) return 0;
    let bound: number | undefined;
    for (const pos of this.positions) {
      if (pos.terms.length !== 1) continue;
      const t = findTerm(p.terms, pos.terms[0]!);
      if (t < 0) return 0;
      const imp = termImpacts(rs.segment, this.field, p, t);
      let best = 0;
      for (let i = 0; i < imp.allFreq.length; i++) {
        const s = this.bm25.score(imp.allFreq[i]!, p.norms ? imp.allNorm[i]! : 1);
        if (s > best) best = s;
      }
      if (bound === undefined || best < bound) bound = best;
    }
    return bound;
  }
  count(): number {
    return -1;
  }
  minCount(): number {
    return 0;
  }
  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    markDocs((this.matches(rs, false) as DocMatches).docs, bits);
  }

  private compute(rs: ReaderSegment, needsScores: boolean): DocMatches {
    const p = rs.segment.field(this.field)?.postings;
    if (!p?.positions || !p.positionStarts) return NO_MATCHES;
    const key = `${this.field}\u0000${this.slop}\u0000${this.positions.map((x) => `${x.offset}:${x.terms.join('\u0001')}`).join('\u0000')}`;
    const found = reusedResult(
      rs.segment,
      'phrase',
      key,
      () => this.phraseFreqs(p, rs),
      (r) => r.docs.byteLength + r.freqs.byteLength,
    );
    if (!needsScores) return { kind: 'docs', docs: found.docs, scores: null };
    const scores = new Float64Array(found.docs.length);
    for (let i = 0; i < scores.length; i++) {
      const doc = found.docs[i]!;
      scores[i] = this.bm25.score(found.freqs[i]!, p.norms ? p.norms[doc]! : 1);
    }
    return { kind: 'docs', docs: found.docs, scores };
  }

  /** The phrase's frequency in segment doc `d` (0 when it does not hold the phrase). */
  freqOf(rs: ReaderSegment, d: number): number {
    const p = rs.segment.field(this.field)?.postings;
    if (!p?.positions || !p.positionStarts) return 0;
    const { docs, freqs } = this.phraseFreqs(p, rs);
    const i = docs.indexOf(d);
    return i < 0 ? 0 : freqs[i]!;
  }

  /** The segment's docs holding the phrase, with the phrase's frequency in each. */
  private phraseFreqs(p: Postings, rs: ReaderSegment): { docs: Int32Array; freqs: Int32Array } {
    const none = { docs: new Int32Array(0), freqs: new Int32Array(0) };
    const positions = p.positions!;
    const ps = p.positionStarts!;
    // Per phrase position, the postings slices of its alternatives.
    const slices: { from: number; to: number; cursor: number }[][] = [];
    for (const pos of this.positions) {
      const alts = [];
      for (const t of pos.terms) {
        const s = termPostings(p, t);
        if (s) alts.push({ ...s, cursor: s.from });
      }
      if (alts.length === 0) return none;
      slices.push(alts);
    }
    // Candidate docs: in every position's postings (rarest position first).
    let candidates: Matches | undefined;
    const order = slices.map((_, i) => i).sort((a, b) => size(slices[a]!) - size(slices[b]!));
    for (const i of order) {
      const alts = slices[i]!;
      const d: DocMatches =
        alts.length === 1
          ? { kind: 'docs', docs: p.docs.subarray(alts[0]!.from, alts[0]!.to), scores: null }
          : {
              kind: 'docs',
              docs: union(
                alts.map((a) => ({
                  kind: 'docs' as const,
                  docs: p.docs.subarray(a.from, a.to),
                  scores: null,
                })),
                rs.segment.maxDoc,
                false,
                false,
              ).docs,
              scores: null,
            };
      candidates = candidates ? intersect(candidates, d, false) : d;
    }
    const cand = (candidates as DocMatches).docs;
    const outDocs = new Int32Array(cand.length);
    const outFreqs = new Int32Array(cand.length);
    const offsets = this.positions.map((x) => x.offset);
    let n = 0;
    if (this.slop === 0 && slices.every((a) => a.length === 1)) {
      // Exact phrase of plain terms: match straight on the flat positions array, no per-doc views.
      const alts = slices.map((a) => a[0]!);
      const from = new Int32Array(alts.length);
      const to = new Int32Array(alts.length);
      const off = Int32Array.from(offsets);
      for (let c = 0; c < cand.length; c++) {
        const doc = cand[c]!;
        for (let i = 0; i < alts.length; i++) {
          const a = alts[i]!;
          while (p.docs[a.cursor]! < doc) a.cursor++;
          from[i] = ps[a.cursor]!;
          to[i] = ps[a.cursor + 1]!;
        }
        const freq = exactFreqFlat(positions, from, to, off);
        if (freq <= 0) continue;
        outDocs[n] = doc;
        outFreqs[n] = freq;
        n++;
      }
      return { docs: outDocs.subarray(0, n), freqs: outFreqs.subarray(0, n) };
    }
    const posLists: Int32Array[] = new Array(slices.length);
    for (let c = 0; c < cand.length; c++) {
      const doc = cand[c]!;
      for (let i = 0; i < slices.length; i++) posLists[i] = positionsOf(p, slices[i]!, doc);
      const freq = phraseFreq(posLists, offsets, this.slop);
      if (freq <= 0) continue;
      outDocs[n] = doc;
      outFreqs[n] = freq;
      n++;
    }
    return { docs: outDocs.subarray(0, n), freqs: outFreqs.subarray(0, n) };
  }
}

/** ExactPhraseMatcher over position ranges [from[i], to[i]) of one flat array; `from` is consumed. */
function exactFreqFlat(positions: Int32Array, from: Int32Array, to: Int32Array, offsets: Int32Array): number {
  let freq = 0;
  const n = from.length;
  outer: for (let k = from[0]!; k < to[0]!; k++) {
    const start = positions[k]! - offsets[0]!;
    for (let t = 1; t < n; t++) {
      const want = start + offsets[t]!;
      let c = from[t]!;
      const end = to[t]!;
      while (c < end && positions[c]! < want) c++;
      from[t] = c;
      if (c === end) break outer;
      if (positions[c] !== want) continue outer;
    }
    freq++;
  }
  return freq;
}

function size(alts: { from: number; to: number }[]): number {
  let s = 0;
  for (const a of alts) s += a.to - a.from;
  return s;
}

/** The doc's positions for one phrase position (alternatives merged); cursors only move forward. */
function positionsOf(
  p: { docs: Int32Array; positions: Int32Array | null; positionStarts: Uint32Array | null },
  alts: { from: number; to: number; cursor: number }[],
  doc: number,
): Int32Array {
  const ps = p.positionStarts!;
  const positions = p.positions!;
  let out: Int32Array | undefined;
  let merged = false;
  for (const a of alts) {
    while (a.cursor < a.to && p.docs[a.cursor]! < doc) a.cursor++;
    if (a.cursor < a.to && p.docs[a.cursor] === doc) {
      const slice = positions.subarray(ps[a.cursor]!, ps[a.cursor + 1]!);
      if (!out) out = slice;
      else {
        const m = new Int32Array(out.length + slice.length);
        m.set(out);
        m.set(slice, out.length);
        out = m;
        merged = true;
      }
    }
  }
  if (merged) out!.sort();
  return out ?? new Int32Array(0);
}
