/**
 * The compiled form of a query for one reader (Lucene's Weight): statistics and idf are
 * resolved once per reader at compile time; `matches` then runs per segment and returns the
 * segment's matching docs with scores (see matches.ts). Boosts are folded into the leaves
 * at compile time, as Lucene's BoostQuery passes them down.
 */
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { Bm25Scorer } from './bm25.ts';
import {
  constantDocs,
  type DocMatches,
  intersect,
  type Matches,
  materialise,
  NO_MATCHES,
  subtract,
  union,
} from './matches.ts';
import { phraseFreq } from './phrase-matcher.ts';
import { termPostings } from './term-stats.ts';

const f = Math.fround;

export interface Weight {
  matches(rs: ReaderSegment, needsScores: boolean): Matches;
}

export class MatchAllWeight implements Weight {
  constructor(readonly score: number) {}
  matches(): Matches {
    return { kind: 'all', score: this.score };
  }
}

export class MatchNoneWeight implements Weight {
  matches(): Matches {
    return NO_MATCHES;
  }
}

/** A doc-set producer scored with a constant (range, exists, terms, prefix, ids, …). */
export class ConstantWeight implements Weight {
  constructor(
    private readonly docsOf: (rs: ReaderSegment) => Int32Array,
    readonly score: number,
  ) {}
  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    return constantDocs(this.docsOf(rs), this.score, needsScores);
  }
}

/** `constant_score` and filters: the inner query's docs with a fixed score. */
export class ConstantScoreWeight implements Weight {
  constructor(
    readonly inner: Weight,
    readonly score: number,
  ) {}
  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    const m = this.inner.matches(rs, false);
    if (m.kind === 'all') return { kind: 'all', score: this.score };
    return constantDocs(m.docs, this.score, needsScores);
  }
}

/** A single term, BM25-scored. */
export class TermWeight implements Weight {
  constructor(
    readonly field: string,
    readonly term: string,
    readonly scorer: Bm25Scorer,
  ) {}
  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    const p = rs.segment.field(this.field)?.postings;
    const slice = termPostings(p, this.term);
    if (!p || !slice) return NO_MATCHES;
    const docs = p.docs.subarray(slice.from, slice.to);
    if (!needsScores) return { kind: 'docs', docs, scores: null };
    const scores = new Float64Array(docs.length);
    const { freqs, norms } = p;
    for (let i = 0; i < docs.length; i++) {
      const freq = freqs ? freqs[slice.from + i]! : 1;
      scores[i] = this.scorer.score(freq, norms ? norms[docs[i]!]! : 1);
    }
    return { kind: 'docs', docs, scores };
  }
}

/** One position of a phrase: any of `terms`, at `offset` from the phrase start. */
export interface PhrasePosition {
  terms: string[];
  offset: number;
}

