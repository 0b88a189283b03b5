/**
 * Response JSON, written as Elasticsearch (Jackson) writes it:
 * - bigint as an exact integer literal, never through a number;
 * - NaN and ±Infinity as the strings "NaN", "Infinity", "-Infinity" (Jackson's
 *   QUOTE_NON_NUMERIC_NUMBERS default);
 * - RawJson spliced verbatim — except under `?pretty`, where Elasticsearch re-parses raw
 *   objects and arrays so they are indented like the rest (a raw scalar stays as it is);
 * - `?pretty` as Jackson's DefaultPrettyPrinter with Elasticsearch's indenter: 2 spaces,
 *   `"key" : value`, one array element per line, `{ }` and `[ ]` when empty, a final newline.
 *
 * Compact output is one native JSON.stringify: a first walk finds whether anything needs care;
 * if so, bigints and RawJson turn into placeholders (through toJSON hooks) that one regex pass
 * swaps back, and a replacer quotes non-finite numbers. A string of the caller's that happens to look like a
 * placeholder is detected by count, and the slower exact writer takes over.
 *
 * A small value that needs care — a `_search` body is a dozen fields around its raw hits — goes
 * straight to the exact writer: for it, the marker pass (a prototype patch, toJSON calls
 * and a regex over the whole output, raw text included) costs many times the walk.
 */
import { blockBytes } from './byte-blocks.ts';
import { jsonString, OBJECT, primitive } from './json-scalars.ts';
import { RawJson, type RawJsonWriter, withRawMarkers } from './raw-json.ts';

const PLACEHOLDER = /"\\u0000([BR])([^"\\]*)"/g;

export function stringifyJson(value: unknown, pretty = false): string {
  if (pretty) return `${write(value, '\n', true) ?? 'null'}\n`;
  const scan: Scan = { big: false, nonFinite: false, raw: false, nodes: 0 };
  scanValue(value, scan, 0);
  return writeAfterScan(value, scan);
}

function writeAfterScan(value: unknown, scan: Scan): string {
  if (!scan.big && !scan.nonFinite && !scan.raw) return JSON.stringify(value) ?? 'null';
  if (scan.nodes <= SMALL_VALUE_NODES) return compact(value) ?? 'null';
  const replacer = scan.nonFinite
    ? (_k: string, v: unknown): unknown => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)
    : undefined;
  let bigints = 0;
  const { result, raws } = withRawMarkers(() => {
    if (!scan.big) return JSON.stringify(value, replacer);
    // BigInt.prototype.toJSON exists only for the duration of this synchronous call: a native
    // toJSON hook is several times faster than a replacer function.
    const proto = BigInt.prototype as { toJSON?: (this: bigint) => string };
    const previous = Object.getOwnPropertyDescriptor(proto, 'toJSON');
    Object.defineProperty(proto, 'toJSON', {
      configurable: true,
      writable: true,
      value(this: bigint): string {
        bigints++;
        return `\u0000B${this}`;
      },
    });
    try {
      return JSON.stringify(value, replacer);
    } finally {
      if (previous) Object.defineProperty(proto, 'toJSON', previous);
      else delete proto.toJSON;
    }
  });
  if (result === undefined) return 'null';
  let found = 0;
  const out = result.replace(PLACEHOLDER, (_m, kind: string, payload: string) => {
    found++;
    return kind === 'B' ? payload : (raws[Number(payload)] ?? 'null');
  });
  if (found !== bigints + raws.length) return write(value, null, false) ?? 'null';
  return out;
}

/**
 * Compact JSON, as stringifyJson writes it, or as UTF-8 bytes for a small value holding large
 * raw JSON still in bytes (a page of hits rendered by the shards): those raw bytes are copied
 * into the output as they are, never decoded to text and encoded again.
 */
export function stringifyJsonBytes(value: unknown): string | Uint8Array {
  // A whole body already in bytes (a rendered first page's `_search` answer) goes out as it is.
  if (value instanceof RawJson) return value.bytes ?? value.text;
  const scan: Scan = { big: false, nonFinite: false, raw: false, nodes: 0 };
  scanValue(value, scan, 0);
  if (!scan.raw || scan.nodes > SMALL_VALUE_NODES) return writeAfterScan(value, scan);
  const spliced: RawJsonWriter[] = [];
  splicing = spliced;
  let text: string | undefined;
  try {
    text = compact(value);
  } finally {
    splicing = null;
  }
  if (text === undefined) return 'null';
  if (spliced.length === 0) return text;
  return spliceBytes(text, spliced);
}

/** `text` as UTF-8 with each NUL in it replaced by the next spliced value's bytes. */
function spliceBytes(text: string, spliced: RawJsonWriter[]): Uint8Array {
  // Each NUL is one byte of the text that is not written.
  let size = Buffer.byteLength(text) - spliced.length;
  for (const b of spliced) size += b.byteLength;
  const out = blockBytes(size);
  let at = 0;
  let from = 0;
  for (const b of spliced) {
    // Each spliced raw value left one NUL in the text: no JSON text has one unescaped.
    const nul = text.indexOf('\u0000', from);
    if (nul > from) at += out.write(text.slice(from, nul), at);
    b.writeTo(out, at);
    at += b.byteLength;
    from = nul + 1;
  }
  if (from < text.length) out.write(from === 0 ? text : text.slice(from), at);
  return out;
}

