/**
 * What one shard computes for an aggregation tree: plain data (numbers, strings, bigints, arrays,
 * a Uint8Array for a cardinality sketch), cheap to structure-clone between threads and nodes.
 * The list of a shard's partials is aligned with the spec list (`partials[i]` answers
 * `specs[i]`), and so is each bucket's `aggs` with its spec's sub-aggregations.
 *
 * Partials of several shards merge (merge.ts) into one partial of the same shape, in any order
 * and grouping; rendering (render.ts) turns the merged one into Elasticsearch's response JSON.
 */

import type { HdrData } from './hdr-histogram.ts';
import type { MoreBucketPartial } from './partial-more-buckets.ts';
import type { TDigestData } from './tdigest.ts';
import type { TopHitsPartial, TopMetricsPartial } from './top-hits.ts';

/** How a field's values print (DocValueFormat): dates with a pattern, booleans, ips, numbers with a DecimalFormat pattern; raw otherwise. */
export type ValueFormat =
  | { readonly kind: 'raw' }
  | { readonly kind: 'date'; readonly pattern: string; readonly timeZone?: string }
  | { readonly kind: 'bool' }
  | { readonly kind: 'ip' }
  | { readonly kind: 'decimal'; readonly pattern: string }
  /** A composite geotile_grid key: the tile packed as x * 2^29 + y, printed `zoom/x/y`. */
  | { readonly kind: 'geotile'; readonly zoom: number };

export const RAW_FORMAT: ValueFormat = { kind: 'raw' };

/** A metric's values are the shard's; `unmapped` marks a shard where the field does not exist. */
interface Formatted {
  readonly fmt: ValueFormat;
  readonly unmapped?: boolean;
}

export interface AvgPartial extends Formatted {
  readonly t: 'avg';
  readonly sum: number;
  readonly count: number;
}

export interface SumPartial extends Formatted {
  readonly t: 'sum';
  readonly sum: number;
}

/** `value` is +Infinity (min) or -Infinity (max) when there was no value. */
export interface MinMaxPartial extends Formatted {
  readonly t: 'min' | 'max';
  readonly value: number;
}

export interface ValueCountPartial {
  readonly t: 'value_count';
  readonly count: number;
}

export interface StatsPartial extends Formatted {
  readonly t: 'stats' | 'extended_stats';
  readonly count: number;
  readonly sum: number;
  readonly min: number;
  readonly max: number;
  /** extended_stats only. */
  readonly sumOfSquares: number;
}

/**
 * Distinct values: exactly (`values`) up to the spec's precision_threshold, then a
 * HyperLogLog++ sketch (`registers`, 2^precision of them).
 */
export interface CardinalityPartial {
  readonly t: 'cardinality';
  readonly values?: readonly (string | number | bigint)[];
  readonly registers?: Uint8Array;
  readonly precision: number;
}

/** The kind of a terms aggregation's keys: what `key` holds and how it prints. */
export type TermsKind = 'string' | 'ip' | 'long' | 'double' | 'date' | 'bool';

export interface TermsBucket {
  /**
   * string: the term; ip: the address as a 32-digit hex key (it orders like the address);
   * long: number or bigint; double, date (millis), bool (0/1): number.
   */
  readonly key: string | number | bigint;
  readonly docCount: number;
  /** Sum of the doc-count errors of the shards that returned this bucket (show_term_doc_count_error). */
  readonly presentError: number;
  readonly aggs: readonly AggPartial[];
}

export interface TermsPartial extends Formatted {
  readonly t: 'terms';
  readonly kind: TermsKind;
  readonly buckets: readonly TermsBucket[];
  /** Docs of the buckets the shards left out. */
  readonly otherDocCount: number;
  /** Upper bound of the doc count a left-out term may have (-1: unknown, for non-count orders). */
  readonly docCountError: number;
}

export interface MultiTermsBucket {
  /** One value per source, typed as terms keys are. */
  readonly key: readonly (string | number | bigint)[];
  readonly docCount: number;
  readonly presentError: number;
  readonly aggs: readonly AggPartial[];
}

/** multi_terms (InternalMultiTerms): as terms, with a key of one value per source. */
export interface MultiTermsPartial {
  readonly t: 'multi_terms';
  /** Per source: the kind of its values and how they print. */
  readonly kinds: readonly TermsKind[];
  readonly formats: readonly ValueFormat[];
  readonly buckets: readonly MultiTermsBucket[];
  readonly otherDocCount: number;
  readonly docCountError: number;
}

/**
 * rare_terms (InternalRareTerms): a shard's terms held by at most max_doc_count docs, and the
 * keys it saw more often, which no other shard's count can make rare again.
 */
export interface RareTermsPartial extends Formatted {
  readonly t: 'rare_terms';
  readonly kind: TermsKind;
  readonly buckets: readonly TermsBucket[];
  readonly frequent: readonly (string | number | bigint)[];
}

export interface KeyBucket {
  /** Histogram: the bucket's lower bound; date_histogram: its start, epoch millis. */
  readonly key: number;
  readonly docCount: number;
  readonly aggs: readonly AggPartial[];
}

