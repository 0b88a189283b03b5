/**
 * The engine's seams. `mapping/`, `analysis/` and `dates/` produce what is declared here;
 * `index/` (segments, the shard engine) and `search/` (query execution, sort, top-k) consume it;
 * the shard worker and the coordinator use the request/result types to talk to a shard.
 * Everything that crosses a thread here is structured-clonable and small.
 */
import type {
  AggregationsSpec,
  FieldAndFormat,
  FieldBoost,
  FieldVisibility,
  NamedQuery,
  QueryNode,
  RescoreSpec,
  RuntimeMappings,
  ScriptField,
  ShardAggregations,
  SortSpec,
  SortValue,
  SourceFilter,
  WireError,
} from '@shoal/protocol';
import type { HighlightFetch } from './highlight/hit-highlighter.ts';
import type { Explanation } from './search/explanation.ts';

// ---------------------------------------------------------------- mapping

export type FieldType =
  | 'text'
  | 'keyword'
  | 'long'
  | 'integer'
  | 'short'
  | 'byte'
  | 'double'
  | 'float'
  | 'half_float'
  | 'scaled_float'
  | 'boolean'
  | 'date'
  | 'date_nanos'
  | 'geo_point'
  | 'ip'
  | 'object'
  | 'nested';

/** A leaf field (or multi-field) after mapping resolution, addressed by its full dotted path. */
export interface ResolvedField {
  /** Full path: `user.name`, or `title.keyword` for a multi-field. */
  path: string;
  type: Exclude<FieldType, 'object' | 'nested'>;
  /** Whether the field is searchable (`index`). */
  index: boolean;
  /** Whether the field has doc values (sortable). `text` never does (no fielddata). */
  docValues: boolean;
  /** Index-time analyzer name (text only). */
  analyzer?: string;
  /** Search-time analyzer name (text only; defaults to `analyzer`). */
  searchAnalyzer?: string;
  /** Date format (date / date_nanos), e.g. `strict_date_optional_time||epoch_millis`. */
  format?: string;
  ignoreAbove?: number;
  /** scaled_float: values are kept as round(value × scalingFactor) / scalingFactor. */
  scalingFactor?: number;
  /** A runtime field: its values are computed at search time, not read from the index or `_source`. */
  runtime?: true;
  /**
   * The type the mapping declares when the index keeps the field as another (`type`):
   * `wildcard`, `binary`, `flattened`… as keyword terms, `match_only_text` as text.
   */
  mappedType?: string;
  /** A range type (`long_range`, `date_range`…): each value is one encoded range term. */
  rangeType?: string;
  /** dense_vector: each value is one encoded vector term (mapping/dense-vector.ts). */
  vector?: VectorFieldSpec;
  /** rank_feature / rank_features: whether the score grows with the value (default true). */
  positiveScoreImpact?: boolean;
}

/** A dense_vector field as the query side compares its vectors. */
export interface VectorFieldSpec {
  dims: number;
  elementType: 'float' | 'byte';
  similarity: 'l2_norm' | 'dot_product' | 'cosine' | 'max_inner_product';
}

/** One value of one field of one document, ready to be indexed. */
export interface IndexableField {
  path: string;
  type: ResolvedField['type'];
  /** text: analysed tokens with positions (position gaps between array values as ES: 100). */
  tokens?: { term: string; position: number }[];
  /** keyword / boolean (`T`/`F` as ES stores them: terms `true`/`false`) / ip: exact terms, indexed and in doc values. */
  terms?: string[];
  /**
   * Numbers and dates. long / date_nanos / date-as-long are bigint when they do not fit a
   * double exactly; integer/short/byte/double/float are numbers. Dates: epoch millis (date) or
   * epoch nanos as bigint (date_nanos).
   */
  numbers?: (number | bigint)[];
  geo?: { lat: number; lon: number }[];
}

export interface ParsedDocument {
  id: string;
  routing?: string;
  /** The raw `_source` bytes exactly as they were sent (what the translog keeps). */
  source: Uint8Array;
  /**
   * What the segment keeps as `_source` when the mapping's `_source` says otherwise than
   * "all of it": the filtered document (`includes`/`excludes`), or no bytes at all when
   * `_source.enabled` is false.
   */
  storedSource?: Uint8Array;
  fields: IndexableField[];
}

