import type { KnnQuery, QueryNode } from '../query/ast.ts';
import type { ScriptSpec } from '../script/script-spec.ts';
import type { AggregationsSpec } from './aggs/spec.ts';
import type { FieldAndFormat, StoredFieldsSpec } from './fetch-fields.ts';
import type { HighlightSpec } from './highlight.ts';
import type { IndexBoost } from './indices-boost.ts';
import type { RescoreSpec } from './rescore.ts';
import type { RuntimeMappings } from './runtime-mappings.ts';
import type { ScriptField } from './script-fields.ts';
import type { SortSpec } from './sort-spec.ts';

export interface SourceFilter {
  /** `_source: false` disables it entirely. */
  enabled: boolean;
  includes: string[];
  excludes: string[];
}

/** `track_total_hits` resolved to Elasticsearch's integer form. */
export const TRACK_TOTAL_HITS_ACCURATE = 2147483647;
export const TRACK_TOTAL_HITS_DISABLED = -1;
export const DEFAULT_TRACK_TOTAL_HITS_UP_TO = 10000;

/** A `_search` request after the body and the URL parameters were parsed and validated. */
export interface SearchRequest {
  query: QueryNode;
  from: number;
  size: number;
  /** Undefined when no sort was given (score order); a lone `_score` desc is also normalised to undefined. */
  sort: SortSpec[] | undefined;
  trackTotalHits: number;
  trackScores: boolean;
  source: SourceFilter;
  searchAfter?: unknown[];
  version: boolean;
  seqNoPrimaryTerm: boolean;
  /** Milliseconds, or undefined for no timeout. */
  timeoutMs?: number;
  terminateAfter?: number;
  restTotalHitsAsInt: boolean;
  /** Deprecation warnings raised while parsing (e.g. `size=-1`), for `Warning` headers. */
  warnings?: string[];
  /** `post_filter`: filters the hits after aggregations were computed. */
  postFilter?: QueryNode;
  minScore?: number;
  explain?: boolean;
  profile?: boolean;
  /** `typed_keys=true`: aggregation names prefixed with their type. */
  typedKeys?: boolean;
  /** `include_named_queries_score=true`: `matched_queries` gives each name's score. */
  includeNamedQueriesScore?: boolean;
  /** `aggs` / `aggregations`, parsed (never an empty list: no aggregations is absent). */
  aggs?: AggregationsSpec;
  /** Body `pit`: the id as sent (opaque base64url) and the keep-alive extension, if any. */
  pit?: { id: string; keepAliveMs?: number };
  /** Body `slice`; `id`/`max` are -1 when not given. */
  slice?: { id: number; max: number; field?: string };
  /** The raw `collapse` object. */
  collapse?: Record<string, unknown>;
  /** The `rescore` entries, applied in order. */
  rescore?: RescoreSpec[];
  /** `indices_boost` entries in request order; the coordinator resolves their expressions. */
  indicesBoost?: IndexBoost[];
  /** `stats` groups. */
  stats?: string[];
  /** `scroll` keep-alive (milliseconds) when the request opens a scroll. */
  scrollKeepAliveMs?: number;
  /**
   * Top-level `knn` searches, with k and num_candidates resolved: the coordinator finds their
   * global nearest neighbours first, then runs the query with them (knn-phase.ts).
   */
  knn?: KnnQuery[];
  /** `request_cache` when given. */
  requestCache?: boolean;
  /** `runtime_mappings`: fields computed at search time, by name. */
  runtimeMappings?: RuntimeMappings;
  /** `fields`: values read from `_source` per mapped field, formatted by its type. */
  fetchFields?: FieldAndFormat[];
  /** `docvalue_fields` (body and URL). */
  docValueFields?: FieldAndFormat[];
  /** `stored_fields` (body or URL): `_none_` leaves `_id` and metadata out of the hits. */
  storedFields?: StoredFieldsSpec;
  /** The `highlight` object: shards highlight the fetched hits with it. */
  highlight?: HighlightSpec;
  /** `script_fields`: per hit, each script's values under `fields`. */
  scriptFields?: ScriptField[];
  /**
   * Every script the request names, in body order: the coordinator resolves stored scripts in
   * them and counts new sources against `script.max_compilations_rate`.
   */
  scripts?: ScriptSpec[];
  /**
   * Body keys Elasticsearch accepts that Shoal does not run (`suggest`, `ext`): the coordinator refuses each with a 501 naming it (unsupported.ts).
   */
  ignoredKeys?: string[];
  /** The number of `script_fields` asked for (SearchService checks `index.max_script_fields`). */
  scriptFieldsCount?: number;
}
