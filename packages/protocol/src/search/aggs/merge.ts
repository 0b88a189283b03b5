/**
 * Merging partial aggregations (the non-final part of InternalAggregation.reduce): the partials
 * of several shards, or of earlier merges, become one partial of the same shape. The merge is
 * associative and commutative — sums add (compensated, as Elasticsearch's CompensatedSum),
 * minima and maxima combine, buckets with the same key merge with their sub-aggregations — so
 * a coordinator may merge shard results as they arrive and in any grouping. What only the final
 * reduce does (size cuts, min_doc_count, empty buckets, ordering) is in render.ts.
 */

import { illegalArgument } from '../../errors/catalogue.ts';
import { mergeCardinality } from './cardinality-sketch.ts';
import { compareComposite } from './composite-order.ts';
import { EMPTY_GEO_GRID, mergeGeoGrids } from './geo-grid.ts';
import { EMPTY_GEO_BOUNDS, EMPTY_GEO_CENTROID, mergeGeoBounds, mergeGeoCentroids } from './geo-metrics.ts';
import { emptyMoreBuckets, isMoreBucket, mergeMoreBuckets } from './more-buckets.ts';
import { emptyMoreMetric, mergeMoreMetric } from './more-metrics.ts';
import { emptyMultiTerms, mergeMultiTerms } from './multi-terms.ts';
import {
  type AggPartial,
  type CardinalityPartial,
  type CompositeBucket,
  type CompositePartial,
  type FiltersPartial,
  type GeoBoundsPartial,
  type GeoCentroidPartial,
  type GeoGridPartial,
  type HistogramPartial,
  type KeyBucket,
  type MultiTermsPartial,
  RAW_FORMAT,
  type RangePartial,
  type RareTermsPartial,
  type ShardAggregations,
  type SingleBucketPartial,
  type StatsPartial,
  type TermsBucket,
  type TermsKind,
  type TermsPartial,
  type ValueFormat,
} from './partial.ts';
import { emptyRareTerms, mergeRareTerms } from './rare-terms.ts';
import {
  type AggregationsSpec,
  type AggSpec,
  type CompositeSpec,
  isPipelineSpec,
  type TermsSpec,
} from './spec.ts';
import { isMoreMetric, PIPELINE_PARTIAL } from './spec-kinds.ts';

/** Merges the partials of several shards (each aligned with `specs`) into one. */
export function mergeAggregations(
  specs: AggregationsSpec,
  shards: readonly ShardAggregations[],
): AggPartial[] {
  return specs.map((spec, i) =>
    mergePartials(
      spec,
      shards.map((s) => s[i]!),
    ),
  );
}

/** Merges partials of one aggregation. */
export function mergePartials(spec: AggSpec, parts: readonly AggPartial[]): AggPartial {
  if (parts.length === 1) return parts[0]!;
  if (parts.length === 0) return emptyPartial(spec);
  if (isPipelineSpec(spec)) return PIPELINE_PARTIAL;
  if (isMoreMetric(spec)) return mergeMoreMetric(spec, parts);
  if (isMoreBucket(spec)) return mergeMoreBuckets(spec, parts, mergeAggregations);
  switch (spec.type) {
    case 'avg': {
      const ps = parts as Extract<AggPartial, { t: 'avg' }>[];
      return {
        t: 'avg',
        sum: compensatedSum(ps.map((p) => p.sum)),
        count: total(ps, 'count'),
        ...formatOf(ps),
      };
    }
    case 'sum': {
      const ps = parts as Extract<AggPartial, { t: 'sum' }>[];
      return { t: 'sum', sum: compensatedSum(ps.map((p) => p.sum)), ...formatOf(ps) };
    }
    case 'min':
    case 'max': {
      const ps = parts as Extract<AggPartial, { t: 'min' | 'max' }>[];
      const values = ps.map((p) => p.value);
      return {
        t: spec.type,
        value: spec.type === 'min' ? Math.min(...values) : Math.max(...values),
        ...formatOf(ps),
      };
    }
    case 'value_count':
      return {
        t: 'value_count',
        count: total(parts as Extract<AggPartial, { t: 'value_count' }>[], 'count'),
      };
    case 'stats':
    case 'extended_stats':
      return mergeStats(spec.type, parts as StatsPartial[]);
    case 'cardinality':
      return mergeCardinality(parts as CardinalityPartial[], spec.precisionThreshold);
    case 'terms':
      return mergeTerms(spec, parts as TermsPartial[]);
    case 'multi_terms':
      return mergeMultiTerms(spec, parts as MultiTermsPartial[], mergeAggregations);
    case 'rare_terms':
      return mergeRareTerms(spec, parts as RareTermsPartial[], mergeAggregations);
    case 'histogram':
    case 'date_histogram':
      return mergeHistograms(spec.type, spec.aggs, parts as HistogramPartial[]);
    case 'range':
    case 'date_range':
    case 'geo_distance':
      return mergeRanges(spec.aggs, parts as RangePartial[]);
    case 'geo_bounds':
      return mergeGeoBounds(parts as GeoBoundsPartial[]);
    case 'geo_centroid':
      return mergeGeoCentroids(parts as GeoCentroidPartial[]);
    case 'filter':
    case 'missing':
    case 'global':
      return mergeSingle(spec.aggs, parts as SingleBucketPartial[]);
    case 'filters':
      return mergeFilters(spec.aggs, parts as FiltersPartial[]);
    case 'composite':
      return mergeComposite(spec, parts as CompositePartial[]);
    case 'geohash_grid':
    case 'geotile_grid':
      return mergeGeoGrids(spec, parts as GeoGridPartial[]);
  }
}