/**
 * Raw JSON bytes at least this large are spliced as bytes by stringifyJsonBytes; smaller ones
 * are decoded, which costs less than cutting the text around them. Raw JSON still to be
 * assembled (a writer: a page of hits its shards rendered) is always spliced.
 */
const SPLICE_MIN_BYTES = 4096;
/** While stringifyJsonBytes runs: the raw byte values compact() left a NUL for, in order. */
let splicing: RawJsonWriter[] | null = null;

function rawText(v: RawJson): string {
  if (splicing !== null && (v.byteLength >= SPLICE_MIN_BYTES || v.unassembled)) {
    splicing.push(v.writer!);
    return '\u0000';
  }
  return v.text;
}

/** Objects and arrays up to which the exact writer beats the marker pass. */
const SMALL_VALUE_NODES = 64;

/** Whether anything needs the careful path: bigint, a non-finite number, RawJson. */
interface Scan {
  big: boolean;
  nonFinite: boolean;
  raw: boolean;
  /** Objects and arrays walked (RawJson not included). */
  nodes: number;
}

function scanValue(v: unknown, scan: Scan, depth: number): void {
  if (typeof v === 'bigint') {
    scan.big = true;
    return;
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) scan.nonFinite = true;
    return;
  }
  if (typeof v !== 'object' || v === null) return;
  if (v instanceof RawJson) {
    scan.raw = true;
    return;
  }
  scan.nodes++;
  // Deeper than any response Shoal builds: assume everything rather than walk on.
  if (depth > 200) {
    scan.big = scan.nonFinite = true;
    return;
  }
  if (Array.isArray(v)) {
    for (const x of v) {
      scanValue(x, scan, depth + 1);
      if (scan.big && scan.nonFinite && scan.raw && scan.nodes > SMALL_VALUE_NODES) return;
    }
    return;
  }
  for (const k in v as Record<string, unknown>) {
    scanValue((v as Record<string, unknown>)[k], scan, depth + 1);
    if (scan.big && scan.nonFinite && scan.raw && scan.nodes > SMALL_VALUE_NODES) return;
  }
}

/**
 * The exact writer's compact form, by string concatenation: JSON.stringify's output (own
 * enumerable keys in their order, toJSON, undefined and functions left out of objects and
 * written as null in arrays), with bigint exact, non-finite numbers quoted and RawJson spliced.
 */
function compact(v: unknown): string | undefined {
  const p = primitive(v);
  if (p !== OBJECT) return p;
  if (v instanceof RawJson) return rawText(v);
  const withToJson = v as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return compact(withToJson.toJSON());
  if (v instanceof Number || v instanceof String || v instanceof Boolean) return compact(v.valueOf());
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out += ',';
      out += compact(v[i]) ?? 'null';
    }
    return `${out}]`;
  }
  let out = '';
  for (const k of Object.keys(v as Record<string, unknown>)) {
    const s = compact((v as Record<string, unknown>)[k]);
    if (s === undefined) continue;
    out += `${out.length === 0 ? '{' : ','}${jsonString(k)}:${s}`;
  }
  return out.length === 0 ? '{}' : `${out}}`;
}

/**
 * The exact writer: pretty (`newline` is '\n' plus the current indent) or compact (`newline`
 * null). Returns undefined for values JSON leaves out (undefined, functions, symbols).
 */
function write(v: unknown, newline: string | null, reparseRaw: boolean): string | undefined {
  const p = primitive(v);
  if (p !== OBJECT) return p;
  if (v instanceof RawJson)
    // A raw scalar (an aggregation's `15.0`) has nothing to indent: it keeps its exact text.
    return reparseRaw && !v.isScalar ? write(v.parse(), newline, true) : v.text;
  const withToJson = v as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return write(withToJson.toJSON(), newline, reparseRaw);
  const inner = newline === null ? null : `${newline}  `;
  if (Array.isArray(v)) {
    if (v.length === 0) return newline === null ? '[]' : '[ ]';
    const items = v.map((x) => write(x, inner, reparseRaw) ?? 'null');
    return inner === null ? `[${items.join(',')}]` : `[${inner}${items.join(`,${inner}`)}${newline}]`;
  }
  const parts: string[] = [];
  const sep = newline === null ? ':' : ' : ';
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const s = write(x, inner, reparseRaw);
    if (s !== undefined) parts.push(`${JSON.stringify(k)}${sep}${s}`);
  }
  if (parts.length === 0) return newline === null ? '{}' : '{ }';
  return inner === null ? `{${parts.join(',')}}` : `{${inner}${parts.join(`,${inner}`)}${newline}}`;
}
