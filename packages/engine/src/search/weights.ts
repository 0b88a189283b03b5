/**
 * The compiled form of a query for one reader (Lucene's Weight): statistics and idf are
 * resolved once per reader at compile time. Per segment, a weight gives its matching docs in
 * two forms: `matches`, materialised arrays of docs and scores (see matches.ts: what the
 * sorts and fast paths consume, and the exhaustive reference), and `scorer`, the same docs
 * doc at a time with score bounds, which relevance-ordered top-k collection prunes with (see
 * scorer.ts). `count` / `minCount` answer hit counting without visiting docs where the index
 * statistics already know. Boosts are folded into the leaves at compile time, as Lucene's
 * BoostQuery passes them down.
 */
import type { Segment } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { TermScorer } from './block-max.ts';
import type { Bm25Scorer } from './bm25.ts';
import { ConjunctionScorer, ReqExclScorer, ReqOptScorer } from './conjunction.ts';
import { DisMaxScorer } from './dis-max.ts';
import {
  acquireBits,
  andInto,
  andNotInto,
  markAll,
  markDocs,
  orInto,
  releaseBits,
  wordsFor,
} from './doc-bits.ts';
import type { DocVerifier } from './doc-values-range.ts';
import {
  constantDocs,
  countPassing,
  type DocMatches,
  intersect,
  type Matches,
  materialise,
  NO_MATCHES,
  subtract,
  union,
} from './matches.ts';
import { DisjunctionScorer } from './max-score.ts';
import { phraseFreq } from './phrase-matcher.ts';
import { AllDocsScorer, ConstantScorer, DocListScorer, type Scorer, VerifyingScorer } from './scorer.ts';
import { termOrdinal, termPostings } from './term-stats.ts';

const f = Math.fround;

export interface Weight {
  matches(rs: ReaderSegment, needsScores: boolean): Matches;
  /** The same docs and scores doc at a time; null when nothing in the segment matches. */
  scorer(rs: ReaderSegment, needsScores: boolean): Scorer | null;
  /**
   * How many docs of the segment match and pass `excluded` (deleted, or outside the slice),
   * when that is known without visiting them (Lucene's Weight#count); -1 otherwise. `passing`
   * is the number of the segment's docs that pass.
   */
  count(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number;
  /** A number of passing docs the query surely matches in the segment (0 when unknown). */
  minCount(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number;
  /** Sets the bit of every matching doc of the segment in `bits` (see doc-bits.ts). */
  markDocs(rs: ReaderSegment, bits: Uint32Array): void;
}

export class MatchAllWeight implements Weight {
  constructor(readonly score: number) {}
  matches(): Matches {
    return { kind: 'all', score: this.score };
  }
  scorer(rs: ReaderSegment): Scorer {
    return new AllDocsScorer(rs.segment.maxDoc, this.score);
  }
  count(_rs: ReaderSegment, _excluded: Uint32Array | null, passing: number): number {
    return passing;
  }
  minCount(_rs: ReaderSegment, _excluded: Uint32Array | null, passing: number): number {
    return passing;
  }
  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    markAll(bits, rs.segment.maxDoc);
  }
}

export class MatchNoneWeight implements Weight {
  matches(): Matches {
    return NO_MATCHES;
  }
  scorer(): null {
    return null;
  }
  count(): number {
    return 0;
  }
  minCount(): number {
    return 0;
  }
  markDocs(): void {}
}

/** A doc-set producer scored with a constant (range, exists, terms, prefix, ids, …). */
export class ConstantWeight implements Weight {
  // Per segment, the docs once computed: counting and scoring a segment compute them once.
  private readonly docsBySegment = new Map<Segment, Int32Array>();

