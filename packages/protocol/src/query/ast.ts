/**
 * The query DSL after parsing: a plain, structured-clonable tree that crosses from the
 * coordinator (which parses and validates the JSON, raising `parsing_exception`) to the shard
 * workers (which compile it against their mapping). Field names are as the user wrote them;
 * they may be patterns (`title*`, `*`) where Elasticsearch allows patterns.
 */
import type { ScriptSpec } from '../script/script-spec.ts';
import type { DistanceFeatureQuery } from './distance-feature.ts';
import type { GeoBoundingBoxQuery, GeoDistanceQuery } from './geo.ts';
import type { IntervalsQuery } from './intervals.ts';
import type { MoreLikeThisQuery } from './more-like-this.ts';
import type { PinnedQuery } from './pinned.ts';
import type { RankFeatureQuery } from './rank-feature.ts';
import type { TermsLookupQuery } from './terms-lookup.ts';

export type JsonScalar = string | number | bigint | boolean | null;

export interface FieldBoost {
  field: string;
  boost: number;
  /**
   * Set on the `*` a query falls back to when it names no field: the shard reads it as the
   * index's `index.query.default_field` (every field unless the index says otherwise), where an
   * explicit `*` always means every field.
   */
  indexDefault?: true;
}

export type QueryNode =
  | { type: 'match_all'; boost: number }
  | { type: 'match_none' }
  | GeoDistanceQuery
  | GeoBoundingBoxQuery
  /** Replaced by a `terms` query on the coordinator, once the looked-up document is fetched. */
  | TermsLookupQuery
  | PinnedQuery
  | DistanceFeatureQuery
  | RankFeatureQuery
  | IntervalsQuery
  | MoreLikeThisQuery
  | { type: 'term'; field: string; value: JsonScalar; boost: number; caseInsensitive: boolean }
  | { type: 'terms'; field: string; values: JsonScalar[]; boost: number }
  | {
      /** Lucene's CoveringQuery over one term query per value; absent field: none specified. */
      type: 'terms_set';
      field: string;
      values: JsonScalar[];
      minimumShouldMatchField?: string;
      boost: number;
    }
  | {
      type: 'range';
      field: string;
      gt?: JsonScalar;
      gte?: JsonScalar;
      lt?: JsonScalar;
      lte?: JsonScalar;
      /** Date format used to parse the bounds (overrides the field's format). */
      format?: string;
      /** e.g. `+01:00` or `Europe/Paris`, applied to date bounds and rounding. */
      timeZone?: string;
      /** How a range field's ranges must stand to the query's (default `intersects`). */
      relation?: 'intersects' | 'contains' | 'within';
      boost: number;
    }
  | { type: 'exists'; field: string; boost: number }
  /** Matches the documents the script returns true for. */
  | { type: 'script'; script: ScriptSpec; boost: number }
  | { type: 'ids'; values: string[]; boost: number }
  | { type: 'prefix'; field: string; value: string; boost: number; caseInsensitive: boolean }
  | { type: 'wildcard'; field: string; value: string; boost: number; caseInsensitive: boolean }
  | {
      type: 'regexp';
      field: string;
      /** Lucene RegExp syntax, anchored to the whole term. */
      value: string;
      /** Syntax flags as sent (RegexpFlag bits or flags_value); the shard keeps Lucene's 0xff. */
      flags: number;
      caseInsensitive: boolean;
      /**
       * Lucene's bound on determinizing the pattern. Shoal's matcher (regexp-automaton.ts) never
       * determinizes, so no pattern is too complex for it and the bound is never reached.
       */
      maxDeterminizedStates: number;
      /** The rewrite method's name; absent means constant_score. */
      rewrite?: string;
      boost: number;
    }
  | {
      type: 'match';
      field: string;
      query: JsonScalar;
      operator: 'or' | 'and';
      /** Raw Elasticsearch minimum_should_match spec: `2`, `-1`, `75%`, `3<90%`. */
      minimumShouldMatch?: string;
      analyzer?: string;
      zeroTermsQuery: 'none' | 'all';
      lenient: boolean;
      boost: number;
      /** `AUTO`, `AUTO:3,6`, `0`, `1` or `2`; absent means no fuzzy matching. */
      fuzziness?: string;
      prefixLength?: number;
      maxExpansions?: number;
      fuzzyTranspositions?: boolean;
      /** How the fuzzy terms are rewritten (`fuzzy_rewrite`); absent means top_terms_blended_freqs. */
      fuzzyRewrite?: string;
    }
  | {
      type: 'match_bool_prefix';
      field: string;
      query: JsonScalar;
      operator: 'or' | 'and';
      minimumShouldMatch?: string;
      analyzer?: string;
      boost: number;
      /** As on `match`: the fuzzy options of every term but the last. */
      fuzziness?: string;
      prefixLength?: number;
      maxExpansions?: number;
      fuzzyTranspositions?: boolean;
      fuzzyRewrite?: string;
    }
  | {
      type: 'match_phrase';
      field: string;
      query: string;
      slop: number;
      analyzer?: string;
      zeroTermsQuery: 'none' | 'all';
      boost: number;
    }
  | {
      type: 'match_phrase_prefix';
      field: string;
      query: string;
      slop: number;
      /** How many terms the last, prefix, term expands to at most. */
      maxExpansions: number;
      analyzer?: string;
      zeroTermsQuery: 'none' | 'all';
      boost: number;
    }
  | {
      type: 'multi_match';
      fields: FieldBoost[];
      query: JsonScalar;
      matchType: 'best_fields' | 'most_fields' | 'cross_fields' | 'phrase' | 'phrase_prefix' | 'bool_prefix';
      operator: 'or' | 'and';
      minimumShouldMatch?: string;
      tieBreaker: number;
      analyzer?: string;
      slop: number;
      lenient: boolean;
      zeroTermsQuery: 'none' | 'all';
      boost: number;
      /** As on `match`. */
      fuzziness?: string;
      prefixLength?: number;
      maxExpansions?: number;
      fuzzyTranspositions?: boolean;
      /** How the fuzzy terms are rewritten (`fuzzy_rewrite`); absent means top_terms_blended_freqs. */
      fuzzyRewrite?: string;
    }
  | {
      /** Lucene's CombinedFieldQuery per analysed position (BM25F over the fields). */
      type: 'combined_fields';
      query: string;
      /** Every boost is at least 1. Empty: refused when the shard builds the query. */
      fields: FieldBoost[];
      operator: 'or' | 'and';
      minimumShouldMatch?: string;
      zeroTermsQuery: 'none' | 'all';
      boost: number;
    }
  | {
      type: 'bool';
      must: QueryNode[];
      filter: QueryNode[];
      should: QueryNode[];
      mustNot: QueryNode[];
      minimumShouldMatch?: string;
      boost: number;
      /** Only present when `false`: a bool of only `must_not` clauses then matches nothing. */
      adjustPureNegative?: false;
    }
  | { type: 'constant_score'; filter: QueryNode; boost: number }
  | { type: 'dis_max'; queries: QueryNode[]; tieBreaker: number; boost: number }
  | {
      type: 'simple_query_string';
      query: string;
      /** Empty means `index.query.default_field` (`*`: every searchable field). */
      fields: FieldBoost[];
      defaultOperator: 'or' | 'and';
      analyzer?: string;
      minimumShouldMatch?: string;
      lenient: boolean;
      analyzeWildcard: boolean;
      boost: number;
      /** Bit set of enabled operators (SimpleQueryStringFlag values); absent means ALL (-1). */
      flags?: number;
      quoteFieldSuffix?: string;
      /** The `~N` terms' fuzzy options; absent means 0, 50 and true. */
      fuzzyPrefixLength?: number;
      fuzzyMaxExpansions?: number;
      fuzzyTranspositions?: boolean;
    }
  | {
      /**
       * A term-level query over several fields or field patterns (query_string), resolved
       * against the shard's mapping: the template on each field, with the field's boost, joined
       * in a dis_max with the tie breaker.
       */
      type: 'per_field';
      fields: FieldBoost[];
      /** Its `field` is replaced by each resolved field. */
      template: PerFieldTemplate;
      tieBreaker: number;
      lenient: boolean;
      boost: number;
    }
  | {
      type: 'fuzzy';
      field: string;
      value: JsonScalar;
      /** `AUTO`, `AUTO:3,6`, `0`, `1` or `2`. */
      fuzziness: string;
      prefixLength: number;
      maxExpansions: number;
      transpositions: boolean;
      /** The rewrite method's name; absent means top_terms_blended_freqs of max_expansions. */
      rewrite?: string;
      boost: number;
    }
  | {
      /** Lucene's FunctionScoreQuery.boostByQuery: docs matching `negative` score × negativeBoost. */
      type: 'boosting';
      positive: QueryNode;
      negative: QueryNode;
      negativeBoost: number;
      boost: number;
    }
  | {
      type: 'function_score';
      query: QueryNode;
      functions: ScoreFunctionSpec[];
      scoreMode: 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min';
      boostMode: 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min';
      maxBoost: number;
      minScore?: number;
      boost: number;
    }
  | KnnQuery
  | {
      /**
       * The global nearest neighbours a top-level `knn` search found (the coordinator's first
       * phase), each scoring its similarity: a doc of another index matches nothing here.
       */
      type: 'knn_score_docs';
      docs: { index: string; id: string; score: number }[];
      boost: number;
    };