/** The partial of an aggregation that saw nothing, for a merge of no shards. */
export function emptyPartial(spec: AggSpec): AggPartial {
  const fmt = RAW_FORMAT;
  if (isPipelineSpec(spec)) return PIPELINE_PARTIAL;
  if (isMoreMetric(spec)) return emptyMoreMetric(spec);
  if (isMoreBucket(spec)) return emptyMoreBuckets(spec, emptyPartial);
  switch (spec.type) {
    case 'avg':
      return { t: 'avg', sum: 0, count: 0, fmt };
    case 'sum':
      return { t: 'sum', sum: 0, fmt };
    case 'min':
      return { t: 'min', value: Number.POSITIVE_INFINITY, fmt };
    case 'max':
      return { t: 'max', value: Number.NEGATIVE_INFINITY, fmt };
    case 'value_count':
      return { t: 'value_count', count: 0 };
    case 'stats':
    case 'extended_stats':
      return { t: spec.type, count: 0, sum: 0, min: Infinity, max: -Infinity, sumOfSquares: 0, fmt };
    case 'cardinality':
      return mergeCardinality([], spec.precisionThreshold);
    case 'terms':
      return {
        t: 'terms',
        kind: 'string',
        buckets: [],
        otherDocCount: 0,
        docCountError: 0,
        fmt,
        unmapped: true,
      };
    case 'multi_terms':
      return emptyMultiTerms(spec);
    case 'rare_terms':
      return emptyRareTerms();
    case 'histogram':
    case 'date_histogram':
      return { t: spec.type, buckets: [], fmt, unmapped: true };
    case 'range':
    case 'date_range':
    case 'geo_distance':
      return { t: 'range', buckets: [], fmt, unmapped: true };
    case 'geo_bounds':
      return EMPTY_GEO_BOUNDS;
    case 'geo_centroid':
      return EMPTY_GEO_CENTROID;
    case 'filter':
    case 'missing':
    case 'global':
      return { t: 'single', docCount: 0, aggs: spec.aggs.map(emptyPartial) };
    case 'filters':
      return {
        t: 'filters',
        buckets: spec.filters.map(() => ({ t: 'single', docCount: 0, aggs: spec.aggs.map(emptyPartial) })),
      };
    case 'composite':
      return { t: 'composite', buckets: [], formats: spec.sources.map(() => RAW_FORMAT) };
    case 'geohash_grid':
    case 'geotile_grid':
      return EMPTY_GEO_GRID;
  }
}

/** The format of the shards where the field is mapped (an unmapped shard knows none). */
function formatOf(parts: readonly { fmt: ValueFormat; unmapped?: boolean }[]): {
  fmt: ValueFormat;
  unmapped?: boolean;
} {
  const mapped = parts.find((p) => !p.unmapped);
  return mapped ? { fmt: mapped.fmt } : { fmt: parts[0]?.fmt ?? RAW_FORMAT, unmapped: true };
}

