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
import type { Postings, Segment } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { TermScorer } from './block-max.ts';
import type { Bm25Scorer } from './bm25.ts';
import { markAll, markDocs } from './doc-bits.ts';
import type { DocVerifier } from './doc-values-range.ts';
import { useFilter } from './filter-cache.ts';
import { constantDocs, countPassing, type DocMatches, type Matches, NO_MATCHES } from './matches.ts';
import {
  AllDocsScorer,
  ConstantScorer,
  DocListScorer,
  LazyScorer,
  type Scorer,
  VerifyingScorer,
} from './scorer.ts';
import { termOrdinal } from './term-stats.ts';

const _f = Math.fround;
/** A set of at most 1/NARROW of a segment's docs is collected rather than checked doc by doc. */
const NARROW = 4;

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
  /**
   * Whether one doc of the segment matches, asked doc by doc in any order without collecting
   * the matches first (what a walk in sort order checks its docs with); undefined when the
   * weight has no such check.
   */
  checker?(rs: ReaderSegment): DocCheck | undefined;
}

/** Whether segment doc `d` matches. */
export type DocCheck = (d: number) => boolean;

const NEVER: DocCheck = () => false;
const ALWAYS: DocCheck = () => true;

/** A check against ascending docs, by binary search. */
export function docsCheck(docs: Int32Array): DocCheck {
  if (docs.length === 0) return NEVER;
  return (d) => {
    let lo = 0;
    let hi = docs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (docs[mid]! < d) lo = mid + 1;
      else hi = mid;
    }
    return lo < docs.length && docs[lo] === d;
  };
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
  checker(): DocCheck {
    return ALWAYS;
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
  checker(): DocCheck {
    return NEVER;
  }
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
    /**
     * The number of docs of the set when an index tells it without collecting them (points
     * of single-valued numbers); -1 when it cannot.
     */
    private readonly countOf?: (rs: ReaderSegment) => number,
  ) {}
  /** The filter cache's key of the set, and the uses that make it kept (filter-cache.ts). */
  private cacheKey: string | undefined;
  private cacheUses = 0;
  private readonly usedIn = new Set<Segment>();

  /** Makes the set a filter the segments' filter cache may keep under `key`. */
  cacheAs(key: string, minUses: number): void {
    this.cacheKey = key;
    this.cacheUses = minUses;
  }
  /** The set's size from the index, when no doc is excluded; -1 when unknown. */
  private indexCount(rs: ReaderSegment, excluded: Uint32Array | null): number {
    return excluded === null && this.countOf ? this.countOf(rs) : -1;
  }
  /** Counts this search's use of the filter in the segment once; the cached docs, if kept. */
  private useCache(rs: ReaderSegment): void {
    if (this.cacheKey === undefined || this.usedIn.has(rs.segment)) return;
    this.usedIn.add(rs.segment);
    const kept = useFilter(rs.segment, this.cacheKey, this.cacheUses, () => this.docsOf(rs));
    if (kept !== undefined) this.docsBySegment.set(rs.segment, kept);
  }
  private docs(rs: ReaderSegment): Int32Array {
    this.useCache(rs);
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
  /**
   * Whether the set is checked doc by doc on doc values rather than collected: when it has a
   * verifier, is not collected yet, and the index does not show it narrow (a narrow set is
   * collected from the points index at once and leads a conjunction by its small cost).
   */
  private checksDocs(rs: ReaderSegment): boolean {
    this.useCache(rs);
    if (!this.verifierOf || this.docsBySegment.has(rs.segment)) return false;
    const known = this.countOf ? this.countOf(rs) : -1;
    return known < 0 || known * NARROW > rs.segment.maxDoc;
  }
  scorer(rs: ReaderSegment, needsScores = false): Scorer | null {
    // Ranked by its one score, the set is only collected once a doc is asked for: a collector
    // already holding k docs of that score skips the segment without collecting it.
    if (needsScores && this.score >= 0 && !this.docsBySegment.has(rs.segment))
      return new LazyScorer(this.score, () => this.eagerScorer(rs));
    return this.eagerScorer(rs);
  }
  private eagerScorer(rs: ReaderSegment): Scorer | null {
    if (this.checksDocs(rs)) {
      const v = this.verifierOf!(rs);
      return v ? new VerifyingScorer(v.approximation, v.matches, this.score) : null;
    }
    const docs = this.docs(rs);
    return docs.length === 0 ? null : new DocListScorer(docs, null, this.score);
  }
  count(rs: ReaderSegment, excluded: Uint32Array | null): number {
    const known = this.indexCount(rs, excluded);
    if (known >= 0) return known;
    this.useCache(rs);
    return this.verifierOf && !this.docsBySegment.has(rs.segment)
      ? -1
      : countPassing(this.docs(rs), excluded);
  }
  minCount(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    const known = this.countOf?.(rs) ?? -1;
    // At most maxDoc - passing of the set's docs can be excluded.
    if (known >= 0) return Math.max(0, known - (rs.segment.maxDoc - passing));
    return this.verifierOf ? 0 : countPassing(this.docs(rs), excluded);
  }
  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    if (this.checksDocs(rs)) {
      this.verifierOf!(rs)?.mark(bits);
      return;
    }
    markDocs(this.docs(rs), bits);
  }
  /** The set's own doc-values check, or its docs when they are at hand (collected or cached). */
  checker(rs: ReaderSegment): DocCheck | undefined {
    this.useCache(rs);
    const docs = this.docsBySegment.get(rs.segment);
    if (docs) return docsCheck(docs);
    // Without a check of its own, a set the index counts is collected (cheaply, from postings
    // or points) and searched.
    if (!this.verifierOf) return this.countOf ? docsCheck(this.docs(rs)) : undefined;
    const v = this.verifierOf(rs);
    return v ? (d) => v.matches(d) : NEVER;
  }
  /** Whether `retainDocs` checks docs one by one (cheaper than marking them all). */
  verifies(rs: ReaderSegment): boolean {
    return this.checksDocs(rs);
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
  checker(rs: ReaderSegment): DocCheck | undefined {
    return this.inner.checker?.(rs);
  }
}

