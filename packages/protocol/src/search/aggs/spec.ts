/**
 * The aggregation tree of a search, parsed and validated (parse-aggs.ts): one immutable spec per
 * aggregation, in request order, bucket aggregations holding their sub-aggregations. It is plain
 * data, so it crosses to the shard threads as it is. Defaults are already applied (terms size
 * 10, histogram min_doc_count 0, bucket orders with Elasticsearch's tie-breaker, …).
 */

import type { JsonScalar, QueryNode } from '../../query/ast.ts';
import type { ScriptSpec } from '../../script/script-spec.ts';
import type { MoreMetricSpec } from './spec-metrics.ts';
import type { MoreBucketSpec, MoreBucketType } from './spec-more-buckets.ts';
import type { PipelineSpec, PipelineType } from './spec-pipelines.ts';

export type * from './spec-metrics.ts';
export type * from './spec-more-buckets.ts';
export type * from './spec-pipelines.ts';

export type MetricType =
  | 'avg'
  | 'sum'
  | 'min'
  | 'max'
  | 'value_count'
  | 'stats'
  | 'extended_stats'
  | 'cardinality'
  | 'geo_bounds'
  | 'geo_centroid'
  | 'percentiles'
  | 'percentile_ranks'
  | 'boxplot'
  | 'median_absolute_deviation'
  | 'weighted_avg'
  | 'string_stats'
  | 'top_hits'
  | 'top_metrics';

export type BucketType =
  | 'terms'
  | 'multi_terms'
  | 'rare_terms'
  | 'histogram'
  | 'date_histogram'
  | 'range'
  | 'date_range'
  | 'filter'
  | 'filters'
  | 'missing'
  | 'global'
  | 'composite'
  | 'geo_distance'
  | 'geohash_grid'
  | 'geotile_grid'
  | MoreBucketType;

export type AggType = MetricType | BucketType | PipelineType;

/** `value_type`: the type an unmapped field (or a `missing` value) is taken as. */
export type ValueTypeHint = 'string' | 'long' | 'double' | 'number' | 'date' | 'boolean' | 'ip';

/** Where an aggregation reads its values (ValuesSourceAggregationBuilder's common fields). */
export interface ValuesSourceSpec {
  /** Empty when a script alone gives the values. */
  readonly field: string;
  /** A script giving the values (with `field`: a value script run on each of its values as `_value`). */
  readonly script?: ScriptSpec;
  /** The value a doc without one counts with, as the request gave it. */
  readonly missing?: JsonScalar;
  /** A date format for date fields (the field's own format otherwise). */
  readonly format?: string;
  readonly valueType?: ValueTypeHint;
  /** A java.time zone id or offset (`Europe/Paris`, `+01:00`), for date keys and date math. */
  readonly timeZone?: string;
}

/**
 * A bucket order (BucketOrder): by doc count, by key, or by a sub-aggregation path such as
 * `price`, `stats.avg` or `filtered>price`. A list orders by the first, ties by the next.
 */
export type BucketOrder =
  | { readonly kind: 'count'; readonly asc: boolean }
  | { readonly kind: 'key'; readonly asc: boolean }
  | { readonly kind: 'path'; readonly path: string; readonly asc: boolean };

export interface AggBase {
  readonly name: string;
  /** `meta`, echoed in the response. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

interface BucketBase extends AggBase {
  readonly aggs: readonly AggSpec[];
}

export interface SimpleMetricSpec extends AggBase {
  readonly type: 'avg' | 'sum' | 'min' | 'max' | 'value_count' | 'stats';
  readonly source: ValuesSourceSpec;
}

export interface ExtendedStatsSpec extends AggBase {
  readonly type: 'extended_stats';
  readonly source: ValuesSourceSpec;
  readonly sigma: number;
}

export interface CardinalitySpec extends AggBase {
  readonly type: 'cardinality';
  readonly source: ValuesSourceSpec;
  /** Values counted exactly up to this many, estimated above (default 3000, at most 40000). */
  readonly precisionThreshold: number;
}

export interface GeoBoundsSpec extends AggBase {
  readonly type: 'geo_bounds';
  readonly source: ValuesSourceSpec;
  readonly wrapLongitude: boolean;
}

