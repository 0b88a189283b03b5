export { type AliasActionKind, type AliasActionSpec, parseAliasActions } from './documents/alias-actions.ts';
export {
  type BulkByScrollKind,
  type BulkByScrollRequest,
  parseByQueryRequest,
  parseReindexRequest,
  parseRequestsPerSecond,
  parseSlices,
  type ReindexDest,
} from './documents/bulk-by-scroll-request.ts';
export {
  checkIfPrimaryTerm,
  checkIfSeqNo,
  type DocWriteCheck,
  docWriteValidation,
  INTERNAL_VERSIONING_MESSAGE,
  parseActiveShardCount,
  type VersionType,
} from './documents/doc-write.ts';
export { type MgetItem, parseMgetBody } from './documents/mget-body.ts';
export { parseUpdateBody, type UpdateBody } from './documents/update-body.ts';
export * from './errors/catalogue.ts';
export * from './errors/catalogue-script.ts';
export { type ErrorResponse, errorBody, errorFragment, toShoalError } from './errors/error-body.ts';
export { isElasticsearchType } from './errors/exception-kind.ts';
export { groupShardFailures, guessRootCauses, type RootCause } from './errors/root-cause.ts';
export type { ShardFailure, ShoalErrorExtra, WireShardFailure } from './errors/shoal-error.ts';
export { isShoalError, ShoalError, type WireError } from './errors/shoal-error.ts';
export {
  parseRolloverRequest,
  type RolloverCondition,
  type RolloverConditionKind,
  type RolloverRequest,
} from './indices/rollover-request.ts';
export { blockBytes } from './json/byte-blocks.ts';
export {
  isFloatingKey,
  jsonScalar,
  jsonString,
  scoreJson,
  sortValueJson,
  sortValuesJson,
} from './json/json-scalars.ts';
export { parseJson } from './json/parse.ts';
export { RawJson, type RawJsonWriter } from './json/raw-json.ts';
export { stringifyJson, stringifyJsonBytes } from './json/stringify.ts';
export { combineAliasFilters, withAliasFilter } from './query/alias-filter.ts';
export type {
  FieldBoost,
  JsonScalar,
  KnnQuery,
  PerFieldTemplate,
  QueryNode,
  QueryType,
} from './query/ast.ts';
export { registerDateFormatCheck } from './query/date-format-check.ts';
export type { DistanceFeatureQuery } from './query/distance-feature.ts';
export { geohashCell, geohashPoint, parseDistanceMeters, parseGeoPointValue } from './query/geo-point.ts';
export type { IntervalFilter, IntervalFilterKind, IntervalRule, IntervalsQuery } from './query/intervals.ts';
export type { MltItem, MoreLikeThisQuery } from './query/more-like-this.ts';
export { type NamedQuery, namedQueries, queryNameOf } from './query/named-queries.ts';
export { tokenOf } from './query/parse-context.ts';
export { parseQuery, parseQueryIn } from './query/parse-query.ts';
export { parseQueryString, type QueryStringOptions } from './query/parse-query-string.ts';
export type { PinnedDoc, PinnedQuery } from './query/pinned.ts';
export type { RankFeatureFunction, RankFeatureQuery } from './query/rank-feature.ts';
export { longHash } from './query/score-functions.ts';
export {
  extractRawValues,
  type TermsLookup,
  type TermsLookupQuery,
  termsFromLookup,
} from './query/terms-lookup.ts';
export { deprecationWarning, escapeWarning, warningHeaders } from './rest/deprecation.ts';
export { filterPath } from './rest/filter-path.ts';
export {
  formatParam,
  type MediaTypeChoice,
  negotiateMediaType,
  negotiateRequest,
  type XContentFormat,
} from './rest/media-type.ts';
export { SHOAL_BUILD_HASH, SHOAL_VERSION } from './rest/version.ts';
export { murmur3x86_32 } from './routing/murmur3.ts';
export {
  defaultRoutingNumShards,
  documentShard,
  type IndexRoutingTable,
  routingHash,
  routingSearchShards,
  shardForRouting,
} from './routing/shard-routing.ts';
export {
  checkScriptLang,
  INLINE_DEPRECATION,
  parseScriptSpec,
  parseScriptWith,
  type ScriptSpec,
} from './script/script-spec.ts';
export * from './search/aggs/index.ts';
export type { FieldAndFormat, StoredFieldsSpec } from './search/fetch-fields.ts';
export {
  type FieldPredicate,
  type FieldRule,
  type FieldVisibility,
  fieldPredicate,
  visibleSource,
} from './search/field-visibility.ts';
export {
  type HighlightFieldSpec,
  type HighlightOptions,
  type HighlightSpec,
  type ResolvedHighlightOptions,
  resolveHighlightField,
} from './search/highlight.ts';
export { type MultiSearchItem, parseMultiSearchBody } from './search/msearch-body.ts';
export {
  type CountRequest,
  parseCountRequest,
  parseSearchRequest,
  type SearchRequestOptions,
} from './search/parse-search-request.ts';
export { normalizeSort, parseSort, parseSortParam } from './search/parse-sort.ts';
export type { RescoreScoreMode, RescoreSpec } from './search/rescore.ts';
export {
  flattenRuntimeFields,
  parseRuntimeField,
  parseRuntimeMappings,
  RUNTIME_TYPES,
  type RuntimeFieldSpec,
  type RuntimeMappings,
  type RuntimeType,
  renderRuntimeField,
} from './search/runtime-mappings.ts';
export type { ScriptField } from './search/script-fields.ts';
export { readQueryStringParams } from './search/search-params.ts';
export {
  DEFAULT_TRACK_TOTAL_HITS_UP_TO,
  type SearchRequest,
  type SourceFilter,
  TRACK_TOTAL_HITS_ACCURATE,
  TRACK_TOTAL_HITS_DISABLED,
} from './search/search-request.ts';
export { parseSearchTemplateRequest, type SearchTemplateRequest } from './search/search-template-request.ts';
export type { NumericType, SortMode, SortOrder, SortSpec, SortValue } from './search/sort-spec.ts';
export { applySourceFilter } from './search/source-filter.ts';
export { paramAsBoolean } from './search/url-params.ts';
export {
  type AutoCreateExpression,
  autoCreateDecision,
  CLUSTER_SETTINGS,
  parseAutoCreateIndex,
  parseCompilationRate,
  simpleMatch,
} from './settings/cluster-settings.ts';
export { deprecatedKeysIn, settingDeprecationWarnings } from './settings/deprecated-in-use.ts';
export { getBool, getBytes, getInt, getList, getLong, getString, getTimeMs } from './settings/getters.ts';
export {
  BLOCK_NAMES,
  INDEX_SETTING_GROUPS,
  INDEX_SETTINGS,
  parseAutoExpandReplicas,
} from './settings/index-settings.ts';
export { checkIndexSort, indexSortFields, type SortableField } from './settings/index-sort.ts';
export { javaHashMapOrder, javaStringHash } from './settings/java-hash-order.ts';
export { type FlatSettings, normalizeSettings, type SettingsUpdate } from './settings/normalize.ts';
export { findGroup, findSetting, settingsOfScope } from './settings/registry.ts';
export { type RenderedSettings, renderSettings, renderSettingsWithDefaults } from './settings/render.ts';
export {
  HTTP_SSL_ENABLED,
  isSecureRealmSetting,
  REALMS_PREFIX,
  TOKEN_SERVICE_ENABLED,
} from './settings/security-settings.ts';
export {
  defaultValue,
  deprecationMessage,
  type Setting,
  type SettingGroup,
  type SettingScope,
  type SettingType,
  type SettingValue,
} from './settings/setting.ts';
export { clusterUpdateCheck, newIndexChecks, updatableCheck, validateSettings } from './settings/validate.ts';
export {
  type ComponentTemplate,
  type ComposableTemplate,
  type LegacyTemplate,
  parseComponentTemplate,
  parseComposableTemplate,
  parseLegacyTemplate,
  type TemplateParts,
} from './templates/template-bodies.ts';
export {
  type ByteUnit,
  formatByteSize,
  formatByteSizeIn,
  isByteUnit,
  parseByteSize,
} from './values/byte-size.ts';
export { compareTerms } from './values/code-point-order.ts';
export { invalidIndexNameReason, validateIndexName } from './values/index-name.ts';
export { formatIp } from './values/ip-text.ts';
export { javaDouble, javaFloat, shortestFloatDecimal } from './values/java-double.ts';
export {
  isBooleanText,
  javaInt,
  javaLong,
  parseBooleanParam,
  parseBooleanStrict,
  parseIntParam,
  parseLongParam,
} from './values/params.ts';
export { didYouMean, levenshteinSimilarity, similarKeys } from './values/similarity.ts';
export { formatTimeValue, formatTimeValueNanos, parseTimeValue } from './values/time-value.ts';
