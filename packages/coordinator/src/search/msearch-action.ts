/**
 * `_msearch` (RestMultiSearchAction, TransportMultiSearchAction): several searches in one
 * request, each run by the `_search` action (search-action.ts) as if it had been sent alone —
 * its header's targets and options, and the URL's defaults, as its URL parameters; its body line
 * as its body.
 *
 * As in Elasticsearch, the request is read whole before any search runs: a malformed line, an
 * unknown header key, a body that does not parse or a refused parameter fails the whole request
 * (400), and the searches' validation problems are gathered into one
 * action_request_validation_exception. What fails while a search runs — a missing index, every
 * shard failing — is that search's answer, `{"error":{…},"status":N}` in its place, and the
 * others are answered as usual. At most `max_concurrent_searches` searches run at once.
 */
import { availableParallelism } from 'node:os';
import {
  actionRequestValidation,
  errorBody,
  illegalArgument,
  isShoalError,
  type MultiSearchItem,
  parseBooleanParam,
  parseIntParam,
  parseMultiSearchBody,
  parseSearchRequest,
  RawJson,
  stringifyJson,
} from '@shoal/protocol';
import type { IndexAccess } from '@shoal/security';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import type { ParsedSearch } from './parsed-search-cache.ts';
import { checkPitRequest } from './pit-search.ts';
import { executeSearch, hasPit } from './search-action.ts';
import type { SearchBody } from './search-response.ts';

/**
 * The `_msearch` URL parameters that are every search's own defaults (a header's value replaces
 * them), and the response parameters each search's body is written with.
 */
const ITEM_PARAMS = [
  'search_type',
  'ccs_minimize_roundtrips',
  'routing',
  'expand_wildcards',
  'ignore_unavailable',
  'allow_no_indices',
  'ignore_throttled',
  'pre_filter_shard_size',
  'max_concurrent_shard_requests',
  'rest_total_hits_as_int',
  'typed_keys',
  // Read by the search only to know whether its hits may be written straight to bytes.
  'filter_path',
  'pretty',
];

export interface MultiSearchBody {
  took: number;
  responses: SearchBody[];
}

/**
 * TransportMultiSearchAction.defaultMaxConcurrentSearches: the data nodes times the search
 * thread pool's size (`processors * 3 / 2 + 1`), at most 10 per node, and at least 1. A Shoal
 * node is one node with all its processors.
 */
export function defaultMaxConcurrentSearches(dataNodes: number, processors: number): number {
  const searchPool = Math.min(Math.floor((processors * 3) / 2) + 1, 10);
  return Math.max(1, dataNodes * searchPool);
}

/** One search of the request, seen by the `_search` action as a request of its own. */
class ItemRequest implements RestRequest {
  readonly method = 'POST';
  readonly path: string;
  readonly params: Record<string, string>;
  readonly query: Record<string, string>;
  readonly body: Buffer;
  readonly warnings: string[] = [];
  readonly headers: Record<string, string | undefined>;
  readonly indexAccess?: IndexAccess;
  readonly #outer: RestRequest;
  readonly #source: unknown;

  constructor(outer: RestRequest, item: MultiSearchItem) {
    this.#outer = outer;
    this.#source = item.source;
    const query: Record<string, string> = {};
    for (const k of ITEM_PARAMS) {
      const v = outer.query[k];
      if (v !== undefined) query[k] = v;
    }
    Object.assign(query, item.params);
    this.query = query;
    // A header's index replaces the path's, and an empty one (`""`, `[]`) means every index.
    const index = item.index === undefined ? outer.params.index : item.index || undefined;
    this.params = index === undefined ? {} : { index };
    this.path = index === undefined ? '/_search' : `/${index}/_search`;
    this.body = Buffer.from(item.body.buffer, item.body.byteOffset, item.body.byteLength);
    this.headers = outer.headers;
    if (outer.indexAccess) this.indexAccess = outer.indexAccess;
  }

  json(): unknown {
    return this.#source;
  }

  get signal(): AbortSignal {
    return this.#outer.signal;
  }

  onDisconnect(listener: () => void): void {
    this.#outer.onDisconnect(listener);
  }

  onUndelivered(listener: () => void): void {
    this.#outer.onUndelivered(listener);
  }
}

/**
 * The URL parameters of the request as a whole, in RestMultiSearchAction.parseRequest's order;
 * returns `max_concurrent_searches`, if given.
 */
function readRequestParams(query: Record<string, string>): number | undefined {
  const max = parseIntParam(query.max_concurrent_searches, 'max_concurrent_searches');
  if (max !== undefined && max < 1) throw illegalArgument('maxConcurrentSearchRequests must be positive');
  parseIntParam(query.pre_filter_shard_size, 'pre_filter_shard_size');
  parseIntParam(query.max_concurrent_shard_requests, 'max_concurrent_shard_requests');
  if (query.ccs_minimize_roundtrips !== undefined) {
    parseBooleanParam(query.ccs_minimize_roundtrips, 'ccs_minimize_roundtrips');
  }
  return max;
}

