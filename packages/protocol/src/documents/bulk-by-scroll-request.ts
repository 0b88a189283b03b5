/**
 * `_reindex`, `_update_by_query` and `_delete_by_query` requests (Elasticsearch's
 * ReindexRequest, AbstractBulkByScrollRequest and their REST handlers): the body and URL
 * parameters read into one plan, with Elasticsearch's errors and texts for every malformed or
 * contradictory part. The search part (query, sort, `_source`, slice, batch size) stays a
 * search body, parsed by the search parser when the request runs.
 */
import {
  actionRequestValidation,
  illegalArgument,
  numberFormat,
  parseException,
  requestBodyRequired,
} from '../errors/catalogue.ts';
import type { ShoalError } from '../errors/shoal-error.ts';
import { xContentParseError } from '../query/local-errors.ts';
import { here, isObject, newCtx, type ParseCtx, tokenOf } from '../query/parse-context.ts';
import { parseSearchRequest } from '../search/parse-search-request.ts';
import { parseBooleanParam } from '../values/params.ts';
import { parseTimeValue } from '../values/time-value.ts';

export type BulkByScrollKind = 'reindex' | 'update_by_query' | 'delete_by_query';

export interface ReindexDest {
  index: string;
  opType: 'index' | 'create';
  versionType?: 'internal' | 'external' | 'external_gte';
  /** `keep` (the source's routing), `discard`, or `=<value>`. */
  routing: string;
  pipeline?: string;
}

export interface BulkByScrollRequest {
  kind: BulkByScrollKind;
  /** The source targets (index names, aliases, wildcards). */
  source: string[];
  /** The search over the source: query, sort, `_source`, slice, and `size` as the batch size. */
  search: Record<string, unknown>;
  /** URL parameters that shape the search (`q`, `routing`, `preference`, `expand_wildcards`, …). */
  searchParams: Record<string, string>;
  batchSize: number;
  /** Stop after this many documents (undefined: every match). */
  maxDocs?: number;
  conflicts: 'abort' | 'proceed';
  /** A script that rewrites each document (needs script support). */
  script?: unknown;
  dest?: ReindexDest;
  /** `auto` (one slice per shard) or a number of slices. */
  slices: number | 'auto';
  /** Batches per second are throttled to this many documents per second (Infinity: none). */
  requestsPerSecond: number;
  refresh: boolean;
  waitForCompletion: boolean;
  scrollKeepAliveMs: number;
  timeoutMs: number;
}

/** AbstractBulkByScrollRequest's defaults. */
const DEFAULT_BATCH_SIZE = 1000;
const DEFAULT_SCROLL_MS = 5 * 60_000;
const DEFAULT_TIMEOUT_MS = 60_000;

const CONFLICTS_VALUES = ['abort', 'proceed'];

/** The search-body keys a bulk-by-scroll request refuses (AbstractBulkByScrollRequest.validate). */
const NOT_IN_CONTEXT: Record<string, string> = {
  from: 'from is not supported in this context',
  stored_fields: 'stored_fields is not supported in this context',
};

function conflictsValue(v: unknown): 'abort' | 'proceed' {
  const text = String(v);
  if (!CONFLICTS_VALUES.includes(text)) {
    throw illegalArgument(`conflicts may only be "proceed" or "abort" but was [${text}]`);
  }
  return text as 'abort' | 'proceed';
}

function maxDocsValue(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n)) throw numberFormat(String(v));
  if (n < 0) throw illegalArgument(`[max_docs] parameter cannot be negative, found [${n}]`);
  return n;
}

/** Sets max_docs, refusing a second, different value (ReindexRequest's `size`/`max_docs`). */
function setMaxDocs(current: number | undefined, next: number): number {
  if (current !== undefined && current !== next) {
    throw illegalArgument(`[max_docs] set to two different values [${current}] and [${next}]`);
  }
  return next;
}

/** AbstractBaseReindexRestHandler.parseRequestsPerSecond. */
export function parseRequestsPerSecond(text: string | undefined): number {
  if (text === undefined) return Number.POSITIVE_INFINITY;
  const bad = () =>
    illegalArgument('[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.');
  if (text === '-1') return Number.POSITIVE_INFINITY;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text.trim())) throw bad();
  const n = Number(text);
  if (!(n > 0)) throw bad();
  return n;
}

