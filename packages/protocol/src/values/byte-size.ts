/**
 * Elasticsearch byte sizes (ByteSizeValue): `512mb`, `10gb`, `-1`; 1024-based units
 * b, k/kb, m/mb, g/gb, t/tb, p/pb in any case.
 */
import { parseException } from '../errors/catalogue.ts';
import { formatOneDecimal } from './one-decimal.ts';

export type ByteUnit = 'b' | 'kb' | 'mb' | 'gb' | 'tb' | 'pb';

const UNIT_BYTES: Record<ByteUnit, number> = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
  tb: 1024 ** 4,
  pb: 1024 ** 5,
};

/** Suffixes in Elasticsearch's matching order (`k` before `kb`, plain `b` last). */
const SUFFIXES: readonly (readonly [string, ByteUnit])[] = [
  ['k', 'kb'],
  ['kb', 'kb'],
  ['m', 'mb'],
  ['mb', 'mb'],
  ['g', 'gb'],
  ['gb', 'gb'],
  ['t', 'tb'],
  ['tb', 'tb'],
  ['p', 'pb'],
  ['pb', 'pb'],
  ['b', 'b'],
];

const JAVA_LONG = /^[+-]?\d+$/;
const JAVA_DOUBLE = /^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)$/;

/**
 * Parses a byte size into bytes (ByteSizeValue.parseBytesSizeValue). Errors are 400
 * `parse_exception` with Elasticsearch's texts; the settings layer re-throws them as
 * illegal_argument_exception, as Setting.get does. A fractional value is accepted with
 * Elasticsearch's deprecation message, passed to `onDeprecation`.
 */
export function parseByteSize(
  value: string,
  settingName: string,
  onDeprecation?: (message: string) => void,
): number {
  const lower = value.toLowerCase().trim();
  if (lower === '-1') return -1;
  if (lower === '0') return 0;
  for (const [suffix, unit] of SUFFIXES) {
    if (!lower.endsWith(suffix)) continue;
    const s = lower.slice(0, lower.length - suffix.length).trim();
    let size: number;
    if (JAVA_LONG.test(s)) {
      size = Number(s);
      if (size < -1 || (size === -1 && unit !== 'b')) {
        throw parseException(
          `failed to parse setting [${settingName}] with value [${value}] as a size in bytes`,
          parseException(`Values less than -1 bytes are not supported: ${s}${unit}`),
        );
      }
      return size * UNIT_BYTES[unit];
    }
    if (JAVA_DOUBLE.test(s)) {
      onDeprecation?.(
        `Fractional bytes values are deprecated. Use non-fractional bytes values instead: [${value}] found for setting [${settingName}]`,
      );
      return Math.trunc(Number.parseFloat(s) * UNIT_BYTES[unit]);
    }
    throw parseException(`failed to parse setting [${settingName}] with value [${value}]`);
  }
  throw parseException(
    `failed to parse setting [${settingName}] with value [${value}] as a size in bytes: unit is missing or unrecognized`,
  );
}

/** ByteSizeValue.toString(): the largest unit with a value >= 1, one truncated decimal (`1.5kb`, `3mb`, `100b`). */
export function formatByteSize(bytes: number): string {
  const units: ByteUnit[] = ['pb', 'tb', 'gb', 'mb', 'kb'];
  for (const u of units) {
    if (bytes >= UNIT_BYTES[u]) return formatOneDecimal(bytes / UNIT_BYTES[u]) + u;
  }
  return `${formatOneDecimal(bytes)}b`;
}

/** The `_cat` `?bytes=<unit>` form: a whole number of that unit, truncated (`getKb()`…). */
export function formatByteSizeIn(bytes: number, unit: ByteUnit): string {
  return String(Math.trunc(bytes / UNIT_BYTES[unit]));
}

/** Whether `?bytes=` names a unit `_cat` accepts. */
export function isByteUnit(s: string): s is ByteUnit {
  return Object.hasOwn(UNIT_BYTES, s);
}
