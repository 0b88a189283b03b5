export { aggDates } from './aggs/agg-dates.ts';
export { type AggDocs, aggregateShard, readerDocs } from './aggs/aggregate-shard.ts';
export type { AggShardContext } from './aggs/field-source.ts';
export * from './analysis/index.ts';
export type * from './contract.ts';
export * from './dates/index.ts';
export {
  DEFAULT_MAX_ANALYZED_OFFSET,
  type DocHighlighter,
  docHighlighter,
  type HighlightFetch,
} from './highlight/hit-highlighter.ts';
export { refuseUnhighlightable } from './highlight/query-terms.ts';
export type { EngineStats } from './index/engine-stats.ts';
export { recoveryOps } from './index/recovery-ops.ts';
export { Segment } from './index/segment.ts';
export { ShardEngine, type ShardEngineOptions } from './index/shard-engine.ts';
export { type ReaderSegment, type ShardReader, segmentOf } from './index/shard-reader.ts';
export { openShardEngine, type RecoveryInfo } from './index/shard-recovery.ts';
export * from './mapping/index.ts';
export { pipelineScripts } from './script/pipeline-scripts.ts';
export { type CompiledScript, compileScript } from './script/script.ts';
export { runWriteScript, sourceBytes, type WriteScript } from './script/write-script.ts';
export { type DescribeContext, describeQuery } from './search/describe-query.ts';
export { type ExplainResult, type Explanation, explainQuery } from './search/explain.ts';
export { explainHits } from './search/explain-hits.ts';
export { executeFetch, type FetchedDocs, fetchDocs } from './search/fetch-phase.ts';
export { clearFilterCache } from './search/filter-cache.ts';
export { DEFAULT_MAX_REGEX_LENGTH, DEFAULT_MAX_TERMS_COUNT } from './search/query-limits.ts';
export { checkQuery, countQuery, executeQuery, type QueryContext, queryShard } from './search/query-phase.ts';
export { parseSearchAfter } from './search/search-after.ts';
export { sliceFilterBytes } from './search/slice.ts';
export {
  compareSortTuples,
  compareSortValues,
  floatValue,
  LONG_MAX,
  LONG_MIN,
} from './search/sort-values.ts';
export { storedFieldsOf, storedFieldValues } from './search/stored-fields.ts';
export { CorruptionError } from './store/checksum.ts';
export { sectionCache } from './store/section-cache.ts';
export type { TranslogStats } from './store/translog.ts';
export { decodeOps, encodeOps, type TranslogOp } from './store/translog-ops.ts';
