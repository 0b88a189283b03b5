/**
 * `min_doc_count: 0` on histograms (InternalHistogram / InternalDateHistogram.addEmptyBuckets):
 * the final reduce fills every gap between the first and the last bucket, and out to
 * `extended_bounds`, with empty buckets. Each added bucket counts against search.max_buckets,
 * so a tiny interval over a wide range fails instead of running away.
 */
import type { AggPartial, HistogramPartial, KeyBucket } from './partial.ts';
import type { Renderer } from './render.ts';
import type { DateHistogramSpec, HistogramSpec } from './spec.ts';

export function fillEmptyBuckets(
  r: Renderer,
  spec: HistogramSpec | DateHistogramSpec,
  p: HistogramPartial,
  empty: readonly AggPartial[],
): KeyBucket[] {
  let next: (key: number) => number;
  let min: number | undefined;
  let max: number | undefined;
  if (spec.type === 'histogram') {
    const { interval, offset } = spec;
    const round = (v: number) => Math.floor((v - offset) / interval) * interval + offset;
    next = (key) => round(key + interval + interval / 2);
    min = spec.extendedBounds?.min === undefined ? undefined : round(spec.extendedBounds.min);
    max = spec.extendedBounds?.max;
  } else {
    const rounding = spec.rounding;
    next = (key) => r.dates.nextKey(key, rounding);
    min = p.bounds?.min;
    max = p.bounds?.max;
  }
  const out: KeyBucket[] = [];
  const add = (key: number) => {
    r.consumeBuckets(1);
    out.push({ key, docCount: 0, aggs: empty });
  };
  /** Adds empty buckets from `key` while `more(key)`; stops if the keys stop increasing. */
  const fill = (key: number, more: (k: number) => boolean) => {
    while (more(key)) {
      add(key);
      const k = next(key);
      if (!(k > key)) break;
      key = k;
    }
  };
  const buckets = p.buckets;
  const first = buckets[0];
  if (first === undefined) {
    if (min !== undefined && max !== undefined) fill(min, (k) => k <= max!);
    return out;
  }
  if (min !== undefined && min < first.key) fill(min, (k) => k < first.key);
  let last: KeyBucket | undefined;
  for (const b of buckets) {
    if (last) fill(next(last.key), (k) => k < b.key);
    r.consumeBuckets(1);
    out.push(b);
    last = b;
  }
  if (max !== undefined && last && max > last.key) fill(next(last.key), (k) => k <= max!);
  return out;
}
