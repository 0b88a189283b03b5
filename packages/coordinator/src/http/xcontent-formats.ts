/**
 * YAML and CBOR bodies (Elasticsearch's XContentType.YAML and CBOR), at the edge of the HTTP
 * layer: a request body in either is turned into the JSON every handler reads, and a response
 * is written from its JSON form into the format the client asked for (`Accept`, `format`, or
 * the request's own). Integers beyond a double's stay exact both ways.
 */
import {
  notImplemented,
  parseJson,
  stringifyJson,
  stringifyJsonBytes,
  type XContentFormat,
  xContentParse,
} from '@shoal/protocol';
import { decode as decodeCbor, encode as encodeCbor } from 'cborg';
import { parse as parseYaml, stringify as stringifyYaml, YAMLParseError } from 'yaml';

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Integers within a double's exact range as numbers, others as bigint (parseJson's convention). */
function normalise(v: unknown): unknown {
  if (typeof v === 'bigint') return v >= -SAFE && v <= SAFE ? Number(v) : v;
  if (Array.isArray(v)) return v.map(normalise);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = normalise(x);
    return out;
  }
  return v;
}

/** The APIs whose bodies are a stream of documents (newline-delimited in JSON). */
const STREAMED = /\/_(bulk|msearch)(\/template)?$/;

/** A YAML or CBOR request body as JSON bytes. */
export function bodyAsJson(body: Buffer, format: XContentFormat, routePath = ''): Buffer {
  if (format === 'json') return body;
  if (STREAMED.test(routePath)) {
    throw notImplemented(
      `[${format === 'yaml' ? 'application/yaml' : 'application/cbor'}] bodies for _bulk and _msearch`,
    );
  }
  let value: unknown;
  if (format === 'yaml') {
    try {
      value = parseYaml(body.toString('utf8'), { intAsBigInt: true, uniqueKeys: true });
    } catch (e) {
      if (!(e instanceof YAMLParseError)) throw e;
      const at = e.linePos?.[0];
      throw xContentParse(at?.line ?? 1, at?.col ?? 1, e.message.split('\n')[0]!);
    }
  } else {
    try {
      value = decodeCbor(body, { useMaps: false, rejectDuplicateMapKeys: true });
    } catch (e) {
      throw xContentParse(1, 1, `Failed to parse CBOR: ${(e as Error).message}`);
    }
  }
  return Buffer.from(stringifyJson(normalise(value)));
}

/** A response value, as JSON would write it, in YAML or CBOR. */
export function encodeAs(value: unknown, format: 'yaml' | 'cbor'): string | Uint8Array {
  const json = stringifyJsonBytes(value);
  const plain = parseJson(typeof json === 'string' ? json : Buffer.from(json));
  if (format === 'yaml') return stringifyYaml(plain, { directives: true });
  // Keys keep the response's order (cborg sorts them unless told not to).
  return encodeCbor(plain, { mapSorter: null as never });
}