/**
 * The mapping of one index: immutable; `merge` returns a new one. Implemented in `mapping/`.
 * Errors are thrown as protocol errors (mapper_parsing_exception, illegal_argument_exception,
 * strict_dynamic_mapping_exception, document_parsing_exception) with Elasticsearch's reasons.
 */
export interface IndexMapping {
  /** The `mappings` JSON (`{"properties": …}` etc.): plain values, to store, compare and send. */
  toJSON(): Record<string, unknown>;
  /** The same as `GET /{index}/_mapping` prints it: Java doubles and floats keep their `.0`. */
  toDisplayJSON(): Record<string, unknown>;
  /** Merge a `PUT _mapping` body or a dynamic update; throws on conflicts. */
  merge(update: Record<string, unknown>): IndexMapping;
  /** A leaf or multi-field by full path; undefined when unmapped. */
  field(path: string): ResolvedField | undefined;
  /** Every leaf field (including multi-fields) whose path matches a simple `*` pattern. */
  fieldsMatching(pattern: string): ResolvedField[];
  /** Whether a path is an object or nested field (for `exists`). */
  isObject(path: string): boolean;
  /** Whether a path is a `nested` object. */
  isNested(path: string): boolean;
  /** `_routing.required`: every document must come with a routing value. */
  readonly routingRequired: boolean;
  /** The mapping's `runtime` fields (none when absent). */
  runtimeFields?(): RuntimeMappings;
  /** false when the mapping's `_source.enabled` is false (documents keep no `_source`). */
  readonly sourceEnabled?: boolean;
  /**
   * Parse one document against this mapping. `dynamicUpdate` is the mapping fragment
   * (`{"properties": …}`) that new fields need, when `dynamic: true` found some; the caller
   * must merge it into the index mapping before the document counts as indexed.
   */
  parseDocument(
    id: string,
    source: Uint8Array,
    routing?: string,
    dynamicTemplates?: Record<string, string>,
  ): {
    doc: ParsedDocument;
    dynamicUpdate?: Record<string, unknown>;
  };
}

// ---------------------------------------------------------------- analysis

export interface Token {
  term: string;
  position: number;
  startOffset: number;
  endOffset: number;
}

export interface Analyzer {
  name: string;
  analyze(text: string): Token[];
}

// ---------------------------------------------------------------- shard requests

/** Sort specs with `_score` desc when the request had no sort. */
export interface ShardQueryRequest {
  query: QueryNode;
  sort: SortSpec[];
  /** How many top entries to return: from + size (or size with search_after). */
  k: number;
  /** Resolved track_total_hits: -1 disabled, 2147483647 accurate, else count up to N. */
  trackTotalHitsUpTo: number;
  trackScores: boolean;
  /** Raw search_after values, one per sort key. */
  searchAfter?: SortValue[];
  /** This shard's position in the request's shard list (for `_shard_doc`). */
  shardIndex: number;
  /** The part of this shard a sliced scroll or PIT search reads. */
  slice?: ShardSlice;
  /** Resume strictly after this entry: a scroll's position (set by the shard, never by a client). */
  resumeAfter?: ScrollPosition;
  /**
   * Aggregations over every live doc the query matches (within the slice), whatever `k`,
   * `trackTotalHitsUpTo` and search_after are; the result carries the shard's partials.
   */
  aggs?: AggregationsSpec;
  /** `post_filter`: narrows the hits, not what the aggregations see. */
  postFilter?: QueryNode;
  /** `min_score`: docs scoring below it are neither hits, counted, nor aggregated. */
  minScore?: number;
  /** The index's query limits where they are not the defaults. */
  limits?: QueryLimits;
  /**
   * Query rescorers applied in order to the shard's top hits (sorted by score); `k` then
   * covers every window.
   */
  rescore?: RescoreSpec[];
  /**
   * `terminate_after`: stop collecting after this many docs that pass the post_filter and
   * min_score (terminate-after.ts); absent: no limit.
   */
  terminateAfter?: number;
  /** Field collapsing: one hit per value of `field`, the top `k` groups. */
  collapse?: { field: string };
  /** `runtime_mappings` of the search (over the mapping's own `runtime` fields). */
  runtimeMappings?: RuntimeMappings;
  /** The only documents the search may see; the others read as deleted (restricted-reader.ts). */
  documentFilter?: QueryNode;
  /** The fields the search may see; the others read as absent (field-subset-reader.ts). */
  fieldVisibility?: FieldVisibility;
}

