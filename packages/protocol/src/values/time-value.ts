/**
 * Elasticsearch time values (TimeValue.parseTimeValue / toHumanReadableString), paging.md §2.2
 * #44–#46 and the formatting rule below that table.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { formatOneDecimal } from './one-decimal.ts';

const NANOS_PER_MS = 1_000_000;
/** Suffix → milliseconds per unit. Checked in Elasticsearch's order: `ms` before `s`, `m` last but case-sensitive. */
const UNITS: readonly (readonly [string, number])[] = [
  ['nanos', 1 / NANOS_PER_MS],
  ['micros', 1 / 1000],
  ['ms', 1],
  ['s', 1000],
];

/**
 * Parses `5m`, `30s`, `100ms`, `1d`, `-1`, `0` into milliseconds (sub-millisecond values are
 * truncated, as TimeValue.millis() does). Units: nanos, micros, ms, s, h, d in any case and
 * `m` in lower case only (`5M` would be months); no weeks. `-1` of any unit is the "disabled"
 * marker: it returns -1 times the unit.
 */
export function parseTimeValue(value: string, settingName: string): number {
  const normalized = value.toLowerCase().trim();
  for (const [suffix, ms] of UNITS) {
    if (normalized.endsWith(suffix)) return toMs(parseAmount(value, normalized, suffix, settingName), ms);
  }
  // Minutes are matched on the raw value: `M` means months, so `5M` is rejected.
  if (value.endsWith('m')) return toMs(parseAmount(value, normalized, 'm', settingName), 60_000);
  if (normalized.endsWith('h')) return toMs(parseAmount(value, normalized, 'h', settingName), 3_600_000);
  if (normalized.endsWith('d')) return toMs(parseAmount(value, normalized, 'd', settingName), 86_400_000);
  if (/^-0*1$/.test(normalized)) return -1;
  if (/^0+$/.test(normalized)) return 0;
  throw illegalArgument(
    `failed to parse setting [${settingName}] with value [${value}] as a time value: unit is missing or unrecognized`,
  );
}

function toMs(amount: number, unitMs: number): number {
  return Math.trunc(amount * unitMs);
}

/** Java's Long.parseLong: optional sign, ASCII digits, within the long range. */
const JAVA_LONG = /^[+-]?\d+$/;
/** Java's Double.parseDouble, minus hex floats: what counts as a "fractional" time value. */
const JAVA_DOUBLE = /^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)$/;

function parseAmount(initial: string, normalized: string, suffix: string, settingName: string): number {
  const s = normalized.slice(0, normalized.length - suffix.length).trim();
  if (JAVA_LONG.test(s) && BigInt(s) <= 9223372036854775807n && BigInt(s) >= -9223372036854775808n) {
    const v = Number(s);
    if (v < -1) {
      throw illegalArgument(
        `failed to parse setting [${settingName}] with value [${initial}] as a time value: negative durations are not supported`,
      );
    }
    return v;
  }
  if (JAVA_DOUBLE.test(s.trim())) {
    throw illegalArgument(`failed to parse [${initial}], fractional time values are not supported`);
  }
  throw illegalArgument(`failed to parse [${initial}]`);
}

const FORMAT_UNITS: readonly (readonly [string, number])[] = [
  ['d', 86_400_000 * NANOS_PER_MS],
  ['h', 3_600_000 * NANOS_PER_MS],
  ['m', 60_000 * NANOS_PER_MS],
  ['s', 1000 * NANOS_PER_MS],
  ['ms', NANOS_PER_MS],
  ['micros', 1000],
];

/**
 * TimeValue.toString(): the largest unit with a value >= 1, at most one decimal, truncated
 * (not rounded), no trailing `.0`; negative values print as the bare number (`-1`), zero as `0s`.
 * `formatTimeValue(90_000)` → `1.5m`, `formatTimeValue(86_400_000)` → `1d`.
 */
export function formatTimeValue(ms: number): string {
  return formatNanos(ms * NANOS_PER_MS, ms);
}

/** The same rule for a duration held in nanoseconds (`took` in nanos, `_nodes/stats`). */
export function formatTimeValueNanos(nanos: number): string {
  return formatNanos(nanos, nanos);
}

function formatNanos(nanos: number, negativeShown: number): string {
  if (nanos < 0) return String(Math.trunc(negativeShown));
  if (nanos === 0) return '0s';
  for (const [suffix, per] of FORMAT_UNITS) {
    if (nanos >= per) return formatOneDecimal(nanos / per) + suffix;
  }
  return `${formatOneDecimal(nanos)}nanos`;
}
