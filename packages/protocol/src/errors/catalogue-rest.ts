/**
 * Factories for errors raised before a handler runs or while reading the request: body
 * parsing (Jackson through the x-content layer), media types, routing of the URL, and URL
 * parameters.
 */
import { similarKeys } from '../values/similarity.ts';
import { ShoalError } from './shoal-error.ts';

/**
 * Jackson's description of where it was reading. Elasticsearch 8.x parses request bytes with
 * Jackson 2.17, whose locations no longer include the source.
 */
export const JACKSON_SOURCE = 'REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled)';

function jacksonMessage(message: string, line: number, col: number): string {
  return `${message}\n at [Source: ${JACKSON_SOURCE}; line: ${line}, column: ${col}]`;
}

/**
 * XContentParseException: `[<line>:<col>] <message>`. Malformed JSON arrives as this, caused by
 * Jackson's json_parse_exception (see malformedJson); DSL parsers use it with their own message
 * and cause (`[1:25] [slice] failed to parse field [max]`).
 */
export function xContentParse(line: number, col: number, message: string, causedBy?: ShoalError): ShoalError {
  return new ShoalError('x_content_parse_exception', `[${line}:${col}] ${message}`, 400, {}, causedBy);
}

/**
 * A body that is not valid JSON. `jacksonText` is Jackson's own text without the location
 * (`Unexpected character ('}' (code 125)): expected a value`); the location is appended as
 * Jackson does, and the x-content wrapper repeats it with its `[line:col]` prefix.
 */
export function malformedJson(line: number, col: number, jacksonText: string): ShoalError {
  const full = jacksonMessage(jacksonText, line, col);
  return xContentParse(line, col, full, new ShoalError('json_parse_exception', full, 400));
}

/**
 * A body that ends inside an object, array or string. Elasticsearch 8.16+ answers 400 with
 * XContentEOFException (wire name `x_content_e_o_f_exception`, from its class name) caused by
 * Jackson's JsonEOFException.
 */
export function truncatedJson(line: number, col: number, jacksonText: string): ShoalError {
  const cause = new ShoalError('json_e_o_f_exception', jacksonMessage(jacksonText, line, col), 400);
  return new ShoalError(
    'x_content_e_o_f_exception',
    `[${line}:${col}] Unexpected end of file`,
    400,
    {},
    cause,
  );
}

/** Bytes that are not any content type Elasticsearch can detect. */
export function notXContent(): ShoalError {
  return new ShoalError(
    'not_x_content_exception',
    'Compressor detection can only be called on some xcontent bytes or compressed xcontent bytes',
    400,
  );
}

/** ElasticsearchStatusException: a message with an explicit status. */
export function statusException(reason: string, status: number, causedBy?: ShoalError): ShoalError {
  return new ShoalError('status_exception', reason, status, {}, causedBy);
}

/**
 * An `Accept`/`Content-Type` header that cannot be parsed, or whose compatible-with versions
 * disagree: 400 `Invalid media-type value on headers [Accept, Content-Type]` with the reason as cause.
 */
export function mediaTypeHeader(headerNames: string[], causedBy: ShoalError): ShoalError {
  return new ShoalError(
    'media_type_header_exception',
    `Invalid media-type value on headers [${headerNames.join(', ')}]`,
    400,
    {},
    causedBy,
  );
}

/**
 * A body whose Content-Type is missing or not a content type Elasticsearch reads: 406 with
 * RestController's flat body `{"error":"Content-Type header [text/plain] is not supported","status":406}`.
 */
export function contentTypeNotSupported(contentTypeValues: string[] | undefined): ShoalError {
  const reason =
    contentTypeValues === undefined
      ? 'Content-Type header is missing'
      : `Content-Type header [${contentTypeValues.join(',')}] is not supported`;
  return new ShoalError('content_type_not_supported', reason, 406, {}, undefined, { simple: 'with-status' });
}

/**
 * No route matches the path with any method: 400 with the flat body
 * `{"error":"no handler found for uri [/x?y=1] and method [GET]"}` (no `status` key).
 * `uri` is the request URI including its query string, as Elasticsearch prints it.
 */
export function noHandlerFound(uri: string, method: string): ShoalError {
  return new ShoalError(
    'no_handler_found',
    `no handler found for uri [${uri}] and method [${method}]`,
    400,
    {},
    undefined,
    {
      simple: 'without-status',
    },
  );
}

/**
 * A known path with a method it does not take: 405 with
 * `{"error":"Incorrect HTTP method for uri [/x] and method [PUT], allowed: [GET, POST]","status":405}`
 * and an `Allow: GET,POST` header.
 */
export function methodNotAllowed(uri: string, method: string, allowed: string[]): ShoalError {
  let reason = `Incorrect HTTP method for uri [${uri}] and method [${method}]`;
  const extra: { simple: 'with-status'; httpHeaders?: Record<string, string> } = { simple: 'with-status' };
  if (allowed.length > 0) {
    reason += `, allowed: [${allowed.join(', ')}]`;
    extra.httpHeaders = { Allow: allowed.join(',') };
  }
  return new ShoalError('method_not_allowed', reason, 405, {}, undefined, extra);
}

/**
 * URL parameters the handler does not consume (BaseRestHandler.unrecognized):
 * `request [/_search] contains unrecognized parameter: [sizee] -> did you mean [size]?`.
 */
export function unrecognizedParameters(
  path: string,
  invalid: string[],
  candidates: Iterable<string>,
): ShoalError {
  const known = [...candidates];
  const parts = invalid.map((p) => {
    const keys = similarKeys(p, known, 0.5, true);
    if (keys.length === 0) return `[${p}]`;
    return `[${p}] -> did you mean ${keys.length === 1 ? `[${keys[0]}]` : `any of [${keys.join(', ')}]`}?`;
  });
  const noun = invalid.length > 1 ? 'parameters' : 'parameter';
  return new ShoalError(
    'illegal_argument_exception',
    `request [${path}] contains unrecognized ${noun}: ${parts.join(', ')}`,
    400,
  );
}
