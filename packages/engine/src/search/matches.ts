/**
 * What a query matches in one segment: either every doc (match_all, never materialised) or
 * a sorted, duplicate-free list of segment-local doc ids with optional scores. Deleted docs
 * are NOT filtered here: the collector checks live docs once, at the end.
 * Scores are summed in double precision and rounded to float by the query that owns the sum,
 * as Lucene's boolean scorers do.
 */
export type Matches =
  | { kind: 'all'; score: number }
  | { kind: 'docs'; docs: Int32Array; scores: Float64Array | null };

export type DocMatches = Extract<Matches, { kind: 'docs' }>;

const EMPTY_DOCS = new Int32Array(0);
export const NO_MATCHES: DocMatches = { kind: 'docs', docs: EMPTY_DOCS, scores: null };

export function docs(d: Int32Array, scores: Float64Array | null = null): DocMatches {
  return { kind: 'docs', docs: d, scores };
}

export function constantDocs(d: Int32Array, score: number, needsScores: boolean): DocMatches {
  return { kind: 'docs', docs: d, scores: needsScores ? new Float64Array(d.length).fill(score) : null };
}

export function materialise(m: Matches, maxDoc: number, needsScores: boolean): DocMatches {
  if (m.kind === 'docs') return m;
  const d = new Int32Array(maxDoc);
  for (let i = 0; i < maxDoc; i++) d[i] = i;
  return constantDocs(d, m.score, needsScores);
}

export function countOf(m: Matches, maxDoc: number): number {
  return m.kind === 'all' ? maxDoc : m.docs.length;
}

/** Docs in both; scores add up (a side without scores contributes 0). */
export function intersect(a: Matches, b: Matches, needsScores: boolean): Matches {
  if (a.kind === 'all' && b.kind === 'all') return { kind: 'all', score: a.score + b.score };
  if (a.kind === 'all') return addConstant(b as DocMatches, a.score, needsScores);
  if (b.kind === 'all') return addConstant(a, b.score, needsScores);
  if (a.docs.length > b.docs.length) [a, b] = [b, a];
  const ad = a.docs;
  const bd = b.docs;
  const out = new Int32Array(ad.length);
  const scores = needsScores ? new Float64Array(ad.length) : null;
  let n = 0;
  let j = 0;
  const gallop = bd.length > ad.length * 8;
  for (let i = 0; i < ad.length && j < bd.length; i++) {
    const doc = ad[i]!;
    if (gallop) {
      j = advance(bd, j, doc);
    } else {
      while (j < bd.length && bd[j]! < doc) j++;
    }
    if (j < bd.length && bd[j] === doc) {
      if (scores) scores[n] = (a.scores?.[i] ?? 0) + (b.scores?.[j] ?? 0);
      out[n++] = doc;
      j++;
    }
  }
  return { kind: 'docs', docs: out.subarray(0, n), scores: scores ? scores.subarray(0, n) : null };
}

function addConstant(m: DocMatches, score: number, needsScores: boolean): DocMatches {
  if (!needsScores) return m;
  const s = new Float64Array(m.docs.length);
  for (let i = 0; i < s.length; i++) s[i] = (m.scores?.[i] ?? 0) + score;
  return { kind: 'docs', docs: m.docs, scores: s };
}

