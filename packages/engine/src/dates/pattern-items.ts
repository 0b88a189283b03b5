/**
 * The building blocks of compiled date patterns (pattern.ts): one item per pattern letter run
 * or literal, each a parser and a printer, and their sequences and optional sections.
 *
 * Parse functions return the next position, or a failure encoded as `-1 - index` (the index
 * java.time would report in `could not be parsed at index N`).
 */
import { illegalArgument } from '@shoal/protocol';
import { daysFromCivil, type LocalDateTime } from './calendar.ts';
import type { ParsedFields } from './parsed-fields.ts';
import { offsetFromText, resolveZone } from './time-zone.ts';

export type ParseStep = (text: string, pos: number, f: ParsedFields) => number;
export type PrintStep = (l: LocalDateTime, offsetMillis: number, zoneId: string) => string;

export const fail = (pos: number): number => -1 - pos;

export const MONTHS_SHORT = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];
export const MONTHS_FULL = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export const DAYS_SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
export const DAYS_FULL = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function pad(n: number, width: number): string {
  const s = String(Math.abs(n));
  const padded = s.length >= width ? s : '0'.repeat(width - s.length) + s;
  return n < 0 ? `-${padded}` : padded;
}

export type NumField =
  | 'year'
  | 'yy'
  | 'month'
  | 'day'
  | 'dayOfYear'
  | 'hour'
  | 'hour12'
  | 'hourK'
  | 'hour0_11'
  | 'minute'
  | 'second';

export interface Item {
  kind: 'num' | 'fraction' | 'text' | 'literal' | 'offset' | 'zoneId' | 'optional';
  parse: ParseStep;
  print: PrintStep;
  numeric?: boolean;
  /** For numeric items: set when the next item is numeric too (adjacent value parsing). */
  fixWidth?: (width: number) => void;
}

function readDigits(text: string, pos: number, min: number, max: number): number {
  let end = pos;
  const limit = Math.min(text.length, pos + max);
  while (end < limit) {
    const c = text.charCodeAt(end);
    if (c < 48 || c > 57) break;
    end++;
  }
  return end - pos >= min ? end : -1;
}

function numValue(text: string, from: number, to: number): number {
  let v = 0;
  for (let i = from; i < to; i++) v = v * 10 + (text.charCodeAt(i) - 48);
  return v;
}

function setNum(f: ParsedFields, field: NumField, v: number): void {
  switch (field) {
    case 'year':
      f.year = v;
      break;
    case 'yy':
      f.year = 2000 + v;
      break;
    case 'month':
      f.month = v;
      break;
    case 'day':
      f.day = v;
      break;
    case 'dayOfYear':
      f.dayOfYear = v;
      break;
    case 'hour':
      f.hour = v;
      break;
    case 'hour12':
      f.hour12 = v;
      break;
    case 'hourK':
      f.hour = v === 24 ? 0 : v;
      break;
    case 'hour0_11':
      f.hour12 = v === 0 ? 12 : v;
      break;
    case 'minute':
      f.minute = v;
      break;
    case 'second':
      f.second = v;
      break;
  }
}

function getNum(l: LocalDateTime, field: NumField): number {
  switch (field) {
    case 'year':
      return l.year;
    case 'yy':
      return ((l.year % 100) + 100) % 100;
    case 'month':
      return l.month;
    case 'day':
      return l.day;
    case 'dayOfYear':
      return daysFromCivil(l.year, l.month, l.day) - daysFromCivil(l.year, 1, 1) + 1;
    case 'hour':
      return l.hour;
    case 'hour12':
      return l.hour % 12 === 0 ? 12 : l.hour % 12;
    case 'hourK':
      return l.hour === 0 ? 24 : l.hour;
    case 'hour0_11':
      return l.hour % 12;
    case 'minute':
      return l.minute;
    case 'second':
      return l.second;
  }
}

export function numItem(field: NumField, min: number, max: number, printWidth: number): Item {
  let lo = min;
  let hi = max;
  const signed = field === 'year' && max > 4;
  return {
    kind: 'num',
    numeric: true,
    fixWidth(width) {
      lo = width;
      hi = width;
    },
    parse(text, pos, f) {
      let p = pos;
      let neg = false;
      if (signed && lo !== hi) {
        const c = text.charCodeAt(p);
        if (c === 45 || c === 43) {
          neg = c === 45;
          p++;
        }
      }
      const end = readDigits(text, p, lo, hi);
      if (end < 0) return fail(pos);
      const v = numValue(text, p, end);
      setNum(f, field, neg ? -v : v);
      return end;
    },
    print(l) {
      const v = getNum(l, field);
      if (field === 'year' && printWidth >= 4 && v > 9999) return `+${v}`;
      return pad(v, printWidth);
    },
  };
}

export function fractionItem(minDigits: number, maxDigits: number, printDigits: number): Item {
  return {
    kind: 'fraction',
    numeric: true,
    parse(text, pos, f) {
      const end = readDigits(text, pos, minDigits, maxDigits);
      if (end < 0) return fail(pos);
      let v = numValue(text, pos, end);
      for (let i = end - pos; i < 9; i++) v *= 10;
      f.nano = v;
      return end;
    },
    print(l) {
      return pad(l.nano, 9).slice(0, printDigits);
    },
  };
}