/** AbstractBaseReindexRestHandler.parseSlices. */
export function parseSlices(text: string | undefined): number | 'auto' {
  if (text === undefined) return 1;
  if (text === 'auto') return 'auto';
  const n = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw illegalArgument(`[slices] must be a positive integer or the string "auto", but was [${text}]`);
  }
  return n;
}

function boolParam(params: Record<string, string>, name: string, dflt: boolean): boolean {
  const v = params[name];
  return v === undefined ? dflt : parseBooleanParam(v, name);
}

function indexList(v: unknown): string[] {
  const list = Array.isArray(v) ? v.map(String) : String(v).split(',');
  return list.map((x) => x.trim()).filter((x) => x !== '');
}

function unknownField(ctx: ParseCtx, parser: string, key: string): ShoalError {
  return xContentParseError(`[${parser}] unknown field [${key}]`, here(ctx, 'key', key));
}

/** The reindex `dest` object (ReindexRequest's dest ObjectParser). */
function readDest(ctx: ParseCtx, v: unknown): Partial<ReindexDest> {
  if (!isObject(v)) {
    throw xContentParseError(
      `[reindex] dest doesn't support values of type: ${tokenOf(v)}`,
      here(ctx, 'value', 'dest'),
    );
  }
  ctx.path.push('dest');
  const dest: Partial<ReindexDest> = {};
  for (const [key, value] of Object.entries(v)) {
    if (key === 'index') dest.index = String(value);
    else if (key === 'op_type') {
      const op = String(value);
      if (op !== 'index' && op !== 'create') {
        throw illegalArgument(`opType must be 'create' or 'index', found: [${op}]`);
      }
      dest.opType = op;
    } else if (key === 'version_type') {
      const vt = String(value);
      if (vt !== 'internal' && vt !== 'external' && vt !== 'external_gte') {
        throw illegalArgument(`No version type match [${vt}]`);
      }
      dest.versionType = vt;
    } else if (key === 'routing') dest.routing = String(value);
    else if (key === 'pipeline') dest.pipeline = String(value);
    else throw unknownField(ctx, 'dest', key);
  }
  ctx.path.pop();
  return dest;
}

/** The reindex `source` object: `index`, `remote`, and the rest a search body. */
function readSource(ctx: ParseCtx, v: unknown, search: Record<string, unknown>): string[] {
  if (!isObject(v)) {
    throw xContentParseError(
      `[reindex] source doesn't support values of type: ${tokenOf(v)}`,
      here(ctx, 'value', 'source'),
    );
  }
  let indices: string[] = [];
  for (const [key, value] of Object.entries(v)) {
    if (key === 'index') indices = indexList(value);
    else if (key === 'remote') {
      throw illegalArgument('reindex from a remote cluster [source.remote] is not supported by Shoal');
    } else if (key === 'size') {
      if (typeof value !== 'number' && !(typeof value === 'string' && /^\d+$/.test(value))) {
        throw numberFormat(String(value));
      }
      search.size = Number(value);
    } else search[key] = value;
  }
  // The rest is a search body: its own errors (unknown keys, bad queries) come now.
  const { from: _from, stored_fields: _storedFields, ...rest } = search;
  parseSearchRequest(rest, {});
  return indices;
}

/** Validations every kind shares (AbstractBulkByScrollRequest.validate), in its order. */
function validate(req: BulkByScrollRequest, extra: string[]): void {
  const problems = [...extra];
  for (const [key, message] of Object.entries(NOT_IN_CONTEXT)) if (key in req.search) problems.push(message);
  if (req.batchSize <= 0) {
    problems.push(
      `size should be greater than 0 if the request is limited to some number of documents or -1 if it isn't but it was [${req.batchSize}]`,
    );
  }
  if (req.maxDocs !== undefined && req.slices !== 'auto' && req.slices > req.maxDocs) {
    problems.push('[max_docs] should be >= [slices]');
  }
  if (req.search._source === false) problems.push('_source:false is not supported in this context');
  if (problems.length > 0) throw actionRequestValidation(problems);
}

