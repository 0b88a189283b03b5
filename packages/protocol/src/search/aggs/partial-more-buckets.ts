/**
 * Partials of the bucket aggregations of spec-more-buckets.ts (the samplers answer the plain
 * single-bucket partial). Plain data, as every partial; ips are 32-digit hex keys that order
 * like the addresses.
 */
import type { AggPartial, KeyBucket, TermsKind, ValueFormat } from './partial.ts';

export interface IpRangeBucket {
  /** The request's `key` (a mask's key defaults to the mask). */
  readonly key?: string;
  /** Hex bounds; absent when open (a mask from `::` or to the last address is open too). */
  readonly from?: string;
  readonly to?: string;
  readonly docCount: number;
  readonly aggs: readonly AggPartial[];
}

/** ip_range (InternalBinaryRange): ordered by (from, to), open bounds first and last. */
export interface IpRangePartial {
  readonly t: 'ip_range';
  readonly buckets: readonly IpRangeBucket[];
}

export interface IpPrefixBucket {
  /** The network's address as a hex key. */
  readonly key: string;
  readonly docCount: number;
  readonly aggs: readonly AggPartial[];
}

/** ip_prefix (InternalIpPrefix): ascending by key. */
export interface IpPrefixPartial {
  readonly t: 'ip_prefix';
  readonly buckets: readonly IpPrefixBucket[];
}

/**
 * adjacency_matrix: the cells holding docs, ascending by cell — each filter, then each pair
 * (adjacencyCellKey names them).
 */
export interface AdjacencyMatrixPartial {
  readonly t: 'adjacency_matrix';
  readonly buckets: readonly {
    readonly cell: number;
    readonly docCount: number;
    readonly aggs: readonly AggPartial[];
  }[];
}

/** auto_date_histogram (InternalAutoDateHistogram): keys at the rounding `roundingIdx` of the ladder. */
export interface AutoDateHistogramPartial {
  readonly t: 'auto_date_histogram';
  readonly fmt: ValueFormat;
  readonly unmapped?: boolean;
  readonly roundingIdx: number;
  /** Ascending by key. */
  readonly buckets: readonly KeyBucket[];
  /** Sub-aggregations of a bucket without docs, for the gaps the final reduce fills. */
  readonly empty?: readonly AggPartial[];
}

export interface VariableWidthBucket {
  readonly min: number;
  readonly max: number;
  readonly centroid: number;
  readonly docCount: number;
  readonly aggs: readonly AggPartial[];
}

/** variable_width_histogram (InternalVariableWidthHistogram): ascending by centroid. */
export interface VariableWidthPartial {
  readonly t: 'variable_width_histogram';
  readonly fmt: ValueFormat;
  readonly unmapped?: boolean;
  readonly buckets: readonly VariableWidthBucket[];
}

export interface SignificantTermsBucket {
  /** As terms keys: the term, an ip's hex key, a number or bigint. */
  readonly key: string | number | bigint;
  /** Docs of the subset (the owning bucket) holding the term. */
  readonly docCount: number;
  /** Docs of the background holding the term. */
  readonly bgCount: number;
  readonly aggs: readonly AggPartial[];
}

/** significant_terms (InternalSignificantTerms): counts summed across shards, scored at the end. */
export interface SignificantTermsPartial {
  readonly t: 'significant_terms';
  readonly kind: TermsKind;
  readonly fmt: ValueFormat;
  readonly unmapped?: boolean;
  /** Docs in the subset and in the background. */
  readonly subsetSize: number;
  readonly supersetSize: number;
  readonly buckets: readonly SignificantTermsBucket[];
}

export type MoreBucketPartial =
  | IpRangePartial
  | IpPrefixPartial
  | AdjacencyMatrixPartial
  | AutoDateHistogramPartial
  | VariableWidthPartial
  | SignificantTermsPartial;
