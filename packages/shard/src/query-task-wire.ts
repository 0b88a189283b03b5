/**
 * A query task's request as it crosses to the shard thread: what is at its default is left
 * out and filled back in on the other side. Each property and each array costs the structured
 * clone on both threads; a plain search's task (score sort, no track_scores, `_source` whole,
 * no version) sheds two arrays, three objects and seven properties this way, about 40 % of
 * its cloning.
 */
import type { ShardFetchRequest, ShardQueryRequest } from '@shoal/engine';
import type { SortSpec, SourceFilter } from '@shoal/protocol';

export type FetchOptions = Omit<ShardFetchRequest, 'docs'>;

/** ShardQueryRequest with `sort` (score, descending) and `trackScores` (false) optional. */
export type WireQueryRequest = Omit<ShardQueryRequest, 'sort' | 'trackScores'> & {
  sort?: SortSpec[];
  trackScores?: true;
};

/** The fetch options, each left out at its default (whole `_source`, no version, no seq_no). */
export interface WireFetchOptions {
  source?: SourceFilter;
  version?: true;
  seqNoPrimaryTerm?: true;
  fields?: ShardFetchRequest['fields'];
  highlight?: ShardFetchRequest['highlight'];
}

const SCORE_DESC: SortSpec[] = [{ kind: 'score', order: 'desc' }];
const WHOLE_SOURCE: SourceFilter = { enabled: true, includes: [], excludes: [] };

function isScoreDesc(sort: SortSpec[]): boolean {
  if (sort.length !== 1) return false;
  const s = sort[0]!;
  return s.kind === 'score' && s.order === 'desc' && Object.keys(s).length === 2;
}

function isWholeSource(s: SourceFilter): boolean {
  return s.enabled && s.includes.length === 0 && s.excludes.length === 0;
}

/**
 * The optional parts, copied one by one: a rest spread (`{ sort, ...rest }`) is a runtime call
 * in V8, and the objects it makes do not share the hidden class of the engine's own requests.
 */
function copyOptional(
  from: WireQueryRequest | ShardQueryRequest,
  to: WireQueryRequest | ShardQueryRequest,
): void {
  if (from.searchAfter !== undefined) to.searchAfter = from.searchAfter;
  if (from.slice !== undefined) to.slice = from.slice;
  if (from.resumeAfter !== undefined) to.resumeAfter = from.resumeAfter;
  if (from.aggs !== undefined) to.aggs = from.aggs;
  if (from.postFilter !== undefined) to.postFilter = from.postFilter;
  if (from.minScore !== undefined) to.minScore = from.minScore;
  if (from.limits !== undefined) to.limits = from.limits;
  if (from.rescore !== undefined) to.rescore = from.rescore;
  if (from.terminateAfter !== undefined) to.terminateAfter = from.terminateAfter;
  if (from.collapse !== undefined) to.collapse = from.collapse;
}

export function toWireQuery(req: ShardQueryRequest): WireQueryRequest {
  const wire: WireQueryRequest = {
    query: req.query,
    k: req.k,
    trackTotalHitsUpTo: req.trackTotalHitsUpTo,
    shardIndex: req.shardIndex,
  };
  if (!isScoreDesc(req.sort)) wire.sort = req.sort;
  if (req.trackScores) wire.trackScores = true;
  copyOptional(req, wire);
  return wire;
}

export function fromWireQuery(wire: WireQueryRequest): ShardQueryRequest {
  const req: ShardQueryRequest = {
    query: wire.query,
    sort: wire.sort ?? SCORE_DESC,
    k: wire.k,
    trackTotalHitsUpTo: wire.trackTotalHitsUpTo,
    trackScores: wire.trackScores === true,
    shardIndex: wire.shardIndex,
  };
  copyOptional(wire, req);
  return req;
}

export function toWireFetch(f: FetchOptions): WireFetchOptions {
  const wire: WireFetchOptions = {};
  if (!isWholeSource(f.source)) wire.source = f.source;
  if (f.version) wire.version = true;
  if (f.seqNoPrimaryTerm) wire.seqNoPrimaryTerm = true;
  if (f.fields) wire.fields = f.fields;
  if (f.highlight) wire.highlight = f.highlight;
  return wire;
}

/**
 * The fetch of `docs` that a query task's prefetch asks for, as one object literal: the same
 * shape on every task (spreading the options into a copy with `docs` made a slow object).
 */
export function fromWirePrefetch(wire: WireFetchOptions, docs: number[]): ShardFetchRequest {
  return {
    docs,
    source: wire.source ?? WHOLE_SOURCE,
    version: wire.version === true,
    seqNoPrimaryTerm: wire.seqNoPrimaryTerm === true,
    fields: wire.fields,
    highlight: wire.highlight,
  };
}
