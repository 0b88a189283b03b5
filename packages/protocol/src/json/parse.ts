/**
 * Request-body JSON: `parseJson` reads text or bytes the way Elasticsearch does (see
 * strict-parse.ts) as fast as JSON.parse allows.
 *
 * Fast path: plain JSON.parse when no run of 16+ digits can hold an unsafe integer; a cheap
 * key count then proves there were no duplicate keys (which JSON.parse silently merges and
 * Elasticsearch rejects). Everything else — big integers, comments, duplicates, syntax errors
 * — goes through the strict parser, which also writes Jackson's error positions.
 *
 * Shoal does not use json-bigint here: with native bigint it throws on any 16+ character
 * decimal (`BigInt("0.1234567890123456")`), accepts malformed numbers, and rejects a
 * `constructor` key by default.
 */
import { parseException } from '../errors/catalogue.ts';
import type { ShoalError } from '../errors/shoal-error.ts';
import { strictParse } from './strict-parse.ts';
import { JsonSyntaxError } from './syntax-error.ts';

const BIG_NUMBER_RUN = /\d{16}/;
/** What `trim()` would keep (the same white space), without copying the text. */
const NOT_BLANK = /\S/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a JSON body. Integers outside ±2^53 come back as bigint, all others as number.
 * An empty (or blank) body is 400 parse_exception `<what> is required` (`request body is required`);
 * malformed JSON is 400 x_content_parse_exception `[line:col] <Jackson message>` caused by
 * json_parse_exception, or x_content_e_o_f_exception when the body stops early.
 */
export function parseJson(input: string | Uint8Array, what = 'request body'): unknown {
  const text = typeof input === 'string' ? input : decodeUtf8(input);
  if (!NOT_BLANK.test(text)) throw parseException(`${what} is required`);
  if (!BIG_NUMBER_RUN.test(text)) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return parseStrict(text);
    }
    if (value === null || typeof value !== 'object' || keyTokens(text) === countKeys(value)) return value;
  }
  return parseStrict(text);
}

function parseStrict(text: string): unknown {
  try {
    return strictParse(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw e.toShoalError(text);
    throw e;
  }
}

/**
 * Counts the object keys in valid JSON text: string tokens followed by a colon. Outside strings
 * JSON has no quotes, so each quote found from the end of the previous string opens a string.
 */
function keyTokens(text: string): number {
  let keys = 0;
  let i = text.indexOf('"');
  while (i !== -1) {
    let end = text.indexOf('"', i + 1);
    while (isEscaped(text, end)) end = text.indexOf('"', end + 1);
    let k = end + 1;
    let c = text.charCodeAt(k);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++k);
    if (c === 0x3a) keys++;
    i = text.indexOf('"', k);
  }
  return keys;
}

/** Whether the quote at `at` is escaped: preceded by an odd number of backslashes. */
function isEscaped(text: string, at: number): boolean {
  let k = at - 1;
  while (text.charCodeAt(k) === 0x5c) k--;
  return (at - 1 - k) % 2 === 1;
}

function countKeys(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  let total = 0;
  if (Array.isArray(v)) {
    for (const x of v) if (x !== null && typeof x === 'object') total += countKeys(x);
    return total;
  }
  for (const k in v as Record<string, unknown>) {
    total++;
    const x = (v as Record<string, unknown>)[k];
    if (x !== null && typeof x === 'object') total += countKeys(x);
  }
  return total;
}

/** UTF-8 bytes to text; a leading BOM is dropped, invalid bytes are Jackson's 400 error. */
function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalidUtf8(bytes);
  }
}

function invalidUtf8(bytes: Uint8Array): ShoalError {
  let line = 1;
  let lineStart = 0;
  let k = 0;
  let text = '';
  while (k < bytes.length) {
    const b = bytes[k]!;
    const len =
      b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (len === 0) {
      text = `Invalid UTF-8 start byte 0x${b.toString(16)}`;
      break;
    }
    let bad = -1;
    for (let j = 1; j < len; j++) {
      const m = bytes[k + j];
      if (m === undefined || (m & 0xc0) !== 0x80) {
        bad = k + j;
        break;
      }
    }
    if (bad !== -1) {
      const m = bytes[bad];
      text =
        m === undefined
          ? 'Unexpected end-of-input in a UTF-8 sequence'
          : `Invalid UTF-8 middle byte 0x${m.toString(16)}`;
      k = bad;
      break;
    }
    if (b === 0x0a) {
      line++;
      lineStart = k + 1;
    }
    k += len;
  }
  if (text === '') text = 'Invalid UTF-8 sequence';
  const err = new JsonSyntaxError(text, 0, false);
  return err.toShoalErrorAt(line, k - lineStart + 2);
}
