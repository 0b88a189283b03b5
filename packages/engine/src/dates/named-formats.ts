/**
 * Elasticsearch's built-in date format names, each as a parser over ParsedFields and a printer.
 * `strict_*` names take exactly the digits the pattern shows; the plain names are lenient
 * (`date` accepts `2020-1-5`). Week-based formats (`week_date`, `weekyear…`) are not supported.
 */
import type { LocalDateTime } from './calendar.ts';
import { parseEpoch, printEpoch } from './epoch.ts';
import { parseIsoDateOptionalTime } from './iso-parser.ts';
import type { ParsedFields } from './parsed-fields.ts';
import { compilePattern } from './pattern.ts';

export interface SingleFormat {
  name: string;
  /** Parses the whole of `text` into `f`: returns the end index or `-1 - failIndex`. */
  parse(text: string, f: ParsedFields): number;
  /** Prints local fields seen at `offsetMillis` (epoch formats use the instant directly). */
  print(l: LocalDateTime, offsetMillis: number, zoneId: string, millis: number, nanoOfMilli: number): string;
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, '0');
}

function printYear(y: number): string {
  if (y > 9999) return `+${y}`;
  if (y < 0) return `-${pad(-y, 4)}`;
  return pad(y, 4);
}

function printOffsetIso(offsetMillis: number): string {
  if (offsetMillis === 0) return 'Z';
  const total = Math.abs(Math.round(offsetMillis / 60000));
  return `${offsetMillis < 0 ? '-' : '+'}${pad(Math.floor(total / 60), 2)}:${pad(total % 60, 2)}`;
}

/** `2015-01-01T12:10:30.000Z`, or with 3–9 fraction digits for the nanos printer. */
function printIso(l: LocalDateTime, offsetMillis: number, nanos: boolean): string {
  let frac = pad(l.nano, 9);
  if (nanos) {
    let end = 9;
    while (end > 3 && frac.charCodeAt(end - 1) === 48) end--;
    frac = frac.slice(0, end);
  } else {
    frac = frac.slice(0, 3);
  }
  return (
    `${printYear(l.year)}-${pad(l.month, 2)}-${pad(l.day, 2)}T${pad(l.hour, 2)}:${pad(l.minute, 2)}:` +
    `${pad(l.second, 2)}.${frac}${printOffsetIso(offsetMillis)}`
  );
}

function iso(name: string, strict: boolean, nanos: boolean): SingleFormat {
  return {
    name,
    parse: (text, f) => parseIsoDateOptionalTime(text, f, strict),
    print: (l, offset) => printIso(l, offset, nanos),
  };
}

function epoch(name: string, unit: 'millis' | 'seconds'): SingleFormat {
  return {
    name,
    parse: (text, f) => parseEpoch(text, f, unit),
    print: (_l, _o, _z, millis, nanoOfMilli) => printEpoch(millis, nanoOfMilli, unit),
  };
}

function fromPattern(name: string, pattern: string, lenient: boolean): SingleFormat {
  const compiled = compilePattern(pattern, { lenient, variableFraction: true });
  return {
    name,
    parse: (text, f) => compiled.parse(text, 0, f),
    print: (l, offset, zoneId) => compiled.print(l, offset, zoneId),
  };
}

/** Base names with their pattern; each also exists as `strict_<name>`. */
const PATTERNS: Record<string, string> = {
  date: 'yyyy-MM-dd',
  date_hour: "yyyy-MM-dd'T'HH",
  date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
  date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssXXX",
  hour: 'HH',
  hour_minute: 'HH:mm',
  hour_minute_second: 'HH:mm:ss',
  hour_minute_second_fraction: 'HH:mm:ss.SSS',
  hour_minute_second_millis: 'HH:mm:ss.SSS',
  ordinal_date: 'yyyy-DDD',
  ordinal_date_time: "yyyy-DDD'T'HH:mm:ss.SSSXXX",
  ordinal_date_time_no_millis: "yyyy-DDD'T'HH:mm:ssXXX",
  time: 'HH:mm:ss.SSSXXX',
  time_no_millis: 'HH:mm:ssXXX',
  t_time: "'T'HH:mm:ss.SSSXXX",
  t_time_no_millis: "'T'HH:mm:ssXXX",
  year: 'yyyy',
  year_month: 'yyyy-MM',
  year_month_day: 'yyyy-MM-dd',
};

/** The basic (no separator) formats only exist in their strict form. */
const BASIC_PATTERNS: Record<string, string> = {
  basic_date: 'yyyyMMdd',
  basic_date_time: "yyyyMMdd'T'HHmmss.SSSXX",
  basic_date_time_no_millis: "yyyyMMdd'T'HHmmssXX",
  basic_ordinal_date: 'yyyyDDD',
  basic_ordinal_date_time: "yyyyDDD'T'HHmmss.SSSXX",
  basic_ordinal_date_time_no_millis: "yyyyDDD'T'HHmmssXX",
  basic_time: 'HHmmss.SSSXX',
  basic_time_no_millis: 'HHmmssXX',
  basic_t_time: "'T'HHmmss.SSSXX",
  basic_t_time_no_millis: "'T'HHmmssXX",
};

const NAMED = new Map<string, () => SingleFormat>();
NAMED.set('strict_date_optional_time', () => iso('strict_date_optional_time', true, false));
NAMED.set('date_optional_time', () => iso('date_optional_time', false, false));
NAMED.set('iso8601', () => iso('iso8601', false, false));
NAMED.set('strict_date_optional_time_nanos', () => iso('strict_date_optional_time_nanos', true, true));
NAMED.set('epoch_millis', () => epoch('epoch_millis', 'millis'));
NAMED.set('epoch_second', () => epoch('epoch_second', 'seconds'));
for (const [name, pattern] of Object.entries(PATTERNS)) {
  NAMED.set(name, () => fromPattern(name, pattern, true));
  NAMED.set(`strict_${name}`, () => fromPattern(`strict_${name}`, pattern, false));
}
for (const [name, pattern] of Object.entries(BASIC_PATTERNS)) {
  NAMED.set(name, () => fromPattern(name, pattern, false));
}

/** A built-in format by name (snake_case, or the deprecated camelCase spelling), else undefined. */
export function namedFormat(name: string): SingleFormat | undefined {
  let make = NAMED.get(name);
  if (!make && /[A-Z]/.test(name)) make = NAMED.get(name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
  return make?.();
}

export function patternFormat(pattern: string): SingleFormat {
  const compiled = compilePattern(pattern);
  return {
    name: pattern,
    parse: (text, f) => compiled.parse(text, 0, f),
    print: (l, offset, zoneId) => compiled.print(l, offset, zoneId),
  };
}
