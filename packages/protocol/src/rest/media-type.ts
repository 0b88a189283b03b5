/**
 * Content negotiation as Elasticsearch 8 does it (ParsedMediaType, XContentType,
 * RestCompatibleVersionHelper, RestController): which body a request may carry, what to answer
 * with, and the REST-compatibility version asked for with
 * `application/vnd.elasticsearch+json; compatible-with=7|8`.
 */
import {
  contentTypeNotSupported,
  illegalArgument,
  mediaTypeHeader,
  notImplemented,
  numberFormat,
  statusException,
} from '../errors/catalogue.ts';
import type { ShoalError } from '../errors/shoal-error.ts';

/** The XContent formats Shoal reads and writes (SMILE stays a 501). */
export type XContentFormat = 'json' | 'yaml' | 'cbor';

export interface MediaTypeChoice {
  /** The response Content-Type. */
  responseContentType: string;
  /** What the request body is written in. */
  requestFormat: XContentFormat;
  /** What the response is written in: the Accept header's, else the request body's. */
  responseFormat: XContentFormat;
  /** The REST API version the client asked for (8 unless it asked for 7). */
  compatibleWith: 7 | 8;
  /** Whether the request body was declared newline-delimited (`_bulk`, `_msearch`). */
  requestNdjson: boolean;
}

interface ParsedMediaType {
  type: string;
  subtype: string;
  params: Record<string, string>;
}

const CURRENT = 8;
const MINIMUM = 7;
const TCHAR = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;
/** The Content-Type of a response in each format. */
const FORMAT_CONTENT_TYPE: Record<XContentFormat, string> = {
  json: 'application/json',
  yaml: 'application/yaml',
  cbor: 'application/cbor',
};
/** Browser-safelisted types, always refused (CSRF protection). */
const SAFELISTED = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/**
 * The response Content-Type for a request's `Accept` and `Content-Type` headers
 * (`application/json`, or `application/vnd.elasticsearch+json;compatible-with=7|8`), with the
 * same errors as negotiateRequest. Without `hasBody`, the Content-Type only matters for its
 * compatible-with version.
 */
export function negotiateMediaType(
  accept: string | undefined,
  contentType: string | undefined,
  opts: { hasBody: boolean } = { hasBody: false },
): string {
  return negotiateRequest(accept, contentType, opts).responseContentType;
}

/**
 * Everything negotiation decides for a request, in Elasticsearch's order.
 * `accept` / `contentType` are the raw header values (undefined when absent); `hasBody` is whether
 * the request carries content.
 *
 * First what RestRequest's constructor checks for every request, routed or not: both headers
 * parse (400 media_type_header_exception naming the header) and their compatible-with versions
 * agree (400 media_type_header_exception on [Accept, Content-Type]). Then, once a handler is found
 * (`routed`, the default), what RestController.dispatchRequest checks for a request with content:
 * a missing, browser-safelisted or unknown Content-Type is 406 with the flat body of
 * sendContentTypeErrorMessage. A request without content is never refused for its Content-Type.
 */
export function negotiateRequest(
  accept: string | undefined,
  contentType: string | undefined,
  opts: { hasBody: boolean; routed?: boolean },
): MediaTypeChoice {
  const parsedAccept = parseHeader(accept, 'Accept');
  const parsedContent = parseHeader(contentType, 'Content-Type');
  const compatibleWith = compatibleVersion(accept, contentType, parsedAccept, parsedContent, opts.hasBody);

  let requestNdjson = false;
  let requestFormat: XContentFormat = 'json';
  if (opts.hasBody && opts.routed !== false) {
    const kind = parsedContent ? xcontentKind(parsedContent) : undefined;
    if (parsedContent === undefined || kind === undefined || SAFELISTED.has(base(parsedContent))) {
      throw contentTypeNotSupported(contentType === undefined ? undefined : [contentType]);
    }
    if (kind === 'smile') throw notImplemented(`reading [${base(parsedContent)}] request bodies`);
    requestNdjson = kind === 'ndjson';
    if (kind === 'yaml' || kind === 'cbor') requestFormat = kind;
  }

  const acceptKind = parsedAccept ? xcontentKind(parsedAccept) : undefined;
  if (acceptKind === 'smile') throw notImplemented(`writing [${base(parsedAccept!)}] responses`);
  // AbstractRestChannel: without an Accept, a response is written as the request body was.
  const responseFormat: XContentFormat =
    acceptKind === 'yaml' || acceptKind === 'cbor'
      ? acceptKind
      : acceptKind === undefined
        ? requestFormat
        : 'json';
  const vnd = parsedAccept?.subtype.startsWith('vnd.elasticsearch+') ?? false;
  const responseContentType =
    responseFormat !== 'json'
      ? FORMAT_CONTENT_TYPE[responseFormat]
      : vnd
        ? `application/vnd.elasticsearch+json;compatible-with=${compatibleWith}`
        : 'application/json';
  return { responseContentType, compatibleWith, requestNdjson, requestFormat, responseFormat };
}