/**
 * Index settings that bound what a query may build (IndexSettings): `index.max_terms_count`
 * (65536) and `index.max_regex_length` (1000). Present only where an index changed them.
 */
export interface QueryLimits {
  maxTermsCount?: number;
  maxRegexLength?: number;
  /** `index.query.default_field`, where it is not `*`: what a query naming no field searches. */
  defaultFields?: FieldBoost[];
}

/**
 * A slice as one shard sees it (SliceBuilder.toFilter, paging.md §5.2), already reduced by the
 * coordinator to the partition inside this shard: slice `id` of `max`, where `max` 1 is the
 * whole shard and 0 none of it.
 */
export interface ShardSlice {
  id: number;
  max: number;
  /** A numeric doc-values field to hash, or `_id`; absent: `_id` (scroll), doc-id ranges (PIT). */
  field?: string;
  context: 'scroll' | 'pit';
}

/** A shard hit in comparable form: its sort values as the shard compares them, and its reader doc. */
export interface ScrollPosition {
  values: SortValue[];
  doc: number;
}

/** One candidate hit of a shard: what the merge needs, nothing more. */
export interface ShardHitRef {
  /** Doc id within the reader the query ran on (reader-global: segment base + local doc). */
  doc: number;
  /** NaN when not scored. */
  score: number;
  /** Comparable sort values, one per sort key (missing values already substituted as ES does). */
  sort: SortValue[];
  /** Display sort values when they differ from `sort` (a `format` was given). */
  display?: SortValue[];
}

export interface ShardQueryResult {
  totalHits: number;
  totalRelation: 'eq' | 'gte';
  /** NaN when nothing was scored. */
  maxScore: number;
  hits: ShardHitRef[];
  /** The partial aggregations, aligned with the request's `aggs` (when it had some). */
  aggregations?: ShardAggregations;
  /**
   * Bit i set: sort key i is a score or a floating-point field (float, double, numeric_type
   * double), whose values Elasticsearch writes as Java floats and doubles (`2.0`). Absent: none.
   */
  floatingKeys?: number;
  /** Present when the request had `terminate_after`: whether collection stopped early. */
  terminatedEarly?: boolean;
  /** With `collapse`: each hit's collapse value (null: the doc has none), aligned with `hits`. */
  collapseValues?: SortValue[];
}

export interface ShardFetchRequest {
  docs: number[];
  source: SourceFilter;
  version: boolean;
  seqNoPrimaryTerm: boolean;
  /** Highlight the hits (search `highlight`). */
  highlight?: HighlightFetch;
  /** `fields`, `docvalue_fields`, `stored_fields`: absent when the search uses none of them. */
  fields?: FetchFieldsSpec;
  /** The search's named queries (`_name`), for each hit's `matched_queries`. */
  namedQueries?: NamedQuery[];
  /** `include_named_queries_score`: `matched_queries` maps each name to its score. */
  namedQueriesScore?: boolean;
  /** The fields the hits may show; the others are left out (field-subset-reader.ts). */
  fieldVisibility?: FieldVisibility;
  /** Search `explain`: each hit's explanation against the query its shard ran (explain-hits.ts). */
  explain?: HitExplainSpec;
}

/** The query a shard's hits matched, as its query phase ran it, to explain each hit with. */
export interface HitExplainSpec {
  query: QueryNode;
  limits?: QueryLimits;
  /** The only documents the query could match. */
  documentFilter?: QueryNode;
}