export function textItem(
  values: readonly string[],
  set: (f: ParsedFields, index: number) => void,
  get: (l: LocalDateTime) => number,
): Item {
  const lower = values.map((v) => v.toLowerCase());
  return {
    kind: 'text',
    parse(text, pos, f) {
      // Longest match first so "June" is not taken as "Jun".
      let best = -1;
      let bestLen = 0;
      for (let i = 0; i < lower.length; i++) {
        const v = lower[i]!;
        if (v.length > bestLen && text.slice(pos, pos + v.length).toLowerCase() === v) {
          best = i;
          bestLen = v.length;
        }
      }
      if (best < 0) return fail(pos);
      set(f, best);
      return pos + bestLen;
    },
    print(l) {
      return values[get(l)]!;
    },
  };
}

export function literalItem(lit: string): Item {
  return {
    kind: 'literal',
    parse(text, pos) {
      if (text.startsWith(lit, pos)) return pos + lit.length;
      return fail(pos);
    },
    print: () => lit,
  };
}

export type OffsetStyle = '+HH' | '+HHmm' | '+HHMM' | '+HH:MM' | '+HHMMss' | '+HH:MM:ss';

/** Offset parser: `Z` when `zeroText` is `Z`, else `+HH`, `+HHMM`, `+HH:MM`, `+HH:MM:SS`. */
function parseOffsetAt(text: string, pos: number, f: ParsedFields, allowZ: boolean): number {
  const c = text.charCodeAt(pos);
  if (c === 90 && allowZ) {
    f.offsetMillis = 0;
    return pos + 1;
  }
  if (c !== 43 && c !== 45) return fail(pos);
  let end = pos + 1;
  while (end < text.length) {
    const d = text.charCodeAt(end);
    if ((d >= 48 && d <= 57) || d === 58) end++;
    else break;
  }
  // Take the longest well-formed offset prefix.
  for (let e = end; e > pos + 2; e--) {
    const off = offsetFromText(text.slice(pos, e));
    if (off !== undefined && text.charCodeAt(e - 1) !== 58) {
      f.offsetMillis = off;
      return e;
    }
  }
  return fail(pos);
}

function printOffset(offsetMillis: number, style: OffsetStyle, zeroText: string): string {
  if (offsetMillis === 0 && zeroText) return zeroText;
  const sign = offsetMillis < 0 ? '-' : '+';
  const total = Math.abs(Math.round(offsetMillis / 1000));
  const h = pad(Math.floor(total / 3600), 2);
  const m = pad(Math.floor(total / 60) % 60, 2);
  const s = pad(total % 60, 2);
  switch (style) {
    case '+HH':
      return `${sign}${h}`;
    case '+HHmm':
      return m === '00' ? `${sign}${h}` : `${sign}${h}${m}`;
    case '+HHMM':
      return `${sign}${h}${m}`;
    case '+HH:MM':
      return `${sign}${h}:${m}`;
    case '+HHMMss':
      return s === '00' ? `${sign}${h}${m}` : `${sign}${h}${m}${s}`;
    case '+HH:MM:ss':
      return s === '00' ? `${sign}${h}:${m}` : `${sign}${h}:${m}:${s}`;
  }
}

export function offsetItem(style: OffsetStyle, zeroText: string): Item {
  return {
    kind: 'offset',
    parse: (text, pos, f) => parseOffsetAt(text, pos, f, zeroText === 'Z'),
    print: (_l, offset) => printOffset(offset, style, zeroText),
  };
}

export function zoneIdItem(): Item {
  return {
    kind: 'zoneId',
    parse(text, pos, f) {
      let end = pos;
      while (end < text.length && /[A-Za-z0-9_/+\-:]/.test(text[end]!)) end++;
      if (end === pos) return fail(pos);
      try {
        f.zone = resolveZone(text.slice(pos, end));
      } catch {
        return fail(pos);
      }
      return end;
    },
    print: (_l, offset, zoneId) => (zoneId === 'Z' && offset === 0 ? 'Z' : zoneId),
  };
}

export function sequence(items: Item[]): { parse: ParseStep; print: PrintStep } {
  // Adjacent value parsing: a numeric field followed directly by another numeric field takes
  // exactly its minimum width, as java.time reserves widths in "yyyyMMdd".
  for (let i = 0; i + 1 < items.length; i++) {
    const a = items[i]!;
    const b = items[i + 1]!;
    if (a.kind === 'num' && b.numeric && a.fixWidth) a.fixWidth(minWidthOf(a));
  }
  const parses = items.map((i) => i.parse);
  const prints = items.map((i) => i.print);
  return {
    parse(text, pos, f) {
      let p = pos;
      for (let i = 0; i < parses.length; i++) {
        p = parses[i]!(text, p, f);
        if (p < 0) return p;
      }
      return p;
    },
    print(l, offset, zoneId) {
      let s = '';
      for (let i = 0; i < prints.length; i++) s += prints[i]!(l, offset, zoneId);
      return s;
    },
  };
}

export const MIN_WIDTH = new WeakMap<Item, number>();
function minWidthOf(item: Item): number {
  return MIN_WIDTH.get(item) ?? 1;
}

export function optionalItem(inner: { parse: ParseStep; print: PrintStep }): Item {
  return {
    kind: 'optional',
    parse(text, pos, f) {
      const saved = snapshot(f);
      const r = inner.parse(text, pos, f);
      if (r >= 0) return r;
      f.copyFrom(saved);
      return pos;
    },
    print: inner.print,
  };
}

function snapshot(f: ParsedFields): ParsedFields {
  const copy = Object.create(Object.getPrototypeOf(f)) as ParsedFields;
  copy.copyFrom(f);
  return copy;
}

/** DateFormatters.forPattern: the formatter's own exception is the cause. */
export function badPattern(pattern: string, why: string): never {
  throw illegalArgument(`Invalid format: [${pattern}]: ${why}`, illegalArgument(why));
}
