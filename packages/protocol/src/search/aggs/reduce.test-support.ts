/** What the reduce tests share: date services for UTC, formats, a one-call reduce, shard terms. */
import { parseAggregations } from './parse-aggs.ts';
import type { AggPartial, TermsPartial, ValueFormat } from './partial.ts';
import { reduceAggregations } from './render.ts';
import type { DateRounding } from './spec.ts';
import type { AggDates } from './value-text.ts';

/** UTC dates printed as ISO text, fixed intervals and days: enough for the reduce's tests. */
export const dates: AggDates = {
  format: (millis) => new Date(millis).toISOString(),
  nextKey: (key: number, r: DateRounding) =>
    key +
    (r.interval.kind === 'fixed' ? r.interval.millis : r.interval.unit === 'day' ? 86_400_000 : 3_600_000),
  round: (millis: number, r: DateRounding) => {
    const step =
      r.interval.kind === 'fixed' ? r.interval.millis : r.interval.unit === 'day' ? 86_400_000 : 3_600_000;
    return Math.floor(millis / step) * step;
  },
};

export const RAW: ValueFormat = { kind: 'raw' };
export const DATE: ValueFormat = { kind: 'date', pattern: 'strict_date_optional_time' };

/** Parses `aggs` and reduces the shards' partials to the response JSON. */
export function reduce(aggs: Record<string, unknown>, shards: AggPartial[][], maxBuckets?: number) {
  const specs = parseAggregations(aggs).aggs;
  return reduceAggregations(specs, shards, { dates, maxBuckets });
}

/** A shard's terms partial as a shard computes it: its top `shardSize` by count, the rest counted. */
export function terms(buckets: [string, number][], shardSize: number, total = buckets.length): TermsPartial {
  const sorted = [...buckets].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const top = sorted.slice(0, shardSize);
  const error = top.length >= shardSize ? top[top.length - 1]![1] : 0;
  return {
    t: 'terms',
    kind: 'string',
    buckets: top.map(([key, docCount]) => ({ key, docCount, presentError: error, aggs: [] })),
    otherDocCount: sorted.slice(shardSize).reduce((s, b) => s + b[1], 0),
    docCountError: total > 0 ? error : 0,
    fmt: RAW,
  };
}