export interface FetchFieldsSpec {
  fields?: FieldAndFormat[];
  docValueFields?: FieldAndFormat[];
  /** `script_fields`, their stored scripts resolved. */
  scriptFields?: ScriptField[];
  /** `stored_fields: _none_`: hits carry no `_id` and no `_routing`. */
  storedNone?: true;
  /** `runtime_mappings` of the search, for `fields` and `docvalue_fields` that name them. */
  runtime?: RuntimeMappings;
  /** `stored_fields` names: fields mapped with `store: true` among them come back in `fields`. */
  storedFields?: string[];
}

/** Fetched hits in the requested order. `_source` bytes are packed into one buffer. */
export interface ShardFetchResult {
  ids: string[];
  routing: (string | null)[];
  versions: number[];
  seqNos: number[];
  primaryTerms: number[];
  /** All `_source` JSON texts concatenated; hit i is bytes [offsets[i], offsets[i+1]). Empty when `_source` is off. */
  sourceBytes: Uint8Array;
  sourceOffsets: Uint32Array;
  /** With a highlight request: each hit's `"highlight"` object as JSON text, or null. */
  highlight?: (string | null)[];
  /** With named queries: each hit's `matched_queries` JSON (array, or object with scores), or null. */
  matched?: (string | null)[];
  /** When a hit left values out (ignore_malformed, ignore_above): its `_ignored` field names. */
  ignored?: (string[] | null)[];
  /** Per hit, `,"fields":{…}` (and `,"ignored_field_values":{…}`) or ''; with FetchFieldsSpec only. */
  fieldsJson?: string[];
  /** With `explain`: each hit's explanation, whose top value is its score. */
  explanations?: Explanation[];
}

// ---------------------------------------------------------------- writes

export type VersionType = 'internal' | 'external' | 'external_gte';

interface WriteConditions {
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
  version?: number;
  versionType?: VersionType;
}

export type ShardWriteOp =
  | ({
      op: 'index';
      id: string;
      source: Uint8Array;
      routing?: string;
      create: boolean;
      /** The request's `dynamic_templates`: field path → the template its new field takes. */
      dynamicTemplates?: Record<string, string>;
    } & WriteConditions)
  | ({ op: 'delete'; id: string; routing?: string } & WriteConditions)
  | ({
      op: 'update';
      id: string;
      routing?: string;
      /** Partial document (JSON bytes) merged into the current `_source`. */
      doc?: Uint8Array;
      /** Document to index when none exists. */
      upsert?: Uint8Array;
      docAsUpsert: boolean;
      detectNoop: boolean;
      /** Return the updated `_source` (the `_source` parameter of `_update`). */
      returnSource: boolean;
      /** A script that rewrites the document (instead of `doc`). */
      script?: { source: string; params: Record<string, unknown> };
      /** Run the script on the upsert document too when none exists (`scripted_upsert`). */
      scriptedUpsert?: boolean;
    } & Pick<WriteConditions, 'ifSeqNo' | 'ifPrimaryTerm'>);

export interface ShardWriteResult {
  /** HTTP status of this item: 201 created, 200 updated/deleted/noop, 404 not_found, 409 conflict, 400… */
  status: number;
  id: string;
  result?: 'created' | 'updated' | 'deleted' | 'not_found' | 'noop';
  version?: number;
  seqNo?: number;
  primaryTerm?: number;
  error?: WireError;
  /** The resulting `_source`, for `_update` with `_source` requested. */
  source?: Uint8Array;
}

/**
 * A write batch either applies (results, one per op, in order) or, when some documents need
 * new dynamic mappings, applies nothing and asks for the mapping update first.
 */
export type ShardWriteOutcome =
  | {
      kind: 'applied';
      results: ShardWriteResult[];
      /** With `keepOps`: what the batch did, as its replicas apply it (translog operations). */
      ops?: import('./store/translog-ops.ts').TranslogOp[];
    }
  | { kind: 'needs_mapping'; update: Record<string, unknown> };

export interface GetResult {
  found: boolean;
  id: string;
  version?: number;
  seqNo?: number;
  primaryTerm?: number;
  routing?: string;
  source?: Uint8Array;
  /** The `_ignored` field names of the document (values left out at index time). */
  ignored?: string[];
}

export interface ShardDocsStats {
  count: number;
  deleted: number;
  segments: number;
  /** Bytes of stored `_source` plus an estimate of postings and doc values. */
  sizeInBytes: number;
}