/** The `knn` query: each shard's `k` nearest vectors of `field` among the `filter`'s docs. */
export interface KnnQuery {
  type: 'knn';
  field: string;
  vector: number[];
  /** Absent: the search's size. */
  k?: number;
  numCandidates?: number;
  /** Docs must match every one of them (before the nearest are chosen). */
  filter: QueryNode[];
  /** The least raw similarity (for l2_norm: the largest distance) a doc may have. */
  similarity?: number;
  boost: number;
}

/** One entry of a function_score: an optional filter, the function, its optional weight. */
export interface ScoreFunctionSpec {
  /** Absent: every doc (as is a `match_all` filter). */
  filter?: QueryNode;
  /** Multiplies the function's value; absent means 1 (and no factor). */
  weight?: number;
  fn: ScoreFunctionBody;
}

export type ScoreFunctionBody =
  | { kind: 'weight' }
  /** script_score: the script's value, with the query's score as `_score`. */
  | { kind: 'script'; script: ScriptSpec }
  | { kind: 'random_score'; seed?: number; field?: string }
  | {
      kind: 'field_value_factor';
      field: string;
      factor: number;
      modifier:
        | 'none'
        | 'log'
        | 'log1p'
        | 'log2p'
        | 'ln'
        | 'ln1p'
        | 'ln2p'
        | 'square'
        | 'sqrt'
        | 'reciprocal';
      missing?: number;
    }
  | {
      kind: 'decay';
      curve: 'gauss' | 'exp' | 'linear';
      field: string;
      /** origin, scale, offset and decay as sent: their meaning depends on the field's type. */
      params: Record<string, unknown>;
      multiValueMode: 'min' | 'max' | 'avg' | 'sum' | 'median';
    };

export type QueryType = QueryNode['type'];

/** The term-level queries a `per_field` node builds on each field. */
export type PerFieldTemplate = Extract<
  QueryNode,
  { type: 'range' | 'prefix' | 'wildcard' | 'regexp' | 'exists' }
>;
