export { isShoalError, ShoalError, type WireError } from './errors/shoal-error.ts';
export type { FieldBoost, JsonScalar, QueryNode, QueryType } from './query/ast.ts';
export {
  DEFAULT_TRACK_TOTAL_HITS_UP_TO,
  type SearchRequest,
  type SourceFilter,
  TRACK_TOTAL_HITS_ACCURATE,
  TRACK_TOTAL_HITS_DISABLED,
} from './search/search-request.ts';
export type { NumericType, SortMode, SortOrder, SortSpec, SortValue } from './search/sort-spec.ts';
export * from './errors/catalogue.ts';
