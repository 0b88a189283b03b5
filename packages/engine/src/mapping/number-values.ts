/**
 * Numeric field values with Elasticsearch's coercion rules (NumberFieldMapper + XContentParser):
 * with `coerce` (the default) numeric strings are accepted and fractions are truncated for
 * whole-number types; without it both are errors. Values out of a type's range fail. `long`
 * values beyond 2^53 come back as bigint; `float` values are rounded to float precision.
 * Errors are the cause Elasticsearch nests under `failed to parse field …`.
 */
import { illegalArgument, type ShoalError } from '@shoal/protocol';
import { javaDoubleToString, javaParseDouble } from '../dates/index.ts';
import { numberFormat } from './errors.ts';
import type { NumericType } from './params.ts';

export type { NumericType };

const LONG_MIN = -9223372036854775808n;
const LONG_MAX = 9223372036854775807n;
const BIG_DECIMAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const JAVA_CLASS: Record<NumericType, string> = {
  long: 'Long',
  integer: 'Integer',
  short: 'Short',
  byte: 'Byte',
  double: 'Double',
  float: 'Float',
  half_float: 'Float',
  scaled_float: 'Double',
};

const RANGE: Record<'integer' | 'short' | 'byte', [number, number, string, string]> = {
  integer: [-2147483648, 2147483647, 'an integer', 'of int (-2147483648 - 2147483647)'],
  short: [-32768, 32767, 'a short', 'of Java short'],
  byte: [-128, 127, 'a byte', 'of Java byte'],
};

function tokenName(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'VALUE_TRUE' : 'VALUE_FALSE';
  if (Array.isArray(v)) return 'START_ARRAY';
  return 'START_OBJECT';
}

function notNumeric(v: unknown): ShoalError {
  return illegalArgument(`Current token (${tokenName(v)}) not numeric, can not use numeric value accessors`);
}

function numberText(v: number | bigint): string {
  return typeof v === 'bigint' || Number.isInteger(v) ? String(v) : javaDoubleToString(v);
}

/** Numbers.toLong(String, coerce): Long.parseLong, then BigDecimal. */
function stringToLong(s: string, coerce: boolean): number | bigint {
  if (/^[+-]?\d+$/.test(s)) {
    const b = BigInt(s);
    if (b < LONG_MIN || b > LONG_MAX) throw illegalArgument(`Value [${s}] is out of range for a long`);
    return Number.isSafeInteger(Number(b)) ? Number(b) : b;
  }
  if (!BIG_DECIMAL_RE.test(s)) throw illegalArgument(`For input string: "${s}"`);
  const d = Number(s);
  if (!Number.isFinite(d) || d >= 9.223372036854776e18 || d <= -9.223372036854776e18) {
    throw illegalArgument(`Value [${s}] is out of range for a long`);
  }
  if (!coerce && !Number.isInteger(d)) throw illegalArgument(`Value [${s}] has a decimal part`);
  return integralToLong(Math.trunc(d), s);
}

function integralToLong(n: number, text: string): number | bigint {
  if (Number.isSafeInteger(n)) return n;
  const b = BigInt(n);
  if (b < LONG_MIN || b > LONG_MAX) {
    throw illegalArgument(
      `Numeric value (${text}) out of range of long (-9223372036854775808 - 9223372036854775807)`,
    );
  }
  return b;
}

function toLong(v: unknown, coerce: boolean): number | bigint {
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return integralToLong(v, numberText(v));
    if (!coerce)
      throw illegalArgument(`${javaDoubleToString(v)} cannot be converted to Long without data loss`);
    if (!Number.isFinite(v) || Math.abs(v) >= 9.223372036854776e18) {
      throw illegalArgument(
        `Numeric value (${numberText(v)}) out of range of long (-9223372036854775808 - 9223372036854775807)`,
      );
    }
    return integralToLong(Math.trunc(v), numberText(v));
  }
  if (typeof v === 'bigint') {
    if (v < LONG_MIN || v > LONG_MAX) {
      throw illegalArgument(
        `Numeric value (${v}) out of range of long (-9223372036854775808 - 9223372036854775807)`,
      );
    }
    return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  }
  if (typeof v === 'string') {
    if (!coerce) throw illegalArgument('Long value passed as String');
    return stringToLong(v, coerce);
  }
  throw notNumeric(v);
}