  constructor(
    private readonly docsOf: (rs: ReaderSegment) => Int32Array,
    readonly score: number,
    /**
     * For sets that are cheaper to check per doc than to collect (doc-values ranges): the
     * scorer and the bitset then test docs instead of materialising the set.
     */
    private readonly verifierOf?: (rs: ReaderSegment) => DocVerifier | null,
  ) {}
  private docs(rs: ReaderSegment): Int32Array {
    let docs = this.docsBySegment.get(rs.segment);
    if (!docs) {
      docs = this.docsOf(rs);
      this.docsBySegment.set(rs.segment, docs);
    }
    return docs;
  }
  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    return constantDocs(this.docs(rs), this.score, needsScores);
  }
  scorer(rs: ReaderSegment): Scorer | null {
    if (this.verifierOf && !this.docsBySegment.has(rs.segment)) {
      const v = this.verifierOf(rs);
      return v ? new VerifyingScorer(v.approximation, v.matches, this.score) : null;
    }
    const docs = this.docs(rs);
    return docs.length === 0 ? null : new DocListScorer(docs, null, this.score);
  }
  count(rs: ReaderSegment, excluded: Uint32Array | null): number {
    return this.verifierOf ? -1 : countPassing(this.docs(rs), excluded);
  }
  minCount(rs: ReaderSegment, excluded: Uint32Array | null): number {
    return this.verifierOf ? 0 : countPassing(this.docs(rs), excluded);
  }
  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    if (this.verifierOf && !this.docsBySegment.has(rs.segment)) {
      this.verifierOf(rs)?.mark(bits);
      return;
    }
    markDocs(this.docs(rs), bits);
  }
  /** Whether `retainDocs` checks docs one by one (cheaper than marking them all). */
  verifies(rs: ReaderSegment): boolean {
    return this.verifierOf !== undefined && !this.docsBySegment.has(rs.segment);
  }
  /** Clears the bits of docs the set does not hold, checking only the docs set. */
  retainDocs(rs: ReaderSegment, bits: Uint32Array, words: number): void {
    const v = this.verifierOf?.(rs);
    if (v) v.retain(bits, words);
    else bits.fill(0, 0, words);
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
  scorer(rs: ReaderSegment): Scorer | null {
    const inner = this.inner.scorer(rs, false);
    if (!inner) return null;
    if (inner instanceof AllDocsScorer) return new AllDocsScorer(rs.segment.maxDoc, this.score);
    return new ConstantScorer(inner, this.score);
  }
  count(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    return this.inner.count(rs, excluded, passing);
  }
  minCount(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    return this.inner.minCount(rs, excluded, passing);
  }
  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    this.inner.markDocs(rs, bits);
  }
}

