/**
 * The specs of the metric aggregations beyond the basic ones: the percentile family (TDigest
 * or HDR), boxplot, median_absolute_deviation, weighted_avg, string_stats
 * and top_hits.
 */
import type { SourceFilter } from '../search-request.ts';
import type { SortSpec } from '../sort-spec.ts';
import type { AggBase, ValuesSourceSpec } from './spec.ts';

/** How percentiles are estimated: TDigest (default, compression 100) or an HDR histogram. */
export type PercentilesMethod =
  | { readonly kind: 'tdigest'; readonly compression: number }
  | { readonly kind: 'hdr'; readonly digits: number };

export interface PercentilesSpec extends AggBase {
  readonly type: 'percentiles' | 'percentile_ranks';
  readonly source: ValuesSourceSpec;
  /** `percents` (percentiles) or `values` (percentile_ranks), ascending as Elasticsearch sorts them. */
  readonly points: readonly number[];
  readonly keyed: boolean;
  readonly method: PercentilesMethod;
}

/** boxplot and median_absolute_deviation: TDigest-backed single metrics. */
export interface DigestMetricSpec extends AggBase {
  readonly type: 'boxplot' | 'median_absolute_deviation';
  readonly source: ValuesSourceSpec;
  readonly compression: number;
}

export interface WeightedAvgSpec extends AggBase {
  readonly type: 'weighted_avg';
  readonly value: ValuesSourceSpec;
  readonly weight: ValuesSourceSpec;
  readonly format?: string;
}

export interface StringStatsSpec extends AggBase {
  readonly type: 'string_stats';
  readonly source: ValuesSourceSpec;
  readonly showDistribution: boolean;
}

export interface MatrixStatsSpec extends AggBase {
  readonly type: 'matrix_stats';
  readonly fields: readonly string[];
  /** Per field, the value a doc without one takes. */
  readonly missing: Readonly<Record<string, number>>;
  /** How a multi-valued field gives its one value. */
  readonly mode: 'avg' | 'min' | 'max' | 'sum' | 'median';
}

export interface TopHitsSpec extends AggBase {
  readonly type: 'top_hits';
  readonly from: number;
  readonly size: number;
  /** The hits' order: `_score` descending when the request gives none. */
  readonly sort: readonly SortSpec[];
  readonly source: SourceFilter;
  readonly version: boolean;
  readonly seqNoPrimaryTerm: boolean;
  /** Scores computed and shown even when sorting on fields. */
  readonly trackScores: boolean;
}

export interface TopMetricsSpec extends AggBase {
  readonly type: 'top_metrics';
  /** The fields whose values are returned. */
  readonly metrics: readonly string[];
  /** One sort key. */
  readonly sort: readonly SortSpec[];
  readonly size: number;
}

export type MoreMetricSpec =
  | PercentilesSpec
  | DigestMetricSpec
  | WeightedAvgSpec
  | StringStatsSpec
  | TopHitsSpec
  | TopMetricsSpec;
