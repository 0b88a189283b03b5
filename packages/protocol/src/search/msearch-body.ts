/**
 * The `_msearch` body (MultiSearchRequest.readMultiLineFormat, Elasticsearch 8.x): newline-
 * delimited pairs of a header line — which targets and options the search has, `{}` or an empty
 * line for none — and a search body line, the same JSON a `_search` takes.
 *
 * Every line, the last one included, ends with a newline: bytes after the last newline are
 * refused ("The msearch request must be terminated by a newline [\n]", whose reason holds the
 * newline itself). A header line at the very end, without a body line after it, is dropped, as
 * Elasticsearch drops it. A body line that is empty fails as an empty `_search` body object
 * would, and the header keys are the ones Elasticsearch knows, in snake or camel case.
 */
import { illegalArgument, parseException, parsingException } from '../errors/catalogue.ts';
import { xContentParse } from '../errors/catalogue-rest.ts';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { parseJson } from '../json/parse.ts';
import { parseBooleanStrict } from '../values/params.ts';

export interface MultiSearchItem {
  /** The header's `index` (or `indices`), comma-joined; undefined when it names none. */
  index?: string;
  /**
   * What the header sets, as the URL parameters of a `_search` would carry it: `search_type`,
   * `routing`, `preference`, `request_cache`, `allow_partial_search_results`,
   * `ccs_minimize_roundtrips`, `expand_wildcards`, `ignore_unavailable`, `allow_no_indices`,
   * `ignore_throttled`.
   */
  params: Record<string, string>;
  /** The body line's bytes, without its newline. */
  body: Uint8Array;
  /** The body line's JSON. */
  source: unknown;
}

const NEWLINE = 0x0a;
const NOT_BLANK = /\S/;

/** How each header key is read: the parameter it sets and how its value is converted. */
type HeaderKey = { param: string; read: 'string' | 'list' | 'boolean' | 'named-boolean' };

/**
 * The header keys readMultiLineFormat accepts. `index`/`indices` are handled apart. Strings are
 * XContentMapValues.nodeStringValue, lists nodeStringArrayValue; booleans nodeBooleanValue, the
 * "named" ones with the key in their error ("Could not convert [request_cache] to boolean").
 */
const HEADER_KEYS: Record<string, HeaderKey> = {
  search_type: { param: 'search_type', read: 'string' },
  searchType: { param: 'search_type', read: 'string' },
  ccs_minimize_roundtrips: { param: 'ccs_minimize_roundtrips', read: 'boolean' },
  ccsMinimizeRoundtrips: { param: 'ccs_minimize_roundtrips', read: 'boolean' },
  request_cache: { param: 'request_cache', read: 'named-boolean' },
  requestCache: { param: 'request_cache', read: 'named-boolean' },
  preference: { param: 'preference', read: 'string' },
  routing: { param: 'routing', read: 'string' },
  allow_partial_search_results: { param: 'allow_partial_search_results', read: 'boolean' },
  expand_wildcards: { param: 'expand_wildcards', read: 'list' },
  expandWildcards: { param: 'expand_wildcards', read: 'list' },
  ignore_unavailable: { param: 'ignore_unavailable', read: 'named-boolean' },
  ignoreUnavailable: { param: 'ignore_unavailable', read: 'named-boolean' },
  allow_no_indices: { param: 'allow_no_indices', read: 'named-boolean' },
  allowNoIndices: { param: 'allow_no_indices', read: 'named-boolean' },
  ignore_throttled: { param: 'ignore_throttled', read: 'named-boolean' },
  ignoreThrottled: { param: 'ignore_throttled', read: 'named-boolean' },
};

function notTerminated(): ShoalError {
  return illegalArgument('The msearch request must be terminated by a newline [\n]');
}

/** Parses an `_msearch` body into its searches, in order. */
export function parseMultiSearchBody(data: Uint8Array | undefined): MultiSearchItem[] {
  // RestRequest.contentOrSourceParam.
  if (data === undefined || data.length === 0) {
    throw parseException('request body or source parameter is required');
  }
  const items: MultiSearchItem[] = [];
  let from = 0;
  for (;;) {
    let next = data.indexOf(NEWLINE, from);
    if (next === -1) {
      if (from !== data.length) throw notTerminated();
      break;
    }
    const item: MultiSearchItem = { params: {}, body: data.subarray(0, 0), source: undefined };
    if (next > from) readHeader(data.subarray(from, next), item);
    from = next + 1;
    next = data.indexOf(NEWLINE, from);
    if (next === -1) {
      if (from !== data.length) throw notTerminated();
      break;
    }
    item.body = data.subarray(from, next);
    item.source = readBodyLine(item.body);
    items.push(item);
    from = next + 1;
  }
  return items;
}

/** Whether a line holds nothing but JSON white space. */
function isBlank(line: Uint8Array): boolean {
  for (const b of line) if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== NEWLINE) return false;
  return true;
}

function readBodyLine(line: Uint8Array): unknown {
  // SearchSourceBuilder.parseXContent on a line with no token at all.
  if (isBlank(line)) throw parsingException('Expected [START_OBJECT] but found [null]', { line: 1, col: 0 });
  return parseJson(line);
}

function readHeader(line: Uint8Array, item: MultiSearchItem): void {
  // A blank line is an empty header, as `{}` is.
  if (isBlank(line)) return;
  const header = parseJson(line);
  if (header === null || typeof header !== 'object') return;
  if (Array.isArray(header)) {
    const text = Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString('utf8');
    // XContentParser.map() reads no field from an array, and the token after its start is
    // "after the end of the object".
    const start = text.indexOf('[');
    const after = text.slice(start + 1).search(NOT_BLANK);
    throw xContentParse(1, start + 2 + Math.max(after, 0), 'Unexpected token after end of object');
  }
  for (const [key, value] of Object.entries(header as Record<string, unknown>)) {
    if (key === 'index' || key === 'indices') {
      const index = stringList(value);
      if (index !== undefined) item.index = index;
      continue;
    }
    const spec = HEADER_KEYS[key];
    if (spec === undefined) throw illegalArgument(`key [${key}] is not supported in the metadata section`);
    const v = headerValue(key, value, spec);
    if (v !== undefined) item.params[spec.param] = v;
  }
}

function headerValue(key: string, value: unknown, spec: HeaderKey): string | undefined {
  if (value === null || value === undefined) return undefined;
  switch (spec.read) {
    case 'string':
      return scalarText(value);
    case 'list':
      return stringList(value);
    case 'boolean':
      return String(booleanValue(value));
    case 'named-boolean':
      try {
        return String(booleanValue(value));
      } catch (e) {
        if (!isShoalError(e)) throw e;
        throw illegalArgument(`Could not convert [${key}] to boolean`, e);
      }
  }
}

/** nodeBooleanValue: a JSON boolean, or the exact text `true` or `false`. */
function booleanValue(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  return parseBooleanStrict(scalarText(value));
}

/** nodeStringArrayValue: a list's elements, or one value's text, joined by commas. */
function stringList(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.map(scalarText).join(',');
  return scalarText(value);
}

function scalarText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
