/**
 * Scalars as Shoal's JSON writers write them (stringifyJson, and the hit renderers that build
 * `hits.hits` text directly): strings as JSON.stringify quotes them, bigint exact, non-finite
 * numbers as strings.
 */

import { javaDouble } from '../values/java-double.ts';

/**
 * A string as JSON.stringify writes it. Most keys and values need no escape (no quote,
 * backslash, control character or surrogate, a lone one being escaped): quoting them directly
 * skips a native JSON.stringify call per string.
 */
export function jsonString(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** What `primitive` answers for objects and arrays. */
export const OBJECT = Symbol('object');

/**
 * A primitive (or null) as JSON.stringify writes it, bigint exact and non-finite numbers
 * quoted; undefined for what JSON leaves out (undefined, functions, symbols); OBJECT otherwise.
 */
export function primitive(v: unknown): string | undefined | typeof OBJECT {
  switch (typeof v) {
    case 'string':
      return jsonString(v);
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
  return v === null ? 'null' : OBJECT;
}

/** A scalar value (a sort value, a version): bigint exact, NaN and ±Infinity quoted. */
export function jsonScalar(v: string | number | bigint | boolean | null | undefined): string {
  const p = primitive(v);
  return typeof p === 'string' ? p : 'null';
}

/**
 * A hit's sort value as Elasticsearch writes it: a score's or a floating-point field's value is
 * a Java float or double (`2.0`, `1.0E10`); every other value as jsonScalar writes it, which
 * also quotes the ±Infinity a missing double sorts with.
 */
export function sortValueJson(v: string | number | bigint | boolean | null, floating: boolean): string {
  return floating && typeof v === 'number' && Number.isFinite(v) ? javaDouble(v) : jsonScalar(v);
}

/** Whether bit k of a sort-key mask (ShardQueryResult.floatingKeys) marks key k as floating. */
export function isFloatingKey(floatingKeys: number, k: number): boolean {
  return k < 31 && ((floatingKeys >> k) & 1) === 1;
}

/** A hit's `sort` values, comma-separated; bit k of `floatingKeys` set: value k is floating. */
export function sortValuesJson(
  values: readonly (string | number | bigint | boolean | null)[],
  floatingKeys: number,
): string {
  let out = '';
  for (let k = 0; k < values.length; k++) {
    const v = sortValueJson(values[k]!, isFloatingKey(floatingKeys, k));
    out += k === 0 ? v : `,${v}`;
  }
  return out;
}

/**
 * A score (`_score`, `max_score`) as Elasticsearch writes it: a Java float, through Jackson's
 * Float.toString (`1.0`, `0.2876821`, `1.0E7`), null when there is none (NaN). Scores are float32
 * values kept at their shortest decimal, whose digits Float.toString prints.
 */
export function scoreJson(score: number): string {
  if (Number.isNaN(score)) return 'null';
  // Whole scores below 10^7 (match_all, constant_score, boosts) are the common case.
  return Number.isInteger(score) && Math.abs(score) < 1e7 ? `${score}.0` : javaDouble(score);
}
