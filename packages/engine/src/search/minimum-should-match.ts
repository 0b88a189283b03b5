/**
 * Elasticsearch's `minimum_should_match` (Queries.calculateMinShouldMatch): an integer (`3`),
 * a negative integer (`-2`: all but two), a percentage (`75%`, `-25%`, rounded toward zero in
 * float arithmetic), or conditional specs `3<90%` / `2<-25% 9<-3` that apply when the number
 * of optional clauses is above the bound. The result is never below 0 and never clamped to
 * the number of optional clauses: a bool that needs more should clauses than it has matches
 * nothing (Lucene's BooleanQuery).
 *
 * The text is read as Java reads it: String.trim, the `\s` of java.util.regex (ASCII only),
 * Pattern.split (trailing empty pieces dropped) and Integer.parseInt (an optional `+` or `-`,
 * then digits, Unicode decimal digits included; no spaces; within int range). A piece it cannot
 * read fails the shard's query as `failed to create query: <Java message>`
 * (SearchExecutionContext.toQuery) with the Java exception as the cause.
 */
import { numberFormat, ShoalError } from '@shoal/protocol';
import { failedToCreateQuery, type ShardContext } from './field-values.ts';

/**
 * `ctx` names the shard in the query_shard_exception a bad spec raises; without it the Java
 * exception itself is thrown.
 */
export function minimumShouldMatch(
  optionalClauses: number,
  spec: string | undefined,
  ctx?: ShardContext,
): number {
  if (spec === undefined) return 0;
  try {
    return calculate(optionalClauses, spec);
  } catch (e) {
    if (ctx && e instanceof ShoalError) throw failedToCreateQuery(ctx, e);
    throw e;
  }
}

/** java.util.regex `(\s+<\s*)|(\s*<\s+)`: `\s` is [ \t\n\x0B\f\r] without UNICODE_CHARACTER_CLASS. */
const SPACE_AROUND_LESS_THAN = /([ \t\n\v\f\r]+<[ \t\n\v\f\r]*)|([ \t\n\v\f\r]*<[ \t\n\v\f\r]+)/g;

function calculate(count: number, text: string): number {
  let result = count;
  let spec = javaTrim(text);
  if (spec.includes('<')) {
    spec = spec.replace(SPACE_AROUND_LESS_THAN, '<');
    for (const s of javaSplit(spec, ' ')) {
      const parts = javaSplit(s, '<');
      const upperBound = parseJavaInt(at(parts, 0));
      if (count <= upperBound) return result;
      result = calculate(count, at(parts, 1));
    }
    return result;
  }
  if (spec.includes('%')) {
    // The `%` is assumed to be the last character; anything else fails in parseInt.
    const percent = parseJavaInt(spec.slice(0, -1));
    // `(result * percent) * (1 / 100f)`: an int product (it wraps), then float arithmetic.
    const calc = Math.fround(Math.fround(Math.imul(result, percent)) * Math.fround(1 / 100));
    result = calc < 0 ? (result + Math.trunc(calc)) | 0 : Math.trunc(calc);
  } else {
    const calc = parseJavaInt(spec);
    result = calc < 0 ? (result + calc) | 0 : calc;
  }
  return Math.max(result, 0);
}

/** String.trim: every char up to U+0020 at either end, and nothing else. */
function javaTrim(s: string): string {
  let from = 0;
  let to = s.length;
  while (from < to && s.charCodeAt(from) <= 0x20) from++;
  while (to > from && s.charCodeAt(to - 1) <= 0x20) to--;
  return s.slice(from, to);
}

/** Pattern.split(s) for a one-char literal: no match keeps `s`, else trailing empty pieces go. */
function javaSplit(s: string, sep: string): string[] {
  const parts = s.split(sep);
  if (parts.length === 1) return parts;
  let n = parts.length;
  while (n > 0 && parts[n - 1] === '') n--;
  return parts.slice(0, n);
}

/** `parts[i]` as Java indexes an array. */
function at(parts: string[], i: number): string {
  const v = parts[i];
  if (v === undefined) {
    throw new ShoalError(
      'array_index_out_of_bounds_exception',
      `Index ${i} out of bounds for length ${parts.length}`,
      500,
    );
  }
  return v;
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** Integer.parseInt(s) (radix 10), failing with its NumberFormatException message. */
function parseJavaInt(s: string): number {
  const len = s.length;
  if (len === 0) throw numberFormat(s);
  let i = 0;
  let negative = false;
  let limit = -INT_MAX;
  const first = s.charCodeAt(0);
  if (first < 0x30) {
    if (first === 0x2d) {
      negative = true;
      limit = INT_MIN;
    } else if (first !== 0x2b) throw numberFormat(s);
    if (len === 1) throw numberFormat(s);
    i++;
  }
  const multmin = Math.trunc(limit / 10);
  let result = 0;
  while (i < len) {
    const digit = decimalDigit(s.charCodeAt(i++));
    if (digit < 0 || result < multmin) throw numberFormat(s);
    result *= 10;
    if (result < limit + digit) throw numberFormat(s);
    result -= digit;
  }
  return negative ? result : -result;
}

const DECIMAL_DIGIT = /^\p{Nd}$/u;

/**
 * Character.digit(ch, 10) on one UTF-16 unit: the value of an ASCII or other Unicode decimal
 * digit (general category Nd, which comes in runs of ten from zero), else -1.
 */
function decimalDigit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code < 0x80 || !DECIMAL_DIGIT.test(String.fromCharCode(code))) return -1;
  let start = code;
  while (DECIMAL_DIGIT.test(String.fromCharCode(start - 1))) start--;
  return (code - start) % 10;
}
