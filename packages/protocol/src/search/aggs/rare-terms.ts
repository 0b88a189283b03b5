/**
 * rare_terms across shards and in the response (InternalRareTerms): the shards' rare buckets
 * summed by key, less any key a shard saw more than `max_doc_count` times or whose sum passes
 * it, ordered by count then key. Shoal's shards count exactly, so no term is lost or kept by a
 * filter's false positive.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import type { AggPartial, RareTermsPartial, TermsBucket } from './partial.ts';
import { RAW_FORMAT } from './partial.ts';
import type { Renderer } from './render.ts';
import type { AggSpec, RareTermsSpec } from './spec.ts';
import { compareKeys, ipText, valueText } from './value-text.ts';

type Key = string | number | bigint;
type Merge = (subs: readonly AggSpec[], parts: readonly (readonly AggPartial[])[]) => AggPartial[];

export function emptyRareTerms(): RareTermsPartial {
  return { t: 'rare_terms', kind: 'string', buckets: [], frequent: [], fmt: RAW_FORMAT, unmapped: true };
}

export function mergeRareTerms(
  spec: RareTermsSpec,
  parts: readonly RareTermsPartial[],
  merge: Merge,
): RareTermsPartial {
  const mapped = parts.filter((p) => !p.unmapped);
  if (mapped.length === 0) return parts[0] ?? emptyRareTerms();
  const kind = mapped[0]!.kind;
  if (mapped.some((p) => p.kind !== kind)) {
    // AggregationErrors.reduceTypeMismatch.
    throw illegalArgument(
      `Merging/Reducing the aggregations failed when computing the aggregation [${spec.name}] because the field ` +
        'you gave in the aggregation query existed as two different types in two different indices',
    );
  }
  const frequent = new Set<Key>();
  for (const p of mapped) for (const k of p.frequent) frequent.add(k);
  const byKey = new Map<Key, { docCount: number; aggs: (readonly AggPartial[])[] }>();
  for (const p of mapped) {
    for (const b of p.buckets) {
      const acc = byKey.get(b.key);
      if (acc) {
        acc.docCount += b.docCount;
        acc.aggs.push(b.aggs);
      } else byKey.set(b.key, { docCount: b.docCount, aggs: [b.aggs] });
    }
  }
  const buckets: TermsBucket[] = [];
  for (const [key, acc] of byKey) {
    if (frequent.has(key)) continue;
    if (acc.docCount > spec.maxDocCount) {
      frequent.add(key);
      continue;
    }
    buckets.push({ key, docCount: acc.docCount, presentError: 0, aggs: merge(spec.aggs, acc.aggs) });
  }
  return { t: 'rare_terms', kind, buckets, frequent: [...frequent], fmt: mapped[0]!.fmt };
}

/** rare_terms' order: doc count ascending, then key ascending. */
export function compareRare(a: TermsBucket, b: TermsBucket): number {
  return a.docCount - b.docCount || compareKeys(a.key, b.key);
}

export function renderRareTerms(
  r: Renderer,
  spec: RareTermsSpec,
  p: RareTermsPartial,
  out: Record<string, unknown>,
): void {
  const buckets = [...p.buckets].sort(compareRare);
  r.consumeBuckets(buckets.length);
  out.buckets = buckets.map((b) => {
    const o: Record<string, unknown> = {};
    if (p.kind === 'string') o.key = b.key;
    else if (p.kind === 'ip') o.key = ipText(b.key as string);
    else {
      o.key = b.key;
      const text = valueText(Number(b.key), p.fmt, r.dates);
      if (text !== undefined) o.key_as_string = text;
    }
    o.doc_count = b.docCount;
    r.renderAll(spec.aggs, b.aggs, o);
    return o;
  });
}

/** The `typed_keys` name (StringRareTerms, LongRareTerms, UnmappedRareTerms). */
export function rareTermsType(p: RareTermsPartial): string {
  if (p.unmapped) return 'umrareterms';
  return p.kind === 'string' || p.kind === 'ip' ? 'srareterms' : 'lrareterms';
}