export interface HistogramPartial extends Formatted {
  readonly t: 'histogram' | 'date_histogram';
  /** Ascending by key. */
  readonly buckets: readonly KeyBucket[];
  /** Sub-aggregations of a bucket without docs, for the gaps min_doc_count 0 fills. */
  readonly empty?: readonly AggPartial[];
  /** date_histogram extended_bounds, resolved and rounded on the shard. */
  readonly bounds?: { readonly min?: number; readonly max?: number };
}

export interface RangeBucket {
  /** The request's `key`, if it gave one. */
  readonly key?: string;
  /** Resolved bounds (±Infinity when open). */
  readonly from: number;
  readonly to: number;
  readonly docCount: number;
  readonly aggs: readonly AggPartial[];
}

export interface RangePartial extends Formatted {
  readonly t: 'range';
  /** Ordered by (from, to), as the response lists them. */
  readonly buckets: readonly RangeBucket[];
}

/** filter, missing and global: one bucket. */
export interface SingleBucketPartial {
  readonly t: 'single';
  readonly docCount: number;
  readonly aggs: readonly AggPartial[];
}

export interface FiltersPartial {
  readonly t: 'filters';
  /** Aligned with the spec's filters. */
  readonly buckets: readonly SingleBucketPartial[];
  readonly other?: SingleBucketPartial;
}

/**
 * One source's part of a composite key (typed as terms keys are: ips as hex keys, booleans as
 * 0/1); null for a doc without a value (missing_bucket).
 */
export type CompositeValue = string | number | bigint | null;

export interface CompositeBucket {
  readonly key: readonly CompositeValue[];
  readonly docCount: number;
  readonly aggs: readonly AggPartial[];
}

export interface CompositePartial {
  readonly t: 'composite';
  /** The shard's first `size` keys after `after`, in composite order. */
  readonly buckets: readonly CompositeBucket[];
  /** Per source: how its values print. */
  readonly formats: readonly ValueFormat[];
  /** Per source: whether its values are doubles (a terms source on a double or float field). */
  readonly doubles?: readonly boolean[];
}

/**
 * geo_bounds (InternalGeoBounds): the extremes of the latitudes, and of the longitudes apart for
 * the eastern (≥ 0) and western (< 0) hemispheres, ±Infinity when none.
 */
export interface GeoBoundsPartial {
  readonly t: 'geo_bounds';
  readonly top: number;
  readonly bottom: number;
  readonly posLeft: number;
  readonly posRight: number;
  readonly negLeft: number;
  readonly negRight: number;
}

/** geo_centroid (InternalGeoCentroid): the points' mean and their count (NaN mean when none). */
export interface GeoCentroidPartial {
  readonly t: 'geo_centroid';
  readonly lat: number;
  readonly lon: number;
  readonly count: number;
}

export interface GeoGridBucket {
  /** The cell: a geohash (`u09tv`) or a tile (`zoom/x/y`). */
  readonly key: string;
  readonly docCount: number;
  readonly aggs: readonly AggPartial[];
}

/** geohash_grid and geotile_grid (InternalGeoGrid): a shard's fullest cells, or their union. */
export interface GeoGridPartial {
  readonly t: 'geo_grid';
  readonly buckets: readonly GeoGridBucket[];
}

export type * from './partial-more-buckets.ts';

export type AggPartial =
  | MoreBucketPartial
  | MoreMetricPartial
  | PipelinePartial
  | GeoGridPartial
  | GeoBoundsPartial
  | GeoCentroidPartial
  | AvgPartial
  | SumPartial
  | MinMaxPartial
  | ValueCountPartial
  | StatsPartial
  | CardinalityPartial
  | TermsPartial
  | MultiTermsPartial
  | RareTermsPartial
  | HistogramPartial
  | RangePartial
  | SingleBucketPartial
  | FiltersPartial
  | CompositePartial;

/** A TDigest of the values (percentiles, percentile_ranks, boxplot, median_absolute_deviation). */
export interface TDigestPartial extends Formatted {
  readonly t: 'tdigest';
  readonly digest: TDigestData;
}

/** An HDR histogram of the values (percentiles and percentile_ranks with `hdr`). */
export interface HdrPartial extends Formatted {
  readonly t: 'hdr';
  readonly hdr: HdrData;
}

export interface WeightedAvgPartial extends Formatted {
  readonly t: 'weighted_avg';
  /** Σ value × weight and Σ weight. */
  readonly sum: number;
  readonly weight: number;
}

export interface StringStatsPartial {
  readonly t: 'string_stats';
  readonly count: number;
  readonly totalLength: number;
  /** +Infinity / -Infinity when none. */
  readonly minLength: number;
  readonly maxLength: number;
  /** Occurrences of each character. */
  readonly chars: Readonly<Record<string, number>>;
}

export type MoreMetricPartial =
  | TDigestPartial
  | HdrPartial
  | WeightedAvgPartial
  | StringStatsPartial
  | TopHitsPartial
  | TopMetricsPartial;

/** A pipeline aggregation has nothing on the shards: it is computed from the reduced siblings. */
export interface PipelinePartial {
  readonly t: 'pipeline';
}

/** A shard's partials, aligned with the top-level specs. */
export type ShardAggregations = readonly AggPartial[];