function toSmallInt(v: unknown, coerce: boolean, type: 'integer' | 'short' | 'byte'): number {
  const [lo, hi, article, jackson] = RANGE[type];
  if (typeof v === 'string') {
    if (!coerce) throw illegalArgument(`${JAVA_CLASS[type]} value passed as String`);
    const d = javaParseDouble(v);
    if (Number.isNaN(d) && !/^\s*[+-]?NaN\s*$/.test(v)) throw numberFormat(v);
    if (d < lo || d > hi) throw illegalArgument(`Value [${v}] is out of range for ${article}`);
    return Number.isNaN(d) ? 0 : Math.trunc(d);
  }
  let n: number;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'bigint') n = Number(v);
  else throw notNumeric(v);
  if (n < lo || n > hi || !Number.isFinite(n))
    throw illegalArgument(
      `Numeric value (${numberText(typeof v === 'bigint' ? v : n)}) out of range ${jackson}`,
    );
  if (!Number.isInteger(n)) {
    if (!coerce)
      throw illegalArgument(
        `${javaDoubleToString(n)} cannot be converted to ${JAVA_CLASS[type]} without data loss`,
      );
    n = Math.trunc(n);
  }
  return n;
}

function toFloating(
  v: unknown,
  coerce: boolean,
  type: 'double' | 'float' | 'half_float' | 'scaled_float',
): number {
  let d: number;
  if (typeof v === 'number') d = v;
  else if (typeof v === 'bigint') d = Number(v);
  else if (typeof v === 'string') {
    if (!coerce) throw illegalArgument(`${JAVA_CLASS[type]} value passed as String`);
    d = javaParseDouble(v);
    if (Number.isNaN(d) && !/^\s*[+-]?NaN[fFdD]?\s*$/.test(v)) throw numberFormat(v);
  } else throw notNumeric(v);
  if (type === 'scaled_float') {
    if (!Number.isFinite(d))
      throw illegalArgument(`[scaled_float] only supports finite values, but got [${javaDoubleToString(d)}]`);
    return d;
  }
  if (type !== 'double') d = Math.fround(d);
  // A half_float is parsed as a float, then rounded to half precision: past 65504 it overflows.
  const kept = type === 'half_float' ? halfFloat(d) : d;
  if (!Number.isFinite(kept))
    throw illegalArgument(`[${type}] supports only finite values, but got [${javaDoubleToString(d)}]`);
  return kept;
}

/**
 * Converts a JSON value for a numeric field. Returns null for the empty string with coerce on
 * (Elasticsearch treats it as null, so `null_value` applies).
 */
export function parseNumber(type: NumericType, v: unknown, coerce: boolean): number | bigint | null {
  if (coerce && v === '') return null;
  switch (type) {
    case 'long':
      return toLong(v, coerce);
    case 'integer':
    case 'short':
    case 'byte':
      return toSmallInt(v, coerce, type);
    case 'double':
    case 'float':
    case 'half_float':
    case 'scaled_float':
      return toFloating(v, coerce, type);
  }
}

/**
 * The nearest IEEE 754 half-precision value (ties to even), as a double: how a `half_float`
 * field stores a value (HalfFloatPoint). Past 65504 (and its half step) it is infinite.
 */
export function halfFloat(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const a = Math.abs(x);
  if (a >= 65520) return x > 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  // The spacing of half floats around `a`: 2^(e-10) for a normal with exponent e, 2^-24 below 2^-14.
  const ulp = 2 ** (Math.max(binaryExponent(a), -14) - 10);
  const q = a / ulp;
  const floor = Math.floor(q);
  const rest = q - floor;
  const r = rest > 0.5 || (rest === 0.5 && floor % 2 === 1) ? floor + 1 : floor;
  return Math.sign(x) * r * ulp;
}

/** The 16 bits of a half float (`h` already one: a halfFloat result). */
export function halfFloatBits(h: number): number {
  const sign = h < 0 || Object.is(h, -0) ? 0x8000 : 0;
  const a = Math.abs(h);
  if (a === 0) return sign;
  if (a === Number.POSITIVE_INFINITY) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | Math.round(a / 2 ** -24);
  const e = binaryExponent(a);
  return sign | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
}

/** e with 2^e ≤ a < 2^(e+1), for a finite a > 0 (log2 alone can be off by one at the edges). */
function binaryExponent(a: number): number {
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  return e;
}

/** A floating-point field's value as its doc values keep it: float and half_float rounded. */
export function storedFloating(type: string, v: number): number {
  if (type === 'float') return Math.fround(v);
  if (type === 'half_float') return halfFloat(Math.fround(v));
  return v;
}

/** A scaled_float's value as it is kept: round(value × factor) / factor (Java's Math.round). */
export function scaledFloat(v: number, factor: number): number {
  return Math.floor(v * factor + 0.5) / factor;
}