/** A response's format and Content-Type for the `format` parameter (it outranks Accept); undefined for others. */
export function formatParam(
  format: string | undefined,
): { format: XContentFormat; contentType: string } | undefined {
  const f = format?.toLowerCase();
  if (f === 'json' || f === 'yaml' || f === 'cbor') return { format: f, contentType: FORMAT_CONTENT_TYPE[f] };
  if (f === 'smile') throw notImplemented('writing [application/smile] responses');
  return undefined;
}

function base(m: ParsedMediaType): string {
  return `${m.type}/${m.subtype}`;
}

/** ParsedMediaType.parseMediaType; a media range (comma list) or `*\/*` counts as absent. */
function parseHeader(value: string | undefined, name: string): ParsedMediaType | undefined {
  if (value === undefined) return undefined;
  const fail = (msg: string): ShoalError => mediaTypeHeader([name], illegalArgument(msg));
  // RestRequest.parseHeaderWithMediaType refuses a header without text before parsing it.
  if (value.trim() === '') throw fail(`Header [${name}] cannot be empty.`);
  if (value.includes(',') || value.trim() === '*/*') return undefined;
  const elements = value.toLowerCase().split(/[\s\t]*;/);
  const parts = elements[0]!.split('/');
  if (parts.length !== 2 || !TCHAR.test(parts[0]!.trim()) || !TCHAR.test(parts[1]!.trim())) {
    throw fail(`invalid media-type [${value}]`);
  }
  const params: Record<string, string> = {};
  for (const element of elements.slice(1)) {
    const p = element.trim();
    if (p === '') continue;
    const kv = p.split('=');
    if (kv.length !== 2 || /\s$/.test(kv[0]!) || /^\s/.test(kv[1]!))
      throw fail(`invalid parameters for header [${value}]`);
    params[kv[0]!.trim()] = kv[1]!.trim();
  }
  return { type: parts[0]!.trim(), subtype: parts[1]!.trim(), params };
}

/** What XContentType a media type names: JSON (with ndjson), YAML, CBOR, SMILE, or none. */
function xcontentKind(m: ParsedMediaType): 'json' | 'ndjson' | 'yaml' | 'cbor' | 'smile' | undefined {
  const t = base(m);
  if (t === 'application/json' || t === 'application/*' || t === 'application/vnd.elasticsearch+json')
    return 'json';
  if (t === 'application/x-ndjson' || t === 'application/vnd.elasticsearch+x-ndjson') return 'ndjson';
  const other = /^application\/(?:vnd\.elasticsearch\+)?(yaml|smile|cbor)$/.exec(t);
  return other ? (other[1] as 'yaml' | 'cbor' | 'smile') : undefined;
}

/**
 * RestCompatibleVersionHelper.parseVersion: the compatible-with parameter of any media type.
 * Elasticsearch's Byte.parseByte fails on a non-number outside its error handling; Shoal answers
 * that header with a 400 media_type_header_exception like the other version errors.
 */
function versionOf(m: ParsedMediaType | undefined): number | undefined {
  const v = m?.params['compatible-with'];
  if (v === undefined) return undefined;
  if (!/^[+-]?\d+$/.test(v)) throw mediaTypeHeader(['Accept', 'Content-Type'], numberFormat(v));
  return Number(v);
}

/** RestCompatibleVersionHelper.getCompatibleVersion. */
function compatibleVersion(
  acceptHeader: string | undefined,
  contentTypeHeader: string | undefined,
  accept: ParsedMediaType | undefined,
  content: ParsedMediaType | undefined,
  hasBody: boolean,
): 7 | 8 {
  const a = versionOf(accept);
  const c = versionOf(content);
  // Java prints a missing header as `null`.
  const acceptText = acceptHeader ?? 'null';
  const contentText = contentTypeHeader ?? 'null';
  const acceptVersion = a ?? CURRENT;
  const contentVersion = c ?? CURRENT;
  const fail = (msg: string): ShoalError =>
    mediaTypeHeader(['Accept', 'Content-Type'], statusException(msg, 400));
  if (acceptVersion > CURRENT || acceptVersion < MINIMUM) {
    throw fail(
      `Accept version must be either version ${CURRENT} or ${MINIMUM}, but found ${acceptVersion}. Accept=${acceptText}`,
    );
  }
  if (hasBody) {
    if (contentVersion > CURRENT || contentVersion < MINIMUM) {
      throw fail(
        `Content-Type version must be either version ${CURRENT} or ${MINIMUM}, but found ${contentVersion}. Content-Type=${contentText}`,
      );
    }
    if (contentVersion !== acceptVersion) {
      throw fail(
        'A compatible version is required on both Content-Type and Accept headers if either one has requested a ' +
          `compatible version and the compatible versions must match. Accept=${acceptText}, Content-Type=${contentText}`,
      );
    }
    if ((c === undefined) !== (a === undefined)) {
      throw fail(
        'A compatible version is required on both Content-Type and Accept headers if either one has requested a ' +
          `compatible version. Accept=${acceptText}, Content-Type=${contentText}`,
      );
    }
    if (contentVersion < CURRENT) return 7;
  }
  return acceptVersion < CURRENT ? 7 : 8;
}
