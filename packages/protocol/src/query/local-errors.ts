/**
 * Elasticsearch exception types the request parsers raise that `errors/catalogue.ts` does not
 * have yet (another engineer owns that file). They keep Elasticsearch's type names and statuses;
 * the lead may move them into the catalogue unchanged.
 */
import { xContentParse } from '../errors/catalogue.ts';
import { ShoalError } from '../errors/shoal-error.ts';
import type { Loc } from './json-location.ts';

/** `ParsingException` with its location and an optional cause (the catalogue's factory has no cause). */
export function parsingError(reason: string, loc: Loc | undefined, causedBy?: ShoalError): ShoalError {
  return new ShoalError(
    'parsing_exception',
    reason,
    400,
    loc ? { line: loc.line, col: loc.col } : {},
    causedBy,
  );
}

/** `XContentParseException`: not an ElasticsearchException, so the location lives in the reason. */
export function xContentParseError(reason: string, loc: Loc, causedBy?: ShoalError): ShoalError {
  return xContentParse(loc.line, loc.col, reason, causedBy);
}

/** `NamedObjectNotFoundException`, the cause Elasticsearch attaches to `unknown query [x]`. */
export function namedObjectNotFound(name: string, loc: Loc): ShoalError {
  return new ShoalError(
    'named_object_not_found_exception',
    `[${loc.line}:${loc.col}] unknown field [${name}]`,
    400,
  );
}

/**
 * Java's `NumberFormatException` with any reason: the catalogue's `numberFormat` only builds
 * `For input string: "x"`, and Double.parseDouble also says `empty String`.
 */
export function numberFormatError(reason: string): ShoalError {
  return new ShoalError('number_format_exception', reason, 400);
}

/**
 * Java's `IllegalStateException`, raised by the JSON parser for `text()` on a non-value token
 * (`Can't get text on a START_ARRAY at 1:23`). The catalogue's `illegalState` is 500 (a bug);
 * here the client sent the wrong shape, so Shoal answers 400 as the version policy asks.
 */
export function illegalStateError(reason: string): ShoalError {
  return new ShoalError('illegal_state_exception', reason, 400);
}

/**
 * `QueryShardException` without index metadata: raised for a `q=` syntax error while the request is
 * still being parsed. The coordinator adds `index_uuid`/`index` per shard and wraps it in
 * `search_phase_execution_exception` as Elasticsearch does (the failure happens on each shard there).
 */
export function queryShardError(reason: string, causedBy?: ShoalError): ShoalError {
  return new ShoalError('query_shard_exception', reason, 400, {}, causedBy);
}

/** Lucene's query-parser `ParseException` (same wire type as ElasticsearchParseException). */
export function luceneParseError(reason: string, causedBy?: ShoalError): ShoalError {
  return new ShoalError('parse_exception', reason, 400, {}, causedBy, { foreign: true });
}

/** Lucene's query-parser `TokenMgrError` (a lexical error). */
export function tokenMgrError(reason: string): ShoalError {
  return new ShoalError('token_mgr_error', reason, 400);
}
