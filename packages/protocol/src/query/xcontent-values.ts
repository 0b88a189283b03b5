/**
 * The value accessors of Elasticsearch's XContentParser (`floatValue`, `intValue`, `booleanValue`,
 * `text`, …) over decoded JSON values, with the coercions and the exact failures they produce:
 * numbers given as strings are accepted, `"true"`/`"false"` are booleans, and anything else fails
 * the way the Java parser does.
 *
 * `key` names the child of `ctx.path` that holds `v` (omit it when `v` sits at `ctx.path`).
 */
import { illegalArgument } from '../errors/catalogue.ts';
import type { JsonScalar } from './ast.ts';
import type { PathSeg } from './json-location.ts';
import { illegalStateError, numberFormatError, xContentParseError } from './local-errors.ts';
import { here, onValue, type ParseCtx, tokenOf } from './parse-context.ts';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** Java's decimal floating-point literal grammar (Double.parseDouble / Float.parseFloat). */
const JAVA_FLOAT = /^[+-]?(?:NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)$/;

/** Double.parseDouble: trims, accepts `1e3`, `2f`, `NaN`; throws NumberFormatException otherwise. */
export function javaParseDouble(s: string): number {
  const t = javaTrim(s);
  if (t.length === 0) throw numberFormatError('empty String');
  if (!JAVA_FLOAT.test(t)) throw numberFormatError(`For input string: "${t}"`);
  const last = t.charCodeAt(t.length - 1);
  // f F d D suffixes
  const core = last === 102 || last === 70 || last === 100 || last === 68 ? t.slice(0, -1) : t;
  return Number(core);
}

function javaTrim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) <= 32) start++;
  while (end > start && s.charCodeAt(end - 1) <= 32) end--;
  return s.slice(start, end);
}

/** Jackson's token name, as its "Current token (…)" messages spell it. */
function jacksonToken(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'VALUE_TRUE' : 'VALUE_FALSE';
  if (typeof v === 'number') return Number.isInteger(v) ? 'VALUE_NUMBER_INT' : 'VALUE_NUMBER_FLOAT';
  if (typeof v === 'bigint') return 'VALUE_NUMBER_INT';
  return tokenOf(v);
}

function notNumeric(ctx: ParseCtx, v: unknown, key?: PathSeg) {
  return xContentParseError(
    `Current token (${jacksonToken(v)}) not numeric, can not use numeric value accessors`,
    here(ctx, 'value', key),
  );
}

/** XContentParser.floatValue(): a float (Math.fround), from a number or a numeric string. */
export function floatValue(ctx: ParseCtx, v: unknown, key?: PathSeg): number {
  if (typeof v === 'number') return Math.fround(v);
  if (typeof v === 'bigint') return Math.fround(Number(v));
  if (typeof v === 'string') return onValue(ctx, key, () => Math.fround(javaParseDouble(v)));
  throw notNumeric(ctx, v, key);
}

/** XContentParser.doubleValue(). */
export function doubleValue(ctx: ParseCtx, v: unknown, key?: PathSeg): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') return onValue(ctx, key, () => javaParseDouble(v));
  throw notNumeric(ctx, v, key);
}

/** XContentParser.intValue() with coercion: truncates decimals, rejects values outside int. */
export function intValue(ctx: ParseCtx, v: unknown, key?: PathSeg): number {
  if (typeof v === 'number' || typeof v === 'bigint') {
    const n = Number(v);
    if (n < INT_MIN || n > INT_MAX || Number.isNaN(n)) {
      throw xContentParseError(
        `Numeric value (${String(v)}) out of range of int (${INT_MIN} - ${INT_MAX})`,
        here(ctx, 'value', key),
      );
    }
    return Math.trunc(n);
  }
  if (typeof v === 'string') {
    return onValue(ctx, key, () => {
      const d = javaParseDouble(v);
      if (d < INT_MIN || d > INT_MAX) throw illegalArgument(`Value [${v}] is out of range for an integer`);
      return Math.trunc(d) | 0;
    });
  }
  throw notNumeric(ctx, v, key);
}

/** XContentParser.booleanValue(): booleans, or the strings `true`/`false` (empty means false). */
export function booleanValue(ctx: ParseCtx, v: unknown, key?: PathSeg): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') {
    if (v === 'true') return true;
    if (v === 'false' || v.length === 0) return false;
    here(ctx, 'value', key);
    throw illegalArgument(`Failed to parse value [${v}] as only [true] or [false] are allowed.`);
  }
  throw xContentParseError(`Current token (${jacksonToken(v)}) not of boolean type`, here(ctx, 'value', key));
}

/** Text of a scalar as the JSON parser gives it. */
export function scalarText(v: string | number | bigint | boolean): string {
  return typeof v === 'string' ? v : String(v);
}

/** XContentParser.text(): the text of a scalar; on anything else the Java parser gives up. */
export function text(ctx: ParseCtx, v: unknown, key?: PathSeg): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  const loc = here(ctx, 'value', key);
  throw illegalStateError(`Can't get text on a ${tokenOf(v)} at ${loc.line}:${loc.col}`);
}

/** XContentParser.textOrNull(). */
export function textOrNull(ctx: ParseCtx, v: unknown, key?: PathSeg): string | null {
  return v === null ? null : text(ctx, v, key);
}

/** XContentParser.objectText() / objectBytes(): the scalar itself (numbers stay numbers). */
export function objectText(ctx: ParseCtx, v: unknown, key?: PathSeg): JsonScalar {
  if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v;
  text(ctx, v, key);
  return null;
}