/** Where a term's postings are in one segment. */
interface TermInSegment {
  segment: Segment;
  /** The field's postings and the term's ordinal in them; absent when the term is not there. */
  p?: Postings;
  t: number;
}

/** A single term, BM25-scored. */
export class TermWeight implements Weight {
  /** Per segment ord: where the term is in that segment. */
  private readonly located: (TermInSegment | undefined)[] = [];

  constructor(
    readonly field: string,
    readonly term: string,
    readonly bm25: Bm25Scorer,
  ) {}

  /** Looks the term up once per segment: counting, bounds and scoring all need it. */
  private locate(rs: ReaderSegment): { p: Postings; t: number } | null {
    let at = this.located[rs.ord];
    if (at?.segment !== rs.segment) {
      const p = rs.segment.field(this.field)?.postings;
      const t = termOrdinal(p, this.term);
      at = { segment: rs.segment, p: t >= 0 ? p : undefined, t };
      this.located[rs.ord] = at;
    }
    return at.p ? (at as { p: Postings; t: number }) : null;
  }

  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    const at = this.locate(rs);
    if (!at) return NO_MATCHES;
    const { p, t } = at;
    const from = p.starts[t]!;
    const docs = p.docs.subarray(from, p.starts[t + 1]!);
    if (!needsScores) return { kind: 'docs', docs, scores: null };
    const scores = new Float64Array(docs.length);
    const { freqs, norms } = p;
    for (let i = 0; i < docs.length; i++) {
      const freq = freqs ? freqs[from + i]! : 1;
      scores[i] = this.bm25.score(freq, norms ? norms[docs[i]!]! : 1);
    }
    return { kind: 'docs', docs, scores };
  }
  scorer(rs: ReaderSegment): Scorer | null {
    const at = this.locate(rs);
    if (!at) return null;
    return new TermScorer(rs.segment, this.field, at.p, at.t, this.bm25);
  }
  /** The term's postings, searched. */
  checker(rs: ReaderSegment): DocCheck {
    return docsCheck((this.matches(rs, false) as DocMatches).docs);
  }
  /** The term's document frequency in the segment (deleted docs included). */
  private docFreq(rs: ReaderSegment): number {
    const at = this.locate(rs);
    return at ? at.p.starts[at.t + 1]! - at.p.starts[at.t]! : 0;
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
