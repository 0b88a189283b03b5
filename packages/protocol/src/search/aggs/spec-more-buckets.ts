/**
 * Specs of the bucket aggregations beyond the common ones: ip_range, ip_prefix, the samplers,
 * adjacency_matrix, auto_date_histogram, variable_width_histogram and significant_terms.
 */
import type { JsonScalar, QueryNode } from '../../query/ast.ts';
import type { AggSpec, ValuesSourceSpec } from './spec.ts';

interface BucketBase {
  readonly name: string;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly aggs: readonly AggSpec[];
}

/** One ip_range range as the request gave it; a `mask` is resolved on the shard. */
export interface IpRangeEntry {
  readonly key?: string;
  readonly from?: string;
  readonly to?: string;
  readonly mask?: string;
}

export interface IpRangeSpec extends BucketBase {
  readonly type: 'ip_range';
  readonly source: ValuesSourceSpec;
  readonly ranges: readonly IpRangeEntry[];
  readonly keyed: boolean;
}

/** ip_prefix: a bucket per network of `prefixLength` bits (of the IPv4 or the IPv6 address). */
export interface IpPrefixSpec extends BucketBase {
  readonly type: 'ip_prefix';
  readonly source: ValuesSourceSpec;
  readonly prefixLength: number;
  readonly isIpv6: boolean;
  readonly appendPrefixLength: boolean;
  readonly minDocCount: number;
  readonly keyed: boolean;
}

/** sampler: the sub-aggregations see only each shard's `shardSize` best-scoring docs. */
export interface SamplerSpec extends BucketBase {
  readonly type: 'sampler';
  readonly shardSize: number;
}

/** diversified_sampler: as sampler, with at most `maxDocsPerValue` docs per value of the source. */
export interface DiversifiedSamplerSpec extends BucketBase {
  readonly type: 'diversified_sampler';
  readonly source: ValuesSourceSpec;
  readonly shardSize: number;
  readonly maxDocsPerValue: number;
}

/** adjacency_matrix: a bucket per filter and per pair of filters, keys sorted. */
export interface AdjacencyMatrixSpec extends BucketBase {
  readonly type: 'adjacency_matrix';
  /** Sorted by key. */
  readonly filters: readonly { readonly key: string; readonly query: QueryNode }[];
  readonly separator: string;
}

export interface AutoDateHistogramSpec extends BucketBase {
  readonly type: 'auto_date_histogram';
  readonly source: ValuesSourceSpec;
  /** The target number of buckets. */
  readonly buckets: number;
  /** The finest rounding the ladder starts from (`minimum_interval`). */
  readonly minimumInterval?: 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year';
}

export interface VariableWidthHistogramSpec extends BucketBase {
  readonly type: 'variable_width_histogram';
  readonly source: ValuesSourceSpec;
  readonly buckets: number;
  readonly shardSize: number;
  readonly initialBuffer: number;
}

/** How significant_terms scores a term (SignificanceHeuristic). */
export type SignificanceHeuristic =
  | { readonly kind: 'jlh' }
  | {
      readonly kind: 'mutual_information' | 'chi_square';
      readonly includeNegatives: boolean;
      readonly backgroundIsSuperset: boolean;
    }
  | { readonly kind: 'gnd'; readonly backgroundIsSuperset: boolean }
  | { readonly kind: 'percentage' };

export interface SignificantTermsSpec extends BucketBase {
  readonly type: 'significant_terms';
  readonly source: ValuesSourceSpec;
  readonly size: number;
  /** Terms each shard returns: `shard_size`, or twice terms' default (`2 * (size * 1.5 + 10)`). */
  readonly shardSize: number;
  readonly minDocCount: number;
  readonly shardMinDocCount: number;
  readonly heuristic: SignificanceHeuristic;
  readonly backgroundFilter?: QueryNode;
  readonly include?: readonly JsonScalar[];
  readonly exclude?: readonly JsonScalar[];
  readonly regex?: { readonly include?: string; readonly exclude?: string };
}

/** significant_text: significant_terms over the analysed `_source` text of a field. */
export interface SignificantTextSpec extends BucketBase {
  readonly type: 'significant_text';
  readonly field: string;
  /** Where the text is read from in `_source` (default: the field itself). */
  readonly sourceFields?: readonly string[];
  readonly size: number;
  readonly shardSize: number;
  readonly minDocCount: number;
  readonly shardMinDocCount: number;
  readonly heuristic: SignificanceHeuristic;
  readonly backgroundFilter?: QueryNode;
  readonly include?: readonly JsonScalar[];
  readonly exclude?: readonly JsonScalar[];
  readonly regex?: { readonly include?: string; readonly exclude?: string };
}

export type MoreBucketSpec =
  | IpRangeSpec
  | IpPrefixSpec
  | SamplerSpec
  | DiversifiedSamplerSpec
  | AdjacencyMatrixSpec
  | AutoDateHistogramSpec
  | VariableWidthHistogramSpec
  | SignificantTermsSpec
  | SignificantTextSpec;

export type MoreBucketType = MoreBucketSpec['type'];
