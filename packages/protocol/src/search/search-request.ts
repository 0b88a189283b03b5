import type { QueryNode } from '../query/ast.ts';
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
}
