/** Which family an aggregation spec belongs to, for the modules that treat families apart. */
import type { PipelinePartial } from './partial.ts';
import type { AggSpec, MoreMetricSpec } from './spec.ts';

const MORE_METRICS: ReadonlySet<string> = new Set([
  'percentiles',
  'percentile_ranks',
  'boxplot',
  'median_absolute_deviation',
  'weighted_avg',
  'string_stats',
  'top_hits',
  'top_metrics',
]);

export function isMoreMetric(spec: AggSpec): spec is MoreMetricSpec {
  return MORE_METRICS.has(spec.type);
}

export const PIPELINE_PARTIAL: PipelinePartial = Object.freeze({ t: 'pipeline' });
