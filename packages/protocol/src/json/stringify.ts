/**
 * Response JSON, written as Elasticsearch (Jackson) writes it:
 * - bigint as an exact integer literal, never through a number;
 * - NaN and ±Infinity as the strings "NaN", "Infinity", "-Infinity" (Jackson's
 *   QUOTE_NON_NUMERIC_NUMBERS default);
 * - RawJson spliced verbatim — except under `?pretty`, where Elasticsearch re-parses raw
 *   fields so they are indented like the rest;
 * - `?pretty` as Jackson's DefaultPrettyPrinter with Elasticsearch's indenter: 2 spaces,
 *   `"key" : value`, one array element per line, `{ }` and `[ ]` when empty, a final newline.
 *
 * Compact output is one native JSON.stringify: a first walk finds whether anything needs care;
 * if so, bigints and RawJson turn into placeholders (through toJSON hooks) that one regex pass
 * swaps back, and a replacer quotes non-finite numbers. A string of the caller's that happens to look like a
 * placeholder is detected by count, and the slower exact writer takes over.
 */
import { RawJson, withRawPlaceholders } from './raw-json.ts';

const PLACEHOLDER = /"\\u0000([BR])([^"\\]*)"/g;

export function stringifyJson(value: unknown, pretty = false): string {
  if (pretty) return `${write(value, '\n', true) ?? 'null'}\n`;
  const scan = { big: false, nonFinite: false, raw: false };
  scanValue(value, scan, 0);
  if (!scan.big && !scan.nonFinite && !scan.raw) return JSON.stringify(value) ?? 'null';
  const replacer = scan.nonFinite
    ? (_k: string, v: unknown): unknown => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v)
    : undefined;
  let bigints = 0;
  const { result, raws } = withRawPlaceholders(() => {
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

/** Whether anything needs the careful path: bigint, a non-finite number, RawJson. */
interface Scan {
  big: boolean;
  nonFinite: boolean;
  raw: boolean;
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
  // Deeper than any response Shoal builds: assume everything rather than walk on.
  if (depth > 200) {
    scan.big = scan.nonFinite = true;
    return;
  }
  if (Array.isArray(v)) {
    for (const x of v) {
      scanValue(x, scan, depth + 1);
      if (scan.big && scan.nonFinite && scan.raw) return;
    }
    return;
  }
  for (const k in v as Record<string, unknown>) {
    scanValue((v as Record<string, unknown>)[k], scan, depth + 1);
    if (scan.big && scan.nonFinite && scan.raw) return;
  }
}

/**
 * The exact writer: pretty (`newline` is '\n' plus the current indent) or compact (`newline`
 * null). Returns undefined for values JSON leaves out (undefined, functions, symbols).
 */
function write(v: unknown, newline: string | null, reparseRaw: boolean): string | undefined {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : `"${v}"`;
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (v === null) return 'null';
  if (v instanceof RawJson) return reparseRaw ? write(v.parse(), newline, true) : v.text;
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
