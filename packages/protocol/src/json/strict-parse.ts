/**
 * A JSON parser that reads request bodies the way Elasticsearch's Jackson setup does
 * (JsonXContentImpl): comments allowed, duplicate keys rejected, integers beyond ±2^53 kept
 * exact as bigint, and Jackson's error texts and line/column positions. parse.ts uses it when
 * the fast path (JSON.parse) cannot: big integers, comments, or any syntax error.
 */
import { JsonSyntaxError } from './syntax-error.ts';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const VALID_VALUES = "(JSON String, Number, Array, Object or token 'null', 'true' or 'false')";

export function strictParse(text: string): unknown {
  let i = 0;
  const n = text.length;

  /** Jackson's `_getCharDesc`. */
  function charDesc(c: number): string {
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return `(CTRL-CHAR, code ${c})`;
    const ch = String.fromCharCode(c);
    if (c > 255) return `'${ch}' (code ${c} / 0x${c.toString(16)})`;
    return `'${ch}' (code ${c})`;
  }

  /** Positions are "after the offending character", as Jackson reports them. */
  function unexpected(at: number, what: string): never {
    throw new JsonSyntaxError(
      `Unexpected character (${charDesc(text.charCodeAt(at))}): ${what}`,
      at + 1,
      false,
    );
  }

  function eof(what: string): never {
    throw new JsonSyntaxError(`Unexpected end-of-input${what}`, n, true);
  }

  function closeMarker(kind: 'Object' | 'Array', start: number): string {
    return `: expected close marker for ${kind} (start marker at ${JsonSyntaxError.sourceAt(text, start)})`;
  }

  /** Skips whitespace and comments; returns the next char code or -1 at the end. */
  function skip(): number {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
      } else if (c === 0x2f) {
        const d = text.charCodeAt(i + 1);
        if (d === 0x2a) {
          const end = text.indexOf('*/', i + 2);
          if (end === -1) {
            i = n;
            eof(' in a comment');
          }
          i = end + 2;
        } else if (d === 0x2f) {
          while (i < n && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) i++;
        } else {
          if (i + 1 >= n) eof(' in a comment');
          unexpected(i + 1, "was expecting either '*' or '/' for a comment");
        }
      } else {
        return c;
      }
    }
    return -1;
  }

  function value(): unknown {
    const c = skip();
    switch (c) {
      case 0x7b:
        return object();
      case 0x5b:
        return array();
      case 0x22:
        return string();
      case -1:
        return eof(': expected a value');
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return number();
        return word();
    }
  }

  function object(): Record<string, unknown> {
    const start = i;
    i++;
    const obj: Record<string, unknown> = {};
    const seen = new Set<string>();
    let c = skip();
    if (c === 0x7d) {
      i++;
      return obj;
    }
    for (;;) {
      if (c === -1) eof(closeMarker('Object', start));
      if (c !== 0x22) unexpected(i, 'was expecting double-quote to start field name');
      const key = string();
      if (seen.has(key)) throw new JsonSyntaxError(`Duplicate field '${key}'`, i, false);
      seen.add(key);
      c = skip();
      if (c === -1) eof(closeMarker('Object', start));
      if (c !== 0x3a) unexpected(i, 'was expecting a colon to separate field name and value');
      i++;
      if (skip() === -1) eof(closeMarker('Object', start));
      const v = value();
      if (key === '__proto__') {
        Object.defineProperty(obj, key, { value: v, writable: true, enumerable: true, configurable: true });
      } else {
        obj[key] = v;
      }
      c = skip();
      if (c === 0x7d) {
        i++;
        return obj;
      }
      if (c === -1) eof(closeMarker('Object', start));
      if (c !== 0x2c) unexpected(i, 'was expecting comma to separate Object entries');
      i++;
      c = skip();
    }
  }

  function array(): unknown[] {
    const start = i;
    i++;
    const arr: unknown[] = [];
    let c = skip();
    if (c === 0x5d) {
      i++;
      return arr;
    }
    for (;;) {
      if (c === -1) eof(closeMarker('Array', start));
      if (c === 0x5d || c === 0x2c) unexpected(i, 'expected a value');
      arr.push(value());
      c = skip();
      if (c === 0x5d) {
        i++;
        return arr;
      }
      if (c === -1) eof(closeMarker('Array', start));
      if (c !== 0x2c) unexpected(i, 'was expecting comma to separate Array entries');
      i++;
      c = skip();
    }
  }

  function string(): string {
    i++;
    let out = '';
    let from = i;
    for (;;) {
      if (i >= n) eof(': was expecting closing quote for a string value');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(from, i);
        i++;
        return out;
      }
      if (c < 0x20) {
        throw new JsonSyntaxError(
          `Illegal unquoted character (${charDesc(c)}): has to be escaped using backslash to be included in string value`,
          i + 1,
          false,
          true,
        );
      }
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(from, i);
      i++;
      if (i >= n) eof(' in character escape sequence');
      const e = text.charCodeAt(i);
      i++;
      switch (e) {
        case 0x22:
          out += '"';
          break;
        case 0x5c:
          out += '\\';
          break;
        case 0x2f:
          out += '/';
          break;
        case 0x62:
          out += '\b';
          break;
        case 0x66:
          out += '\f';
          break;
        case 0x6e:
          out += '\n';
          break;
        case 0x72:
          out += '\r';
          break;
        case 0x74:
          out += '\t';
          break;
        case 0x75: {
          let code = 0;
          for (let k = 0; k < 4; k++) {
            if (i >= n) eof(' in character escape sequence');
            const h = text.charCodeAt(i);
            const d = hexValue(h);
            if (d < 0) {
              unexpected(i, 'expected a hex-digit for character escape sequence');
            }
            code = code * 16 + d;
            i++;
          }
          out += String.fromCharCode(code);
          break;
        }
        default:
          throw new JsonSyntaxError(`Unrecognized character escape ${charDesc(e)}`, i, false);
      }
      from = i;
    }
  }

  function number(): number | bigint {
    const start = i;
    if (text.charCodeAt(i) === 0x2d) {
      i++;
      const d = text.charCodeAt(i);
      if (i >= n) eof(' in a Number value');
      if (!(d >= 0x30 && d <= 0x39)) {
        throw new JsonSyntaxError(
          `Unexpected character (${charDesc(d)}) in numeric value: expected digit (0-9) to follow minus sign, for valid numeric value`,
          i + 1,
          false,
        );
      }
    }
    if (text.charCodeAt(i) === 0x30 && isDigit(text.charCodeAt(i + 1))) {
      throw new JsonSyntaxError('Invalid numeric value: Leading zeroes not allowed', i + 2, false);
    }
    while (isDigit(text.charCodeAt(i))) i++;
    let integral = true;
    if (text.charCodeAt(i) === 0x2e) {
      integral = false;
      i++;
      if (!isDigit(text.charCodeAt(i))) {
        if (i >= n) eof(' in a Number value');
        throw new JsonSyntaxError(
          `Unexpected character (${charDesc(text.charCodeAt(i))}) in numeric value: Decimal point not followed by a digit`,
          i + 1,
          false,
        );
      }
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      integral = false;
      i++;
      const s = text.charCodeAt(i);
      if (s === 0x2b || s === 0x2d) i++;
      if (!isDigit(text.charCodeAt(i))) {
        if (i >= n) eof(' in a Number value');
        throw new JsonSyntaxError(
          `Unexpected character (${charDesc(text.charCodeAt(i))}) in numeric value: Exponent indicator not followed by a digit`,
          i + 1,
          false,
        );
      }
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const literal = text.slice(start, i);
    if (integral && literal.length > 15) {
      const big = BigInt(literal);
      if (big > MAX_SAFE || big < -MAX_SAFE) return big;
    }
    return Number(literal);
  }

  function word(): boolean | null {
    const start = i;
    for (const [w, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(w, i) && !isIdentPart(text.charCodeAt(i + w.length))) {
        i += w.length;
        return v;
      }
    }
    const c = text.charCodeAt(i);
    // Jackson's _handleUnexpectedValue: closing marks and commas are "expected a value".
    if (c === 0x7d || c === 0x5d || c === 0x2c) unexpected(i, 'expected a value');
    if (!isIdentPart(c)) unexpected(i, `expected a valid value ${VALID_VALUES}`);
    while (i < n && isIdentPart(text.charCodeAt(i))) i++;
    const token = text.slice(start, i);
    if (token === 'NaN' || token === 'Infinity') {
      throw new JsonSyntaxError(
        `Non-standard token '${token}': enable \`JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS\` to allow`,
        i,
        false,
      );
    }
    throw new JsonSyntaxError(`Unrecognized token '${token}': was expecting ${VALID_VALUES}`, i, false);
  }

  const result = value();
  if (skip() !== -1) {
    // Shoal: content after the root value is rejected (Elasticsearch's parsers stop reading at
    // the end of the root object and ignore it, which hides mistakes).
    unexpected(i, 'expected end-of-input after the root value');
  }
  return result;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Java's Character.isJavaIdentifierPart for the ASCII range, which Jackson uses to cut an unknown token. */
function isIdentPart(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x5f ||
    c === 0x24 ||
    c > 0x7f
  );
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}