export interface GeoCentroidSpec extends AggBase {
  readonly type: 'geo_centroid';
  readonly source: ValuesSourceSpec;
}

export type MetricSpec =
  | MoreMetricSpec
  | SimpleMetricSpec
  | ExtendedStatsSpec
  | CardinalitySpec
  | GeoBoundsSpec
  | GeoCentroidSpec;

export interface TermsSpec extends BucketBase {
  readonly type: 'terms';
  readonly source: ValuesSourceSpec;
  readonly size: number;
  /** Buckets each shard returns: the request's `shard_size`, or `size * 1.5 + 10`; never below `size`. */
  readonly shardSize: number;
  readonly minDocCount: number;
  readonly shardMinDocCount: number;
  readonly order: readonly BucketOrder[];
  /** Exact values to keep (`include` as an array). */
  readonly include?: readonly JsonScalar[];
  /** Exact values to drop (`exclude` as an array). */
  readonly exclude?: readonly JsonScalar[];
  /**
   * `include` / `exclude` given as a regular expression: refused on the shard, where the field's
   * type is known (400 on a non-string field, as Elasticsearch answers; 501 on a string field).
   */
  readonly regex?: { readonly include?: string; readonly exclude?: string };
  readonly showTermDocCountError: boolean;
}

export interface HistogramSpec extends BucketBase {
  readonly type: 'histogram';
  readonly source: ValuesSourceSpec;
  readonly interval: number;
  readonly offset: number;
  readonly minDocCount: number;
  readonly extendedBounds?: { readonly min?: number; readonly max?: number };
  readonly order: readonly BucketOrder[];
  readonly keyed: boolean;
}

export type CalendarUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year' | 'second';

/** A date_histogram interval: calendar-aware (`1M`, `week`) or a fixed duration in millis. */
export type DateInterval =
  | { readonly kind: 'calendar'; readonly unit: CalendarUnit }
  | { readonly kind: 'fixed'; readonly millis: number };

/** How date keys round: what reduce needs to step from one date_histogram key to the next. */
export interface DateRounding {
  readonly interval: DateInterval;
  readonly timeZone?: string;
  /** Shifts every bucket start (`offset: "+6h"`). */
  readonly offsetMillis: number;
}

export interface DateHistogramSpec extends BucketBase {
  readonly type: 'date_histogram';
  readonly source: ValuesSourceSpec;
  readonly rounding: DateRounding;
  readonly minDocCount: number;
  /** Bounds as given: epoch millis or date (math) text, resolved on the shard. */
  readonly extendedBounds?: { readonly min?: number | string; readonly max?: number | string };
  readonly order: readonly BucketOrder[];
  readonly keyed: boolean;
}

export interface RangeEntry {
  readonly key?: string;
  /** Inclusive lower bound: a number, or text (a number, or a date for date fields). */
  readonly from?: number | string;
  /** Exclusive upper bound. */
  readonly to?: number | string;
}

export interface RangeSpec extends BucketBase {
  readonly type: 'range' | 'date_range';
  readonly source: ValuesSourceSpec;
  /** In request order; shards and the response order them by (from, to). */
  readonly ranges: readonly RangeEntry[];
  readonly keyed: boolean;
}

/** geo_distance: a range aggregation over the distances of a geo_point field's points from an origin. */
export interface GeoDistanceSpec extends BucketBase {
  readonly type: 'geo_distance';
  readonly source: ValuesSourceSpec;
  readonly origin: { readonly lat: number; readonly lon: number };
  /** Resolved as GeoDistanceAggregationBuilder.Range: `from` 0 when open, every key set. */
  readonly ranges: readonly { readonly key: string; readonly from: number; readonly to: number }[];
  /** The size of `unit` in meters (1 for the default, meters). */
  readonly unitMeters: number;
  readonly distanceType: 'arc' | 'plane';
  readonly keyed: boolean;
}

/**
 * geohash_grid and geotile_grid (GeoGridAggregationBuilder): the cells of a geo_point field's
 * points at `precision` (a geohash length, or a tile zoom), the `size` fullest cells.
 */