export class PhraseWeight implements Weight {
  constructor(
    readonly field: string,
    readonly positions: PhrasePosition[],
    readonly slop: number,
    readonly scorer: Bm25Scorer,
  ) {}

  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    const p = rs.segment.field(this.field)?.postings;
    if (!p?.positions || !p.positionStarts) return NO_MATCHES;
    // Per phrase position, the postings slices of its alternatives.
    const slices: { from: number; to: number; cursor: number }[][] = [];
    for (const pos of this.positions) {
      const alts = [];
      for (const t of pos.terms) {
        const s = termPostings(p, t);
        if (s) alts.push({ ...s, cursor: s.from });
      }
      if (alts.length === 0) return NO_MATCHES;
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
    const outScores = needsScores ? new Float64Array(cand.length) : null;
    const offsets = this.positions.map((x) => x.offset);
    let n = 0;
    if (this.slop === 0 && slices.every((a) => a.length === 1)) {
      // Exact phrase of plain terms: match straight on the flat positions array, no per-doc views.
      const alts = slices.map((a) => a[0]!);
      const from = new Int32Array(alts.length);
      const to = new Int32Array(alts.length);
      const off = Int32Array.from(offsets);
      const ps = p.positionStarts;
      for (let c = 0; c < cand.length; c++) {
        const doc = cand[c]!;
        for (let i = 0; i < alts.length; i++) {
          const a = alts[i]!;
          while (p.docs[a.cursor]! < doc) a.cursor++;
          from[i] = ps[a.cursor]!;
          to[i] = ps[a.cursor + 1]!;
        }
        const freq = exactFreqFlat(p.positions, from, to, off);
        if (freq <= 0) continue;
        outDocs[n] = doc;
        if (outScores) outScores[n] = this.scorer.score(freq, p.norms ? p.norms[doc]! : 1);
        n++;
      }
      return {
        kind: 'docs',
        docs: outDocs.subarray(0, n),
        scores: outScores ? outScores.subarray(0, n) : null,
      };
    }
    const posLists: Int32Array[] = new Array(slices.length);
    for (let c = 0; c < cand.length; c++) {
      const doc = cand[c]!;
      for (let i = 0; i < slices.length; i++) posLists[i] = positionsOf(p, slices[i]!, doc);
      const freq = phraseFreq(posLists, offsets, this.slop);
      if (freq <= 0) continue;
      outDocs[n] = doc;
      if (outScores) outScores[n] = this.scorer.score(freq, p.norms ? p.norms[doc]! : 1);
      n++;
    }
    return {
      kind: 'docs',
      docs: outDocs.subarray(0, n),
      scores: outScores ? outScores.subarray(0, n) : null,
    };
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

/**
 * Lucene's BooleanQuery: required clauses (must, filter) intersect, should clauses add their
 * scores (and must reach `minShouldMatch` when it is above 0), must_not clauses subtract.
 * Only must and should clauses score.
 */
export class BoolWeight implements Weight {
  constructor(
    readonly must: Weight[],
    readonly filter: Weight[],
    readonly should: Weight[],
    readonly mustNot: Weight[],
    readonly minShouldMatch: number,
  ) {}

  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    const maxDoc = rs.segment.maxDoc;
    let base: Matches | undefined;
    const required: { w: Weight; scores: boolean }[] = [
      ...this.must.map((w) => ({ w, scores: needsScores })),
      ...this.filter.map((w) => ({ w, scores: false })),
    ];
    for (const r of required) {
      const m = r.w.matches(rs, r.scores);
      const scored: Matches = m.kind === 'all' && !r.scores ? { kind: 'all', score: 0 } : m;
      base = base ? intersect(base, scored, needsScores) : scored;
      if (base.kind === 'docs' && base.docs.length === 0) return NO_MATCHES;
    }
    const msm = this.minShouldMatch;
    if (this.should.length > 0 && (msm > 0 || !base || needsScores)) {
      if (msm > this.should.length) return NO_MATCHES;
      const parts = this.should.map((w) => materialise(w.matches(rs, needsScores), maxDoc, needsScores));
      const need = base ? msm : Math.max(1, msm);
      const u = union(parts, maxDoc, needsScores, need > 1);
      let opt: DocMatches = { kind: 'docs', docs: u.docs, scores: u.scores };
      if (need > 1) opt = filterCounts(u.docs, u.scores, u.counts!, need);
      if (!base) base = opt;
      else if (need > 0) base = intersect(base, opt, needsScores);
      else if (needsScores) base = addOptional(materialise(base, maxDoc, true), opt);
    }
    if (!base) base = { kind: 'all', score: 0 };
    if (this.mustNot.length > 0) {
      const excluded = this.mustNot.map((w) => w.matches(rs, false));
      if (excluded.some((m) => m.kind === 'all')) return NO_MATCHES;
      const ex = union(excluded as DocMatches[], maxDoc, false, false);
      base = subtract(materialise(base, maxDoc, needsScores), { kind: 'docs', docs: ex.docs, scores: null });
    }
    if (needsScores) {
      if (base.kind === 'all') return { kind: 'all', score: f(base.score) };
      const s = base.scores;
      if (s) for (let i = 0; i < s.length; i++) s[i] = f(s[i]!);
    }
    return base;
  }
}

function filterCounts(
  docs: Int32Array,
  scores: Float64Array | null,
  counts: Int32Array,
  need: number,
): DocMatches {
  const out = new Int32Array(docs.length);
  const outScores = scores ? new Float64Array(docs.length) : null;
  let n = 0;
  for (let i = 0; i < docs.length; i++) {
    if (counts[i]! < need) continue;
    out[n] = docs[i]!;
    if (outScores) outScores[n] = scores![i]!;
    n++;
  }
  return { kind: 'docs', docs: out.subarray(0, n), scores: outScores ? outScores.subarray(0, n) : null };
}

/** Adds optional clause scores to the required docs that they also match (scores copied). */
function addOptional(base: DocMatches, opt: DocMatches): DocMatches {
  const scores = base.scores ? Float64Array.from(base.scores) : new Float64Array(base.docs.length);
  const od = opt.docs;
  let j = 0;
  for (let i = 0; i < base.docs.length && j < od.length; i++) {
    const doc = base.docs[i]!;
    while (j < od.length && od[j]! < doc) j++;
    if (j < od.length && od[j] === doc) scores[i]! += opt.scores?.[j] ?? 0;
  }
  return { kind: 'docs', docs: base.docs, scores };
}

/** Lucene's DisjunctionMaxQuery: the best clause's score plus tie_breaker × the others'. */
export class DisMaxWeight implements Weight {
  constructor(
    readonly clauses: Weight[],
    readonly tieBreaker: number,
  ) {}

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