/** A single term, BM25-scored. */
export class TermWeight implements Weight {
  constructor(
    readonly field: string,
    readonly term: string,
    readonly bm25: Bm25Scorer,
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
      scores[i] = this.bm25.score(freq, norms ? norms[docs[i]!]! : 1);
    }
    return { kind: 'docs', docs, scores };
  }
  scorer(rs: ReaderSegment): Scorer | null {
    const p = rs.segment.field(this.field)?.postings;
    const t = termOrdinal(p, this.term);
    if (!p || t < 0) return null;
    return new TermScorer(rs.segment, this.field, p, t, this.bm25);
  }
  /** The term's document frequency in the segment (deleted docs included). */
  private docFreq(rs: ReaderSegment): number {
    const p = rs.segment.field(this.field)?.postings;
    const t = termOrdinal(p, this.term);
    return p && t >= 0 ? p.starts[t + 1]! - p.starts[t]! : 0;
  }
  count(rs: ReaderSegment, excluded: Uint32Array | null): number {
    return excluded === null ? this.docFreq(rs) : -1;
  }
  minCount(rs: ReaderSegment, _excluded: Uint32Array | null, passing: number): number {
    // At most maxDoc - passing of the term's docs can be excluded.
    return Math.max(0, this.docFreq(rs) - (rs.segment.maxDoc - passing));
  }
  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    const m = this.matches(rs, false) as DocMatches;
    markDocs(m.docs, bits);
  }
}

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
    // Positions are checked for every candidate anyway: materialise, then iterate.
    const m = this.matches(rs, needsScores) as DocMatches;
    return m.docs.length === 0 ? null : new DocListScorer(m.docs, m.scores, 0);
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
        if (outScores) outScores[n] = this.bm25.score(freq, p.norms ? p.norms[doc]! : 1);
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
      if (outScores) outScores[n] = this.bm25.score(freq, p.norms ? p.norms[doc]! : 1);
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

  scorer(rs: ReaderSegment, needsScores: boolean): Scorer | null {
    const req: Scorer[] = [];
    const scoring: Scorer[] = [];
    for (const w of this.must) {
      const s = w.scorer(rs, needsScores);
      if (!s) return null;
      req.push(s);
      if (needsScores) scoring.push(s);
    }
    for (const w of this.filter) {
      const s = w.scorer(rs, false);
      if (!s) return null;
      req.push(s);
    }
    const msm = this.minShouldMatch;
    // The should side: required (at least `need` of them) or only adding to the score.
    let opt: Scorer | null = null;
    let optRequired = false;
    if (this.should.length > 0 && (msm > 0 || req.length === 0 || needsScores)) {
      if (msm > this.should.length) return null;
      const need = req.length > 0 ? msm : Math.max(1, msm);
      const subs: Scorer[] = [];
      for (const w of this.should) {
        const s = w.scorer(rs, needsScores);
        if (s) subs.push(s);
      }
      if (subs.length < need) return null;
      if (subs.length > 0) {
        // Alone, the disjunction's sum is the bool's score and is rounded there.
        opt =
          subs.length === 1 && need <= 1
            ? subs[0]!
            : new DisjunctionScorer(subs, Math.max(1, need), req.length === 0);
        optRequired = need > 0;
      }
    }
    let positive: Scorer;
    if (req.length === 0) positive = opt ?? new AllDocsScorer(rs.segment.maxDoc, 0);
    else if (!opt) positive = conjunction(req, scoring, needsScores, true);
    else if (optRequired) {
      req.push(opt);
      if (needsScores) scoring.push(opt);
      positive = conjunction(req, scoring, needsScores, true);
    } else positive = new ReqOptScorer(conjunction(req, scoring, needsScores, false), opt, true);
    if (this.mustNot.length > 0) {
      const excl: Scorer[] = [];
      for (const w of this.mustNot) {
        const s = w.scorer(rs, false);
        if (s instanceof AllDocsScorer) return null;
        if (s) excl.push(s);
      }
      if (excl.length > 0)
        positive = new ReqExclScorer(
          positive,
          excl.length === 1 ? excl[0]! : new DisjunctionScorer(excl, 1, false),
        );
    }
    return positive;
  }

  count(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    const only = this.soleClause();
    return only ? only.count(rs, excluded, passing) : -1;
  }

  minCount(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    if (this.mustNot.length > 0) return 0;
    const required = this.must.length + this.filter.length;
    // Any clause of a pure disjunction, or the lone required clause, matches a subset.
    if (required === 0 && this.minShouldMatch <= 1) {
      let best = 0;
      for (const w of this.should) best = Math.max(best, w.minCount(rs, excluded, passing));
      return best;
    }
    if (required === 1 && this.minShouldMatch === 0) {
      return (this.must[0] ?? this.filter[0]!).minCount(rs, excluded, passing);
    }
    return 0;
  }

  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    const maxDoc = rs.segment.maxDoc;
    const words = wordsFor(maxDoc);
    const required = this.must.length + this.filter.length;
    const msm = this.minShouldMatch;
    const useShould = this.should.length > 0 && (msm > 0 || required === 0);
    const need = required > 0 ? msm : Math.max(1, msm);
    if (useShould && need > this.should.length) return;
    if (useShould && need > 1) {
      // Per-doc clause counts: the materialised union has them.
      const m = this.matches(rs, false);
      if (m.kind === 'all') markAll(bits, maxDoc);
      else markDocs(m.docs, bits);
      return;
    }
    // The bool's own docs in `acc` (AND / OR / AND NOT with `tmp`), then added to `bits`.
    const acc = acquireBits(words);
    const tmp = acquireBits(words);
    let first = true;
    const and = (w: Weight) => {
      if (first) {
        w.markDocs(rs, acc);
        first = false;
        return;
      }
      w.markDocs(rs, tmp);
      andInto(acc, tmp, words);
      tmp.fill(0, 0, words);
    };
    // Doc-values checks come last and only test the docs the other clauses left.
    const verified: ConstantWeight[] = [];
    for (const w of [...this.must, ...this.filter]) {
      if (w instanceof ConstantWeight && w.verifies(rs)) verified.push(w);
      else and(w);
    }
    if (!first) for (const w of verified) w.retainDocs(rs, acc, words);
    else for (const w of verified) and(w);
    if (useShould) {
      const target = first ? acc : tmp;
      for (const w of this.should) w.markDocs(rs, target);
      if (!first) {
        andInto(acc, tmp, words);
        tmp.fill(0, 0, words);
      }
      first = false;
    }
    if (first) markAll(acc, maxDoc);
    if (this.mustNot.length > 0) {
      for (const w of this.mustNot) w.markDocs(rs, tmp);
      andNotInto(acc, tmp, words);
    }
    orInto(bits, acc, words);
    releaseBits(tmp, words);
    releaseBits(acc, words);
  }

  /** The one clause whose docs are the bool's docs, if the bool is only that. */
  private soleClause(): Weight | undefined {
    if (this.mustNot.length > 0) return undefined;
    const required = this.must.length + this.filter.length;
    if (required === 1 && (this.should.length === 0 || this.minShouldMatch === 0))
      return this.must[0] ?? this.filter[0];
    if (required === 0 && this.should.length === 1 && this.minShouldMatch <= 1) return this.should[0];
    return undefined;
  }

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

/** Required clauses as one scorer; `scoring` are those whose scores add up. */
function conjunction(req: Scorer[], scoring: Scorer[], needsScores: boolean, round: boolean): Scorer {
  if (req.length === 1) {
    // A lone filter scores 0; a lone scoring clause's score is already a float.
    if (needsScores && scoring.length === 0) return new ConstantScorer(req[0]!, 0);
    return req[0]!;
  }
  return new ConjunctionScorer(req, scoring, round);
}

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