function total<K extends string>(parts: readonly Record<K, number>[], key: K): number {
  let n = 0;
  for (const p of parts) n += p[key];
  return n;
}

/** Kahan summation; non-finite values pass through as plain addition. */
export function compensatedSum(values: readonly number[]): number {
  let sum = 0;
  let c = 0;
  for (const v of values) {
    if (!Number.isFinite(v)) {
      sum += v;
      continue;
    }
    if (!Number.isFinite(sum)) continue;
    const y = v - c;
    const t = sum + y;
    c = t - sum - y;
    sum = t;
  }
  return sum;
}

function mergeStats(t: 'stats' | 'extended_stats', parts: readonly StatsPartial[]): StatsPartial {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const p of parts) {
    if (p.min < min) min = p.min;
    if (p.max > max) max = p.max;
  }
  return {
    t,
    count: total(parts, 'count'),
    sum: compensatedSum(parts.map((p) => p.sum)),
    min,
    max,
    sumOfSquares: compensatedSum(parts.map((p) => p.sumOfSquares)),
    ...formatOf(parts),
  };
}

interface TermsAcc {
  key: string | number | bigint;
  docCount: number;
  presentError: number;
  aggs: (readonly AggPartial[])[];
}

const NUMERIC_KINDS: ReadonlySet<TermsKind> = new Set(['long', 'double', 'date', 'bool']);

/** The kind the merged terms take: shards of different indices may map the field differently. */
function mergedKind(spec: TermsSpec, parts: readonly TermsPartial[]): TermsKind {
  const kinds = new Set(parts.filter((p) => !p.unmapped).map((p) => p.kind));
  if (kinds.size <= 1) return kinds.values().next().value ?? parts[0]!.kind;
  if ([...kinds].every((k) => NUMERIC_KINDS.has(k))) return 'double';
  // AggregationErrors.reduceTypeMismatch: an IllegalArgumentException (400).
  throw illegalArgument(
    `Merging/Reducing the aggregations failed when computing the aggregation [${spec.name}] because the field ` +
      'you gave in the aggregation query existed as two different types in two different indices',
  );
}

function mergeTerms(spec: TermsSpec, parts: readonly TermsPartial[]): TermsPartial {
  const kind = mergedKind(spec, parts);
  const asDouble = kind === 'double';
  const byKey = new Map<string | number | bigint, TermsAcc>();
  let otherDocCount = 0;
  let docCountError = 0;
  for (const p of parts) {
    otherDocCount += p.otherDocCount;
    docCountError = docCountError === -1 || p.docCountError === -1 ? -1 : docCountError + p.docCountError;
    for (const b of p.buckets) {
      const key = asDouble ? Number(b.key) : b.key;
      const acc = byKey.get(key);
      if (acc) {
        acc.docCount += b.docCount;
        acc.presentError += b.presentError;
        acc.aggs.push(b.aggs);
      } else {
        byKey.set(key, { key, docCount: b.docCount, presentError: b.presentError, aggs: [b.aggs] });
      }
    }
  }
  const buckets: TermsBucket[] = [];
  for (const acc of byKey.values()) {
    buckets.push({
      key: acc.key,
      docCount: acc.docCount,
      presentError: acc.presentError,
      aggs: mergeAggregations(spec.aggs, acc.aggs),
    });
  }
  const mapped = parts.find((p) => !p.unmapped && p.kind === kind) ?? parts.find((p) => !p.unmapped);
  const out: TermsPartial = {
    t: 'terms',
    kind,
    buckets,
    otherDocCount,
    docCountError,
    fmt: asDouble ? RAW_FORMAT : (mapped ?? parts[0]!).fmt,
  };
  return mapped ? out : { ...out, unmapped: true };
}

