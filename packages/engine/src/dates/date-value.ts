/** Parsing document values and printing stored values with a field's date format. */
import { failedToParseDate } from './errors.ts';
import { dateFormatter } from './formatter.ts';
import type { InstantValue } from './parsed-fields.ts';
import { type DateResolution, fromResolution, toResolution } from './resolution.ts';
import { resolveZone, UTC } from './time-zone.ts';

const out: InstantValue = { millis: 0, nanoOfMilli: 0 };

/** A JSON value as Elasticsearch's date mapper sees it: numbers are parsed as their text. */
export function dateText(value: string | number | bigint): string {
  return typeof value === 'string' ? value : String(value);
}

/**
 * Parses a document's date value: epoch millis (number) for `millis`, epoch nanos (bigint) for
 * `nanos`. Throws illegal_argument_exception `failed to parse date field [v] with format [f]`
 * (cause: date_time_parse_exception) as Elasticsearch's DateFormatter does.
 */
export function parseDateValue(
  value: string | number | bigint,
  format: string,
  resolution: DateResolution,
): number | bigint {
  const text = dateText(value);
  const formatter = dateFormatter(format);
  const err = formatter.parse(text, false, UTC, out);
  if (err !== null) throw failedToParseDate(text, format, err);
  return toResolution(out, resolution);
}

/** Parses to an instant without resolution conversion (used by date math anchors). */
export function parseInstant(
  text: string,
  format: string,
  roundUp: boolean,
  zoneId?: string,
): InstantValue | string {
  const zone = zoneId ? resolveZone(zoneId) : UTC;
  const result: InstantValue = { millis: 0, nanoOfMilli: 0 };
  const err = dateFormatter(format).parse(text, roundUp, zone, result);
  return err === null ? result : err;
}

/**
 * Prints a stored date value with the first format of `format` (sort values with `format`,
 * `docvalue_fields`, range aggregation keys). UTC unless a time zone is given.
 */
export function formatDate(
  value: number | bigint,
  resolution: DateResolution,
  format: string,
  timeZone?: string,
): string {
  const v = fromResolution(value, resolution);
  const zone = timeZone ? resolveZone(timeZone) : UTC;
  return dateFormatter(format).format(v.millis, v.nanoOfMilli, zone);
}
