/**
 * Dynamic date detection (`date_detection`, `dynamic_date_formats`): a string becomes a date
 * field when one of the formats parses it. Pure numbers never do (Elasticsearch refuses them as
 * too likely to be false positives with `epoch_millis` or `yyyy`).
 */
import { dateFormatter } from './formatter.ts';
import { isJavaDouble, isJavaLong } from './java-numbers.ts';
import type { InstantValue } from './parsed-fields.ts';
import { UTC } from './time-zone.ts';

/** Elasticsearch 8's RootObjectMapper default for `dynamic_date_formats`. */
export const DEFAULT_DYNAMIC_DATE_FORMATS: readonly string[] = [
  'strict_date_optional_time||epoch_millis',
  'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis',
];

const out: InstantValue = { millis: 0, nanoOfMilli: 0 };

/** The first of `formats` that parses `s`, or undefined. */
export function detectDateFormat(
  s: string,
  formats: readonly string[] = DEFAULT_DYNAMIC_DATE_FORMATS,
): string | undefined {
  if (s.length === 0 || isJavaLong(s) || isJavaDouble(s)) return undefined;
  for (const format of formats) {
    if (dateFormatter(format).parse(s, false, UTC, out) === null) return format;
  }
  return undefined;
}

export function isDateString(s: string, formats: readonly string[] = DEFAULT_DYNAMIC_DATE_FORMATS): boolean {
  return detectDateFormat(s, formats) !== undefined;
}