/** First index >= from whose doc is >= target (exponential then binary search). */
export function advance(arr: Int32Array, from: number, target: number): number {
  let step = 1;
  let lo = from;
  let hi = from;
  while (hi < arr.length && arr[hi]! < target) {
    lo = hi + 1;
    hi += step;
    step <<= 1;
  }
  if (hi > arr.length) hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Docs of `a` that are not in `b`. */
export function subtract(a: DocMatches, b: Matches): DocMatches {
  if (b.kind === 'all') return NO_MATCHES;
  const bd = b.docs;
  if (bd.length === 0) return a;
  const out = new Int32Array(a.docs.length);
  const scores = a.scores ? new Float64Array(a.docs.length) : null;
  let n = 0;
  let j = 0;
  for (let i = 0; i < a.docs.length; i++) {
    const doc = a.docs[i]!;
    j = advance(bd, j, doc);
    if (j < bd.length && bd[j] === doc) continue;
    if (scores) scores[n] = a.scores![i]!;
    out[n++] = doc;
  }
  return { kind: 'docs', docs: out.subarray(0, n), scores: scores ? scores.subarray(0, n) : null };
}

export interface Union {
  docs: Int32Array;
  scores: Float64Array | null;
  /** How many of the inputs matched each doc. */
  counts: Int32Array | null;
}

/**
 * Union of several doc lists, with summed scores and per-doc match counts when asked. Large
 * unions accumulate into dense per-segment arrays (Lucene's BooleanScorer idea); small ones
 * merge list by list. Either way each doc's score is 0 plus its lists' scores added in list
 * order, the order the doc-at-a-time disjunction adds them in (max-score.ts).
 */
export function union(
  list: readonly DocMatches[],
  maxDoc: number,
  needsScores: boolean,
  needsCounts: boolean,
): Union {
  const parts = list.filter((m) => m.docs.length > 0);
  if (parts.length === 0) return { docs: EMPTY_DOCS, scores: null, counts: null };
  if (parts.length === 1 && !needsCounts)
    return { docs: parts[0]!.docs, scores: needsScores ? parts[0]!.scores : null, counts: null };
  let total = 0;
  for (const p of parts) total += p.docs.length;
  if (total * 4 > maxDoc || parts.length > 16) return denseUnion(parts, maxDoc, needsScores, needsCounts);
  const first = parts[0]!;
  let scores: Float64Array | null = null;
  if (needsScores) {
    // Sums start from 0, as the dense accumulator's do (so a lone -0 becomes 0 either way).
    scores = new Float64Array(first.docs.length);
    const s = first.scores;
    if (s) for (let i = 0; i < s.length; i++) scores[i] = 0 + s[i]!;
  }
  let cur: Union = {
    docs: first.docs,
    scores,
    counts: needsCounts ? new Int32Array(first.docs.length).fill(1) : null,
  };
  for (let i = 1; i < parts.length; i++) cur = merge2(cur, parts[i]!);
  return cur;
}

/** `a` plus one more list `b` (count 1 per doc, its score added after a's). */
function merge2(a: Union, b: DocMatches): Union {
  const cap = a.docs.length + b.docs.length;
  const docsOut = new Int32Array(cap);
  const scores = a.scores ? new Float64Array(cap) : null;
  const counts = a.counts ? new Int32Array(cap) : null;
  const ad = a.docs;
  const bd = b.docs;
  const bs = b.scores;
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < ad.length || j < bd.length) {
    const da = i < ad.length ? ad[i]! : 0x7fffffff;
    const db = j < bd.length ? bd[j]! : 0x7fffffff;
    if (da < db) {
      docsOut[n] = da;
      if (scores) scores[n] = a.scores![i]!;
      if (counts) counts[n] = a.counts![i]!;
      i++;
    } else if (db < da) {
      docsOut[n] = db;
      if (scores) scores[n] = bs ? 0 + bs[j]! : 0;
      if (counts) counts[n] = 1;
      j++;
    } else {
      docsOut[n] = da;
      if (scores) scores[n] = bs ? a.scores![i]! + bs[j]! : a.scores![i]!;
      if (counts) counts[n] = a.counts![i]! + 1;
      i++;
      j++;
    }
    n++;
  }
  return {
    docs: docsOut.subarray(0, n),
    scores: scores ? scores.subarray(0, n) : null,
    counts: counts ? counts.subarray(0, n) : null,
  };
}

// Scratch space of the dense unions, reused across calls (a worker runs one query at a time,
// and no union calls another): a bit per doc, and per-doc sums and counts that are zeroed
// again as they are read out.
let scratchBits = new Uint32Array(0);
let scratchSums = new Float64Array(0);
let scratchCounts = new Int32Array(0);

function bitsFor(maxDoc: number): Uint32Array {
  const words = (maxDoc + 31) >>> 5;
  if (scratchBits.length < words) scratchBits = new Uint32Array(words);
  return scratchBits;
}

function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function denseUnion(
  parts: readonly DocMatches[],
  maxDoc: number,
  needsScores: boolean,
  needsCounts: boolean,
): Union {
  const bits = bitsFor(maxDoc);
  if (needsScores && scratchSums.length < maxDoc) scratchSums = new Float64Array(maxDoc);
  if (needsCounts && scratchCounts.length < maxDoc) scratchCounts = new Int32Array(maxDoc);
  const acc = needsScores ? scratchSums : null;
  const cnt = needsCounts ? scratchCounts : null;
  for (const p of parts) {
    const d = p.docs;
    const s = acc ? p.scores : null;
    for (let i = 0; i < d.length; i++) {
      const doc = d[i]!;
      bits[doc >>> 5]! |= 1 << (doc & 31);
      if (s) acc![doc]! += s[i]!;
      if (cnt) cnt[doc]!++;
    }
  }
  const words = (maxDoc + 31) >>> 5;
  let n = 0;
  for (let w = 0; w < words; w++) if (bits[w] !== 0) n += popcount(bits[w]!);
  const docsOut = new Int32Array(n);
  const scores = acc ? new Float64Array(n) : null;
  const counts = cnt ? new Int32Array(n) : null;
  let k = 0;
  for (let w = 0; w < words; w++) {
    let v = bits[w]!;
    if (v === 0) continue;
    bits[w] = 0;
    const base = w << 5;
    while (v !== 0) {
      const low = v & -v;
      const doc = base + 31 - Math.clz32(low);
      v ^= low;
      docsOut[k] = doc;
      if (scores) {
        scores[k] = acc![doc]!;
        acc![doc] = 0;
      }
      if (counts) {
        counts[k] = cnt![doc]!;
        cnt![doc] = 0;
      }
      k++;
    }
  }
  return { docs: docsOut, scores, counts };
}

/** How many of the sorted `docs` pass `excluded` (bit set = skip). */
export function countPassing(docs: Int32Array, excluded: Uint32Array | null): number {
  if (excluded === null) return docs.length;
  let n = 0;
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    if ((excluded[d >>> 5]! & (1 << (d & 31))) === 0) n++;
  }
  return n;
}

/** Docs matched by any of several postings slices (constant-score multi-term queries). */
export function unionDocs(slices: readonly Int32Array[], maxDoc: number): Int32Array {
  if (slices.length === 0) return EMPTY_DOCS;
  if (slices.length === 1) return slices[0]!;
  return denseUnion(
    slices.map((d) => ({ kind: 'docs' as const, docs: d, scores: null })),
    maxDoc,
    false,
    false,
  ).docs;
}