/**
 * Parses every search before any runs. Parse errors fail the request at once; validation
 * problems are gathered over all searches (MultiSearchRequest.validate). A search whose only
 * problem is a `q` that does not parse is left to fail in its place, on its shards, as in
 * Elasticsearch (its entry is undefined: the search action parses it again and says so).
 */
function parseAll(requests: ItemRequest[]): (ParsedSearch | undefined)[] {
  const problems: string[] = requests.length === 0 ? ['no requests added'] : [];
  const parsed: (ParsedSearch | undefined)[] = [];
  for (const r of requests) {
    const body = r.json();
    const pit = hasPit(body);
    let search: ParsedSearch | undefined;
    try {
      search = { search: parseSearchRequest(body, r.query, { path: r.path }), pit };
    } catch (e) {
      if (!isShoalError(e)) throw e;
      const messages =
        e.type === 'action_request_validation_exception' ? e.extra.validationErrors : undefined;
      if (messages !== undefined) problems.push(...messages);
      else if (e.type !== 'query_shard_exception') throw e;
    }
    // RestSearchAction.preparePointInTime runs while the request is read: its problems are
    // thrown at once, not gathered.
    if (pit) checkPitRequest(r);
    parsed.push(search);
  }
  if (problems.length > 0) throw actionRequestValidation(problems);
  return parsed;
}

/**
 * MultiSearchResponse.Item: a search's body with its `status` after it. A body rendered
 * straight to bytes gets the field spliced in before its closing brace.
 */
function withStatus(body: SearchBody): SearchBody {
  if (body instanceof RawJson) {
    const bytes = body.bytes ?? Buffer.from(body.text);
    const close = bytes.lastIndexOf(0x7d);
    const tail = Buffer.from(',"status":200}');
    const out = new Uint8Array(close + tail.length);
    out.set(bytes.subarray(0, close), 0);
    out.set(tail, close);
    return new RawJson(out);
  }
  return { ...body, status: searchStatus(body) };
}

/**
 * SearchResponse.status (RestStatus.status): 503 when no shard answered and none failed; a
 * search where every shard failed is an error, not a body.
 */
function searchStatus(body: Record<string, unknown>): number {
  const shards = body._shards as { total?: number; successful?: number } | undefined;
  if (shards && shards.successful === 0 && (shards.total ?? 0) > 0) return 503;
  return 200;
}

/** Runs `run(0..n-1)` with at most `limit` in flight; the results in index order. */
async function runLimited<T>(n: number, limit: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const out = new Array<T>(n);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < n) {
      const i = next++;
      out[i] = await run(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, lane));
  return out;
}

/**
 * `render` turns each body line into the search it stands for (`_msearch/template`); a body it
 * cannot render fails only its own search.
 */
export async function executeMultiSearch(
  req: RestRequest,
  s: NodeServices,
  render?: (source: unknown) => Record<string, unknown>,
): Promise<MultiSearchBody> {
  const startedAt = process.hrtime.bigint();
  const maxConcurrent = readRequestParams(req.query);
  const unrendered = new Map<number, unknown>();
  const requests = parseMultiSearchBody(req.body).map((item, i) => {
    if (!render) return new ItemRequest(req, item);
    let source: Record<string, unknown> = {};
    try {
      source = render(item.source);
    } catch (e) {
      unrendered.set(i, e);
    }
    return new ItemRequest(req, { ...item, source, body: Buffer.from(stringifyJson(source)) });
  });
  const parsed = parseAll(requests);
  const dataNodes = s.node.roles.some((r) => r === 'data' || r.startsWith('data_')) ? 1 : 0;
  const limit = maxConcurrent ?? defaultMaxConcurrentSearches(dataNodes, availableParallelism());
  const errorTrace = req.query.error_trace === 'true';
  const responses = await runLimited(requests.length, limit, async (i) => {
    try {
      if (unrendered.has(i)) throw unrendered.get(i);
      return withStatus(await executeSearch(requests[i]!, s, parsed[i]));
    } catch (e) {
      const { status, body } = errorBody(e, { errorTrace });
      if (!isShoalError(e) || status >= 500) s.logger.error({ err: e }, 'a search of a multi-search failed');
      return body;
    }
  });
  // Each distinct deprecation warning once, as Elasticsearch's response headers carry them.
  const warnings = new Set(req.warnings);
  for (const r of requests) {
    for (const w of r.warnings) {
      if (!warnings.has(w)) {
        warnings.add(w);
        req.warnings.push(w);
      }
    }
  }
  return { took: Number((process.hrtime.bigint() - startedAt) / 1_000_000n), responses };
}