export interface GeoGridSpec extends BucketBase {
  readonly type: 'geohash_grid' | 'geotile_grid';
  readonly source: ValuesSourceSpec;
  readonly precision: number;
  readonly size: number;
  /** Cells each shard returns: `shard_size`, or `size * 1.5 + 10`; never below `size`. */
  readonly shardSize: number;
  /** Only cells sharing an interior point with this box count (GeoBoundingBox; absent: unbounded). */
  readonly bounds?: {
    readonly top: number;
    readonly left: number;
    readonly bottom: number;
    readonly right: number;
  };
}

export interface FilterSpec extends BucketBase {
  readonly type: 'filter';
  readonly query: QueryNode;
}

export interface FiltersSpec extends BucketBase {
  readonly type: 'filters';
  /** Named filters keep their (sorted) names; anonymous ones have keys `0`, `1`, … and render as a list. */
  readonly filters: readonly { readonly key: string; readonly query: QueryNode }[];
  /** Whether the filters were given by name (an object) rather than as an array. */
  readonly named: boolean;
  /** Buckets as an object by name: named filters unless the request says `keyed: false`. */
  readonly keyed: boolean;
  readonly otherBucket: boolean;
  readonly otherBucketKey: string;
}

export interface MissingSpec extends BucketBase {
  readonly type: 'missing';
  readonly source: ValuesSourceSpec;
}

export interface GlobalSpec extends BucketBase {
  readonly type: 'global';
}

/** multi_terms: terms over the combinations of several fields' values. */
export interface MultiTermsSpec extends BucketBase {
  readonly type: 'multi_terms';
  /** Two or more sources; a key holds one value of each. */
  readonly terms: readonly ValuesSourceSpec[];
  readonly size: number;
  readonly shardSize: number;
  readonly minDocCount: number;
  readonly shardMinDocCount: number;
  readonly order: readonly BucketOrder[];
  readonly showTermDocCountError: boolean;
}

/** rare_terms: the terms no more than `maxDocCount` docs hold, counted exactly. */
export interface RareTermsSpec extends BucketBase {
  readonly type: 'rare_terms';
  readonly source: ValuesSourceSpec;
  /** 1 to 100. */
  readonly maxDocCount: number;
  readonly include?: readonly JsonScalar[];
  readonly exclude?: readonly JsonScalar[];
  readonly regex?: { readonly include?: string; readonly exclude?: string };
}

export interface CompositeSourceSpec {
  readonly name: string;
  readonly kind: 'terms' | 'histogram' | 'date_histogram' | 'geotile_grid';
  readonly source: ValuesSourceSpec;
  readonly asc: boolean;
  readonly missingBucket: boolean;
  /** geotile_grid sources: the zoom, and the box whose tiles count. */
  readonly precision?: number;
  readonly bounds?: {
    readonly top: number;
    readonly left: number;
    readonly bottom: number;
    readonly right: number;
  };
  /** histogram sources. */
  readonly interval?: number;
  /** date_histogram sources. */
  readonly rounding?: DateRounding;
}

export interface CompositeSpec extends BucketBase {
  readonly type: 'composite';
  readonly size: number;
  readonly sources: readonly CompositeSourceSpec[];
  /** One value per source, by source name (`after_key` of the previous page). */
  readonly after?: Readonly<Record<string, JsonScalar>>;
}

export type BucketSpec =
  | TermsSpec
  | MultiTermsSpec
  | RareTermsSpec
  | HistogramSpec
  | DateHistogramSpec
  | RangeSpec
  | FilterSpec
  | FiltersSpec
  | MissingSpec
  | GlobalSpec
  | CompositeSpec
  | GeoDistanceSpec
  | GeoGridSpec
  | MoreBucketSpec;

export type AggSpec = MetricSpec | BucketSpec | PipelineSpec;

/** A search's aggregations: the top-level specs in request order. */
export type AggregationsSpec = readonly AggSpec[];

export function isBucketSpec(spec: AggSpec): spec is BucketSpec {
  return 'aggs' in spec;
}

export function isPipelineSpec(spec: AggSpec): spec is PipelineSpec {
  return 'bucketsPath' in spec;
}
