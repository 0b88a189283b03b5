/**
 * significant_terms across shards and in the response (InternalSignificantTerms and the
 * SignificanceHeuristic implementations): subset and background counts add up across shards;
 * the final reduce scores each term with the heuristic, keeps those scoring above 0 with at
 * least `min_doc_count` subset docs, and answers the `size` best by score, each with its subset
 * `doc_count`, `score` and `bg_count`, after the subset's `doc_count` and the background's
 * `bg_count`.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import type { AggPartial } from './partial.ts';
import { RAW_FORMAT } from './partial.ts';
import type { SignificantTermsBucket, SignificantTermsPartial } from './partial-more-buckets.ts';
import type { Renderer } from './render.ts';
import type { AggSpec, SignificanceHeuristic, SignificantTermsSpec, SignificantTextSpec } from './spec.ts';

/** significant_terms and significant_text: the same counts, scores and response. */
type Significance = SignificantTermsSpec | SignificantTextSpec;

import { compareKeys, ipText, valueText } from './value-text.ts';

type Key = string | number | bigint;
type Merge = (subs: readonly AggSpec[], parts: readonly (readonly AggPartial[])[]) => AggPartial[];

/** The counts behind a score: the term in the subset and in the background, and both sizes. */
export interface Frequencies {
  readonly subsetFreq: number;
  readonly subsetSize: number;
  readonly supersetFreq: number;
  readonly supersetSize: number;
}

/** JLHScore: absolute times relative change of the term's probability, 0 when it drops. */
function jlh(f: Frequencies): number {
  if (f.subsetSize === 0 || f.supersetSize === 0) return 0;
  // A term the background lacks (a background filter can exclude the subset) counts once.
  const supersetFreq = f.supersetFreq === 0 ? 1 : f.supersetFreq;
  const subsetProbability = f.subsetFreq / f.subsetSize;
  const supersetProbability = supersetFreq / f.supersetSize;
  const absoluteChange = subsetProbability - supersetProbability;
  if (absoluteChange <= 0) return 0;
  return absoluteChange * (subsetProbability / supersetProbability);
}

/** NXYSignificanceHeuristic.computeNxys: the 2×2 table of (in class, holds term). */
function nxy(f: Frequencies, backgroundIsSuperset: boolean) {
  const { subsetFreq, subsetSize, supersetFreq, supersetSize } = f;
  if (backgroundIsSuperset) {
    return {
      N00: supersetSize - supersetFreq - (subsetSize - subsetFreq),
      N01: subsetSize - subsetFreq,
      N10: supersetFreq - subsetFreq,
      N11: subsetFreq,
      N0_: supersetSize - supersetFreq,
      N1_: supersetFreq,
      N_0: supersetSize - subsetSize,
      N_1: subsetSize,
      N: supersetSize,
    };
  }
  return {
    N00: supersetSize - supersetFreq,
    N01: subsetSize - subsetFreq,
    N10: supersetFreq,
    N11: subsetFreq,
    N0_: supersetSize - supersetFreq + subsetSize - subsetFreq,
    N1_: supersetFreq + subsetFreq,
    N_0: supersetSize,
    N_1: subsetSize,
    N: supersetSize + subsetSize,
  };
}

function miTerm(nxy_: number, nx_: number, n_y: number, n: number): number {
  const numerator = Math.abs(n * nxy_);
  const denominator = Math.abs(nx_ * n_y);
  const factor = Math.abs(nxy_ / n);
  if (numerator < 1e-7 && factor < 1e-7) return 0;
  return factor * Math.log(numerator / denominator);
}

export function significanceScore(h: SignificanceHeuristic, f: Frequencies): number {
  switch (h.kind) {
    case 'jlh':
      return jlh(f);
    case 'percentage':
      return f.supersetFreq === 0 ? 0 : f.subsetFreq / f.supersetFreq;
    case 'mutual_information': {
      const t = nxy(f, h.backgroundIsSuperset);
      let score =
        (miTerm(t.N00, t.N0_, t.N_0, t.N) +
          miTerm(t.N01, t.N0_, t.N_1, t.N) +
          miTerm(t.N10, t.N1_, t.N_0, t.N) +
          miTerm(t.N11, t.N1_, t.N_1, t.N)) /
        Math.log(2);
      if (Number.isNaN(score)) score = Number.NEGATIVE_INFINITY;
      // Terms rarer in the subset than in the rest score as nothing unless negatives are asked for.
      if (!h.includeNegatives && t.N11 / t.N_1 < t.N10 / t.N_0) score = Number.NEGATIVE_INFINITY;
      return score;
    }
    case 'chi_square': {
      const t = nxy(f, h.backgroundIsSuperset);
      if (!h.includeNegatives && t.N11 / t.N_1 < t.N10 / t.N_0) return Number.NEGATIVE_INFINITY;
      return (t.N * (t.N11 * t.N00 - t.N01 * t.N10) ** 2) / (t.N_1 * t.N1_ * t.N0_ * t.N_0);
    }
    case 'gnd': {
      let fx = f.supersetFreq;
      let n = f.supersetSize;
      if (!h.backgroundIsSuperset) {
        fx += f.subsetFreq;
        n += f.subsetSize;
      }
      const fy = f.subsetSize;
      const fxy = f.subsetFreq;
      if (fxy === 0) return 0;
      const score =
        (Math.max(Math.log(fx), Math.log(fy)) - Math.log(fxy)) /
        (Math.log(n) - Math.min(Math.log(fx), Math.log(fy)));
      // Related terms have a small distance: the score turns it around.
      return Math.exp(-score);
    }
  }
}

