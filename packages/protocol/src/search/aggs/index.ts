/** What other packages use of the aggregations: the spec parser, partial shapes, merge and render. */
export { adjacencyCells, adjacencyRowStart } from './adjacency-matrix.ts';
export { appropriateRounding, roundingLadder, stepRounding } from './auto-date-histogram.ts';
export { isCountDesc, isKeyOrder } from './bucket-order.ts';
export {
  addHash,
  addValue,
  cardinalityOf,
  type DistinctValue,
  estimate,
  hashValue,
  newRegisters,
  precisionFromThreshold,
} from './cardinality-sketch.ts';
export { compareComposite } from './composite-order.ts';
export { compareGridBuckets } from './geo-grid.ts';
export { emptyHdr, HdrBuilder, type HdrData } from './hdr-histogram.ts';
export { emptyPartial, mergeAggregations, mergePartials } from './merge.ts';
export { multiTermsComparator } from './multi-terms.ts';
export { checkOrderPaths, pathValue } from './order-path.ts';
export type { PipelineScripts } from './parent-pipelines.ts';
export { ELASTICSEARCH_AGGREGATION_TYPES, type ParsedAggregations, parseAggregations } from './parse-aggs.ts';
export type * from './partial.ts';
export { RAW_FORMAT } from './partial.ts';
export { reducePhaseFailure } from './reduce-failure.ts';
export { DEFAULT_MAX_BUCKETS, type RenderOptions, reduceAggregations, renderAggregations } from './render.ts';
export { bucketComparator } from './render-buckets.ts';
export { significanceScore, topSignificant } from './significant-terms.ts';
export type * from './spec.ts';
export { isBucketSpec, isPipelineSpec } from './spec.ts';
export { DigestBuilder, emptyDigest, type TDigestData } from './tdigest.ts';
export {
  hitComparator,
  type TopHit,
  type TopHitsPartial,
  type TopMetric,
  type TopMetricsPartial,
} from './top-hits.ts';
export { type AggDates, compareKeys, compareText, ipText } from './value-text.ts';
export { type Cluster, clusterBuckets, mergeClosest } from './variable-width-histogram.ts';