function mergeHistograms(
  t: 'histogram' | 'date_histogram',
  subs: readonly AggSpec[],
  parts: readonly HistogramPartial[],
): HistogramPartial {
  const byKey = new Map<number, { docCount: number; aggs: (readonly AggPartial[])[] }>();
  for (const p of parts) {
    for (const b of p.buckets) {
      const acc = byKey.get(b.key);
      if (acc) {
        acc.docCount += b.docCount;
        acc.aggs.push(b.aggs);
      } else byKey.set(b.key, { docCount: b.docCount, aggs: [b.aggs] });
    }
  }
  const buckets: KeyBucket[] = [];
  for (const [key, acc] of byKey) {
    buckets.push({ key, docCount: acc.docCount, aggs: mergeAggregations(subs, acc.aggs) });
  }
  buckets.sort((a, b) => a.key - b.key);
  const out: { -readonly [K in keyof HistogramPartial]: HistogramPartial[K] } = {
    t,
    buckets,
    ...formatOf(parts),
  };
  const empty = parts.find((p) => p.empty)?.empty;
  if (empty) out.empty = empty;
  const bounds = parts.find((p) => p.bounds)?.bounds;
  if (bounds) out.bounds = bounds;
  return out;
}

function mergeRanges(subs: readonly AggSpec[], parts: readonly RangePartial[]): RangePartial {
  const first = parts.find((p) => p.buckets.length > 0) ?? parts[0]!;
  const buckets = first.buckets.map((b, i) => ({
    ...b,
    docCount: parts.reduce((n, p) => n + (p.buckets[i]?.docCount ?? 0), 0),
    aggs: mergeAggregations(
      subs,
      parts.filter((p) => p.buckets[i] !== undefined).map((p) => p.buckets[i]!.aggs),
    ),
  }));
  return { t: 'range', buckets, ...formatOf(parts) };
}

function mergeSingle(subs: readonly AggSpec[], parts: readonly SingleBucketPartial[]): SingleBucketPartial {
  return {
    t: 'single',
    docCount: total(parts, 'docCount'),
    aggs: mergeAggregations(
      subs,
      parts.map((p) => p.aggs),
    ),
  };
}

function mergeFilters(subs: readonly AggSpec[], parts: readonly FiltersPartial[]): FiltersPartial {
  const buckets = parts[0]!.buckets.map((_, i) =>
    mergeSingle(
      subs,
      parts.map((p) => p.buckets[i]!),
    ),
  );
  const others = parts.filter((p) => p.other !== undefined).map((p) => p.other!);
  return others.length > 0
    ? { t: 'filters', buckets, other: mergeSingle(subs, others) }
    : { t: 'filters', buckets };
}

/** A composite key as one Map key: each value tagged with its type. */
function compositeMapKey(key: readonly (string | number | bigint | null)[]): string {
  let s = '';
  for (const v of key)
    s += `${v === null ? 'z' : typeof v === 'string' ? 's' : typeof v === 'bigint' ? 'b' : 'n'}${v}\u0001`;
  return s;
}

function mergeComposite(spec: CompositeSpec, parts: readonly CompositePartial[]): CompositePartial {
  const byKey = new Map<
    string,
    { key: CompositeBucket['key']; docCount: number; aggs: (readonly AggPartial[])[] }
  >();
  for (const p of parts) {
    for (const b of p.buckets) {
      const k = compositeMapKey(b.key);
      const acc = byKey.get(k);
      if (acc) {
        acc.docCount += b.docCount;
        acc.aggs.push(b.aggs);
      } else byKey.set(k, { key: b.key, docCount: b.docCount, aggs: [b.aggs] });
    }
  }
  const all = [...byKey.values()].sort((a, b) => compareComposite(a.key, b.key, spec.sources));
  // Each shard sent its first `size` keys, so the first `size` of the union are exact.
  const buckets = all.slice(0, spec.size).map((acc) => ({
    key: acc.key,
    docCount: acc.docCount,
    aggs: mergeAggregations(spec.aggs, acc.aggs),
  }));
  const formats = spec.sources.map(
    (_, i) =>
      parts.find((p) => p.formats[i] !== undefined && p.formats[i]!.kind !== 'raw')?.formats[i] ?? RAW_FORMAT,
  );
  if (!parts.some((p) => p.doubles !== undefined)) return { t: 'composite', buckets, formats };
  const doubles = spec.sources.map((_, i) => parts.some((p) => p.doubles?.[i] === true));
  return { t: 'composite', buckets, formats, doubles };
}