export function emptySignificantTerms(): SignificantTermsPartial {
  return {
    t: 'significant_terms',
    kind: 'string',
    fmt: RAW_FORMAT,
    subsetSize: 0,
    supersetSize: 0,
    buckets: [],
    unmapped: true,
  };
}

export function mergeSignificantTerms(
  spec: Significance,
  parts: readonly SignificantTermsPartial[],
  merge: Merge,
): SignificantTermsPartial {
  const mapped = parts.filter((p) => !p.unmapped);
  if (mapped.length === 0) return parts[0] ?? emptySignificantTerms();
  const kind = mapped[0]!.kind;
  if (mapped.some((p) => p.kind !== kind)) {
    // AggregationErrors.reduceTypeMismatch.
    throw illegalArgument(
      `Merging/Reducing the aggregations failed when computing the aggregation [${spec.name}] because the field ` +
        'you gave in the aggregation query existed as two different types in two different indices',
    );
  }
  const byKey = new Map<Key, { docCount: number; bgCount: number; aggs: (readonly AggPartial[])[] }>();
  let subsetSize = 0;
  let supersetSize = 0;
  for (const p of parts) {
    subsetSize += p.subsetSize;
    supersetSize += p.supersetSize;
    for (const b of p.buckets) {
      const acc = byKey.get(b.key);
      if (acc) {
        acc.docCount += b.docCount;
        acc.bgCount += b.bgCount;
        acc.aggs.push(b.aggs);
      } else byKey.set(b.key, { docCount: b.docCount, bgCount: b.bgCount, aggs: [b.aggs] });
    }
  }
  const buckets: SignificantTermsBucket[] = [];
  for (const [key, acc] of byKey) {
    buckets.push({ key, docCount: acc.docCount, bgCount: acc.bgCount, aggs: merge(spec.aggs, acc.aggs) });
  }
  return { t: 'significant_terms', kind, fmt: mapped[0]!.fmt, subsetSize, supersetSize, buckets };
}

/** The `size` most significant buckets, best first (ties by key), with their scores. */
export function topSignificant(
  spec: Significance,
  p: Pick<SignificantTermsPartial, 'buckets' | 'subsetSize' | 'supersetSize'>,
  minDocCount: number,
  size: number,
  keepNonPositive = false,
): { bucket: SignificantTermsBucket; score: number }[] {
  const scored: { bucket: SignificantTermsBucket; score: number }[] = [];
  for (const b of p.buckets) {
    if (b.docCount < minDocCount) continue;
    const score = significanceScore(spec.heuristic, {
      subsetFreq: b.docCount,
      subsetSize: p.subsetSize,
      supersetFreq: b.bgCount,
      supersetSize: p.supersetSize,
    });
    if (score > 0 || keepNonPositive) scored.push({ bucket: b, score });
  }
  scored.sort((a, b) => b.score - a.score || compareKeys(a.bucket.key, b.bucket.key));
  return scored.slice(0, size);
}

export function renderSignificantTerms(
  r: Renderer,
  spec: Significance,
  p: SignificantTermsPartial,
  out: Record<string, unknown>,
): void {
  const top = p.unmapped ? [] : topSignificant(spec, p, spec.minDocCount, spec.size);
  r.consumeBuckets(top.length);
  if (!p.unmapped) {
    out.doc_count = p.subsetSize;
    out.bg_count = p.supersetSize;
  }
  out.buckets = top.map(({ bucket: b, score }) => {
    const o: Record<string, unknown> = {};
    if (p.kind === 'string') o.key = b.key;
    else if (p.kind === 'ip') o.key = ipText(b.key as string);
    else {
      o.key = b.key;
      const text = valueText(Number(b.key), p.fmt, r.dates);
      if (text !== undefined) o.key_as_string = text;
    }
    o.doc_count = b.docCount;
    o.score = r.double(score);
    o.bg_count = b.bgCount;
    r.renderAll(spec.aggs, b.aggs, o);
    return o;
  });
}

/** The `typed_keys` name (SignificantStringTerms, SignificantLongTerms, UnmappedSignificantTerms). */
export function significantTermsType(p: SignificantTermsPartial): string {
  if (p.unmapped) return 'umsigterms';
  return p.kind === 'string' || p.kind === 'ip' ? 'sigsterms' : 'siglterms';
}
