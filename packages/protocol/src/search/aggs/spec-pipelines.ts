/**
 * Pipeline aggregations: they read the reduced output of other aggregations through
 * `buckets_path` and are computed once the shards' results are merged — sibling pipelines
 * (`avg_bucket` …) over the buckets of a sibling multi-bucket aggregation, parent pipelines
 * (`derivative` …) over the buckets of the histogram or terms they sit in.
 */
import type { ScriptSpec } from '../../script/script-spec.ts';
import type { AggBase } from './spec.ts';

export type SiblingPipelineType =
  | 'avg_bucket'
  | 'max_bucket'
  | 'min_bucket'
  | 'sum_bucket'
  | 'stats_bucket'
  | 'extended_stats_bucket'
  | 'percentiles_bucket';

export type ParentPipelineType =
  | 'cumulative_sum'
  | 'derivative'
  | 'moving_fn'
  | 'serial_diff'
  | 'bucket_script'
  | 'bucket_selector'
  | 'bucket_sort'
  | 'cumulative_cardinality'
  | 'normalize';

export type PipelineType = SiblingPipelineType | ParentPipelineType;

/** What a bucket without a value counts as (BucketHelpers.GapPolicy). */
export type GapPolicy = 'skip' | 'insert_zeros' | 'keep_values';

export interface PipelineSpec extends AggBase {
  readonly type: PipelineType;
  /** One path, or named paths (bucket_script, bucket_selector): `{"a": "sales", "b": "_count"}`. */
  readonly bucketsPath: string | Readonly<Record<string, string>>;
  readonly gapPolicy: GapPolicy;
  /** A DecimalFormat pattern for `value_as_string`. */
  readonly format?: string;
  /** extended_stats_bucket. */
  readonly sigma?: number;
  /** percentiles_bucket: the percents, ascending. */
  readonly percents?: readonly number[];
  readonly keyed?: boolean;
  /** derivative: `unit` in millis (normalized_value). */
  readonly unitMillis?: number;
  /** moving_fn: window size and shift; serial_diff: lag. */
  readonly window?: number;
  readonly shift?: number;
  readonly lag?: number;
  /** moving_fn, bucket_script, bucket_selector. */
  readonly script?: ScriptSpec;
  /** bucket_sort. */
  readonly sort?: readonly { readonly path: string; readonly asc: boolean }[];
  readonly from?: number;
  readonly size?: number;
  /** normalize. */
  readonly method?: 'rescale_0_1' | 'rescale_0_100' | 'percent_of_sum' | 'mean' | 'z-score' | 'softmax';
}
