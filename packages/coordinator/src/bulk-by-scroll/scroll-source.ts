/**
 * The documents a reindex or by-query run reads: a scroll over the source, opened and walked
 * through the same scroll code as `_search?scroll` (so a slice is a sliced scroll), batch by
 * batch, and always cleared when the run ends, fails or is cancelled (Elasticsearch's
 * ScrollableHitSource). Each hit comes back with its index, id, routing, version, seq_no and
 * primary term, and its `_source` as the JSON bytes to write.
 */
import {
  type BulkByScrollRequest,
  parseJson,
  parseSearchRequest,
  type SearchRequest,
  ShoalError,
  stringifyJsonBytes,
} from '@shoal/protocol';
import type { CancelToken } from '@shoal/shard';
import { clearScrolls } from '../search/scroll-request.ts';
import { continueScroll, startScroll } from '../search/scroll-search.ts';
import { type ShardTarget, searchShardTargets } from '../search/shard-targets.ts';
import type { NodeServices } from '../services.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';

export interface SourceHit {
  index: string;
  id: string;
  routing?: string;
  version?: number;
  seqNo?: number;
  primaryTerm?: number;
  source: Uint8Array | undefined;
}

export interface SourceBatch {
  hits: SourceHit[];
  /** The matches of the whole scroll (counted once, on the first page). */
  total: number;
  /** Shard failures of the page (`_shards.failures`), as Elasticsearch reports search failures. */
  failures: Record<string, unknown>[];
}

/** The search a run reads with: its body and URL parameters, `_doc` order unless it names one. */
export function sourceSearch(req: BulkByScrollRequest, slice?: { id: number; max: number }): SearchRequest {
  const body: Record<string, unknown> = { ...req.search, size: req.batchSize };
  if (slice) body.slice = slice;
  // A run reads every match in index order unless the request sorts (Elasticsearch's default).
  if (body.sort === undefined && req.searchParams.sort === undefined) body.sort = ['_doc'];
  body.seq_no_primary_term = true;
  body.version = true;
  const params: Record<string, string> = { ...req.searchParams, scroll: `${req.scrollKeepAliveMs}ms` };
  return parseSearchRequest(body, params);
}

export function sourceTargets(s: NodeServices, req: BulkByScrollRequest): ShardTarget[] {
  const params = req.searchParams;
  return searchShardTargets(s, req.source.join(','), indicesOptionsFrom(params, SEARCH_INDICES_OPTIONS), {
    routing: params.routing,
    preference: params.preference,
  });
}

/** The hits of a search response, read back from its JSON, and the scroll id it carries. */
function readBatch(body: unknown): SourceBatch & { scrollId?: string } {
  const json = parseJson(stringifyJsonBytes(body)) as {
    _scroll_id?: string;
    hits?: { total?: { value: number } | number; hits?: Record<string, unknown>[] };
    _shards?: { failures?: Record<string, unknown>[] };
  };
  const hits = (json.hits?.hits ?? []).map((h): SourceHit => {
    const hit: SourceHit = {
      index: String(h._index),
      id: String(h._id),
      source: h._source === undefined ? undefined : bytesOf(stringifyJsonBytes(h._source)),
    };
    if (typeof h._routing === 'string') hit.routing = h._routing;
    if (typeof h._version === 'number') hit.version = h._version;
    if (typeof h._seq_no === 'number') hit.seqNo = h._seq_no;
    if (typeof h._primary_term === 'number') hit.primaryTerm = h._primary_term;
    return hit;
  });
  const total = json.hits?.total;
  return {
    hits,
    total: typeof total === 'number' ? total : (total?.value ?? 0),
    failures: json._shards?.failures ?? [],
    scrollId: json._scroll_id,
  };
}

function bytesOf(v: string | Uint8Array): Uint8Array {
  return typeof v === 'string' ? Buffer.from(v) : v;
}

export class ScrollSource {
  private scrollId: string | undefined;
  private closed = false;

  constructor(
    private readonly s: NodeServices,
    private readonly search: SearchRequest,
    private readonly targets: ShardTarget[],
    private readonly cancel: CancelToken,
  ) {}

  async first(): Promise<SourceBatch> {
    const body = await startScroll(
      this.s,
      this.search,
      this.targets,
      this.cancel,
      process.hrtime.bigint(),
      true,
    );
    const batch = readBatch(body);
    this.scrollId = batch.scrollId;
    return batch;
  }

  async next(): Promise<SourceBatch> {
    if (this.scrollId === undefined)
      throw new ShoalError('illegal_state_exception', 'scroll not started', 500);
    const body = await continueScroll(
      this.s,
      {
        scrollId: this.scrollId,
        keepAliveMs: this.search.scrollKeepAliveMs,
        restTotalHitsAsInt: false,
        rawHits: true,
      },
      this.cancel,
      process.hrtime.bigint(),
    );
    const batch = readBatch(body);
    this.scrollId = batch.scrollId ?? this.scrollId;
    return batch;
  }

  /** Frees the scroll's contexts; safe to call more than once. */
  async close(): Promise<void> {
    if (this.closed || this.scrollId === undefined) return;
    this.closed = true;
    await clearScrolls(this.s, [this.scrollId]).catch(() => undefined);
  }
}
