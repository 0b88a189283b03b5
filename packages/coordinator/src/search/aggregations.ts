/**
 * The `aggregations` of a search response: the partial aggregations of every shard that
 * answered, merged and rendered as Elasticsearch shapes them (the reduce phase). Shards that
 * failed are left out, as Elasticsearch leaves them out; with no shard at all there is
 * nothing to reduce and the response has no `aggregations`, as in Elasticsearch.
 */
import { aggDates, pipelineScripts, type ShardQueryResult } from '@shoal/engine';
import {
  type AggregationsSpec,
  getInt,
  isShoalError,
  mergeAggregations,
  reducePhaseFailure,
  renderAggregations,
  type ShardAggregations,
} from '@shoal/protocol';
import type { NodeServices } from '../services.ts';

export function reduceAggregations(
  s: NodeServices,
  spec: AggregationsSpec,
  results: readonly ShardQueryResult[],
  typedKeys = false,
): Record<string, unknown> | undefined {
  const partials: ShardAggregations[] = [];
  for (const r of results) if (r.aggregations !== undefined) partials.push(r.aggregations);
  if (partials.length === 0) return undefined;
  const maxBuckets = getInt(s.clusterSettings.effective(), 'search.max_buckets');
  try {
    const merged = mergeAggregations(spec, partials);
    return renderAggregations(spec, merged, {
      dates: aggDates,
      maxBuckets,
      typedKeys,
      javaDoubles: true,
      scripts: pipelineScripts,
    });
  } catch (e) {
    // Both fail inside Elasticsearch's fetch phase, where the final reduce runs: a field mapped
    // with incompatible types in two indices (AggregationErrors.reduceTypeMismatch), and more
    // buckets than search.max_buckets (MultiBucketConsumer, counted in the final reduce only).
    if (isShoalError(e) && REDUCE_FAILURES.has(e.type)) throw reducePhaseFailure(e);
    throw e;
  }
}

const REDUCE_FAILURES: ReadonlySet<string> = new Set([
  'illegal_argument_exception',
  'too_many_buckets_exception',
]);
