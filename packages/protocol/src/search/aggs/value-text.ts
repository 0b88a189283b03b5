/**
 * How keys and values compare and print in aggregation responses (DocValueFormat): dates
 * through the format and time zone the shard reported, booleans as `true`/`false`, ips from
 * their hex keys, doubles as Java prints them where a text is needed.
 */

import { compareTerms } from '../../values/code-point-order.ts';
import { decimalFormat } from '../../values/decimal-format.ts';
import { formatIp } from '../../values/ip-text.ts';
import { javaDouble } from '../../values/java-double.ts';
import type { ValueFormat } from './partial.ts';
import type { DateRounding } from './spec.ts';

/**
 * Date services the reduce needs and only the engine has (date patterns, time-zone rules).
 * The engine exports an implementation (`aggDates`); reduce and render take it as a parameter.
 */
export interface AggDates {
  /** Epoch millis printed with a date format (`strict_date_optional_time`) in a time zone. */
  format(millis: number, pattern: string, timeZone?: string): string;
  /** The start of the date_histogram bucket after the one starting at `key`. */
  nextKey(key: number, rounding: DateRounding): number;
  /** The start of the date_histogram bucket holding `millis` (auto_date_histogram re-rounds keys). */
  round(millis: number, rounding: DateRounding): number;
}

/** Code point order of two strings (Lucene's BytesRef order for UTF-8 terms). */
export const compareText = compareTerms;

/** Terms and composite keys: text in code point order, numbers and bigints numerically. */
export function compareKeys(a: string | number | bigint, b: string | number | bigint): number {
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Java's Double.compare: -0.0 before 0.0, NaN after everything. */
export function compareDoubles(a: number, b: number): number {
  if (a < b) return -1;
  if (a > b) return 1;
  if (a === b) {
    if (a !== 0) return 0;
    const na = Object.is(a, -0);
    const nb = Object.is(b, -0);
    return na === nb ? 0 : na ? -1 : 1;
  }
  const aNaN = Number.isNaN(a);
  const bNaN = Number.isNaN(b);
  return aNaN === bNaN ? 0 : aNaN ? 1 : -1;
}

/** `*_as_string` of a numeric value (DocValueFormat.format(double)); undefined for raw. */
export function valueText(v: number, fmt: ValueFormat, dates: AggDates): string | undefined {
  switch (fmt.kind) {
    case 'raw':
    case 'ip':
    case 'geotile':
      return undefined;
    case 'bool':
      return v !== 0 ? 'true' : 'false';
    case 'decimal':
      return decimalFormat(v, fmt.pattern);
    case 'date':
      // DateTime.format(double) prints the value truncated to a long.
      return Number.isFinite(v) ? dates.format(Math.trunc(v), fmt.pattern, fmt.timeZone) : javaDouble(v);
  }
}

/** A key's text where one is needed: keyed buckets, range keys. Raw doubles print as Java does. */
export function keyText(v: number, fmt: ValueFormat, dates: AggDates): string {
  return valueText(v, fmt, dates) ?? javaDouble(v);
}

/** The address a hex ip key stands for: dotted IPv4 for mapped addresses, else RFC 5952 IPv6. */
export function ipText(hex: string): string {
  return formatIp(BigInt(`0x${hex}`));
}