/** The URL parameters every kind reads. */
function common(
  kind: BulkByScrollKind,
  params: Record<string, string>,
): Omit<BulkByScrollRequest, 'source' | 'search'> {
  const out: Omit<BulkByScrollRequest, 'source' | 'search'> = {
    kind,
    searchParams: {},
    batchSize: DEFAULT_BATCH_SIZE,
    conflicts: params.conflicts === undefined ? 'abort' : conflictsValue(params.conflicts),
    slices: parseSlices(params.slices),
    requestsPerSecond: parseRequestsPerSecond(params.requests_per_second),
    refresh: boolParam(params, 'refresh', false),
    waitForCompletion: boolParam(params, 'wait_for_completion', true),
    scrollKeepAliveMs:
      params.scroll === undefined ? DEFAULT_SCROLL_MS : parseTimeValue(params.scroll, 'scroll'),
    timeoutMs: params.timeout === undefined ? DEFAULT_TIMEOUT_MS : parseTimeValue(params.timeout, 'timeout'),
  };
  if (params.max_docs !== undefined) out.maxDocs = maxDocsValue(params.max_docs);
  return out;
}

export function parseReindexRequest(body: unknown, params: Record<string, string>): BulkByScrollRequest {
  if (body === undefined) throw requestBodyRequired();
  const ctx = newCtx(body);
  if (!isObject(body)) throw parseException(`request body must be an object, found [${tokenOf(body)}]`);
  const req: BulkByScrollRequest = { ...common('reindex', params), source: [], search: {} };
  let dest: Partial<ReindexDest> | undefined;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'source') req.source = readSource(ctx, value, req.search);
    else if (key === 'dest') dest = readDest(ctx, value);
    else if (key === 'size' || key === 'max_docs') req.maxDocs = setMaxDocs(req.maxDocs, maxDocsValue(value));
    else if (key === 'conflicts') req.conflicts = conflictsValue(value);
    else if (key === 'script') req.script = value;
    else throw unknownField(ctx, 'reindex', key);
  }
  if (typeof req.search.size === 'number') req.batchSize = req.search.size;
  const problems: string[] = [];
  if (req.source.length === 0) problems.push('use _all if you really want to copy from all existing indexes');
  if (dest?.index === undefined) problems.push('index must be specified');
  validate(req, problems);
  req.dest = { index: dest!.index!, opType: dest?.opType ?? 'index', routing: dest?.routing ?? 'keep' };
  if (dest?.versionType) req.dest.versionType = dest.versionType;
  if (dest?.pipeline) req.dest.pipeline = dest.pipeline;
  return req;
}

/** The URL parameters of `_update_by_query` and `_delete_by_query` that shape their search. */
const SEARCH_PARAMS = [
  'q',
  'df',
  'analyzer',
  'analyze_wildcard',
  'default_operator',
  'lenient',
  'routing',
  'preference',
  'expand_wildcards',
  'ignore_unavailable',
  'allow_no_indices',
  'sort',
  '_source',
  '_source_includes',
  '_source_excludes',
  'terminate_after',
  'stats',
  'search_timeout',
];

export function parseByQueryRequest(
  kind: 'update_by_query' | 'delete_by_query',
  index: string,
  body: unknown,
  params: Record<string, string>,
): BulkByScrollRequest {
  const req: BulkByScrollRequest = { ...common(kind, params), source: indexList(index), search: {} };
  for (const p of SEARCH_PARAMS) if (params[p] !== undefined) req.searchParams[p] = params[p];
  if (params.scroll_size !== undefined) {
    const n = /^-?\d+$/.test(params.scroll_size) ? Number(params.scroll_size) : Number.NaN;
    if (!Number.isInteger(n)) throw numberFormat(params.scroll_size);
    req.batchSize = n;
  }
  if (params.from !== undefined) req.search.from = Number(params.from);
  if (body !== undefined) {
    const ctx = newCtx(body);
    if (!isObject(body)) throw parseException(`request body must be an object, found [${tokenOf(body)}]`);
    for (const [key, value] of Object.entries(body)) {
      // RestDeleteByQueryAction/RestUpdateByQueryAction consume these before the search parser.
      if (key === 'max_docs' || key === 'size') req.maxDocs = setMaxDocs(req.maxDocs, maxDocsValue(value));
      else if (key === 'conflicts') req.conflicts = conflictsValue(value);
      else if (key === 'script' && kind === 'update_by_query') req.script = value;
      else if (key === 'script') throw unknownField(ctx, 'search', key);
      else req.search[key] = value;
    }
  }
  validate(req, []);
  return req;
}
