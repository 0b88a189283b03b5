/**
 * The fields a date parser collects, and their resolution to an instant the way
 * Elasticsearch's java.time formatters resolve them (ResolverStyle.STRICT): missing date parts
 * default to 1970-01-01, missing time parts to midnight — or, for the round-up parser used by
 * range bounds `gt`/`lte`, to 23:59:59.999999999 (month and day still default to 1, as ES's
 * round-up parser does).
 */
import { daysFromCivil, daysInMonth, isLeapYear, MS_PER_DAY } from './calendar.ts';
import type { Zone } from './time-zone.ts';

const UNSET = -1;

export class ParsedFields {
  year = UNSET;
  /** Two-digit year from `yy`: resolved into 2000..2099. */
  month = UNSET;
  day = UNSET;
  dayOfYear = UNSET;
  hour = UNSET;
  hour12 = UNSET;
  amPm = UNSET;
  minute = UNSET;
  second = UNSET;
  nano = UNSET;
  /** Offset parsed from the text, in millis; NaN when absent. */
  offsetMillis = Number.NaN;
  zone: Zone | undefined = undefined;
  /** Set by epoch formats: the instant itself. */
  epochMillis = Number.NaN;
  epochNanoOfMilli = 0;
  /** Whether the epoch parser saw a fraction (affects round-up). */
  epochHasFraction = false;
  epochUnit: 'millis' | 'seconds' = 'millis';

  reset(): this {
    this.year = UNSET;
    this.month = UNSET;
    this.day = UNSET;
    this.dayOfYear = UNSET;
    this.hour = UNSET;
    this.hour12 = UNSET;
    this.amPm = UNSET;
    this.minute = UNSET;
    this.second = UNSET;
    this.nano = UNSET;
    this.offsetMillis = Number.NaN;
    this.zone = undefined;
    this.epochMillis = Number.NaN;
    this.epochNanoOfMilli = 0;
    this.epochHasFraction = false;
    this.epochUnit = 'millis';
    return this;
  }

  copyFrom(o: ParsedFields): void {
    this.year = o.year;
    this.month = o.month;
    this.day = o.day;
    this.dayOfYear = o.dayOfYear;
    this.hour = o.hour;
    this.hour12 = o.hour12;
    this.amPm = o.amPm;
    this.minute = o.minute;
    this.second = o.second;
    this.nano = o.nano;
    this.offsetMillis = o.offsetMillis;
    this.zone = o.zone;
    this.epochMillis = o.epochMillis;
    this.epochNanoOfMilli = o.epochNanoOfMilli;
    this.epochHasFraction = o.epochHasFraction;
    this.epochUnit = o.epochUnit;
  }
}

/** An instant: epoch millis plus the nanoseconds within that milli (0..999_999). */
export interface InstantValue {
  millis: number;
  nanoOfMilli: number;
}

const MONTH_NAMES = [
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
];

function invalid(field: string, lo: number, hi: number, v: number): string {
  return `Invalid value for ${field} (valid values ${lo} - ${hi}): ${v}`;
}

/**
 * Resolves parsed fields into `out`; returns null on success or java.time's reason for
 * rejecting the fields (`Invalid value for MonthOfYear (valid values 1 - 12): 13`).
 */
export function resolveFields(
  f: ParsedFields,
  roundUp: boolean,
  zone: Zone,
  out: InstantValue,
): string | null {
  if (!Number.isNaN(f.epochMillis)) {
    out.millis = f.epochMillis;
    out.nanoOfMilli = f.epochNanoOfMilli;
    if (roundUp && !f.epochHasFraction) {
      // ES's epoch round-up parsers fill the unparsed sub-unit with its maximum.
      if (f.epochUnit === 'seconds') out.millis += 999;
      out.nanoOfMilli = 999_999;
    }
    return null;
  }
  const year = f.year === UNSET ? 1970 : f.year;
  let month = f.month;
  let day = f.day;
  if (f.dayOfYear !== UNSET) {
    const max = isLeapYear(year) ? 366 : 365;
    if (f.dayOfYear < 1 || f.dayOfYear > max) return invalid('DayOfYear', 1, max, f.dayOfYear);
  } else {
    if (month === UNSET) month = 1;
    if (day === UNSET) day = 1;
    if (month < 1 || month > 12) return invalid('MonthOfYear', 1, 12, month);
    if (day < 1 || day > 31) return invalid('DayOfMonth', 1, 31, day);
    if (day > daysInMonth(year, month)) {
      if (month === 2 && day === 29) return `Invalid date 'February 29' as '${year}' is not a leap year`;
      return `Invalid date '${MONTH_NAMES[month - 1]} ${day}'`;
    }
  }
  let hour = f.hour;
  if (hour === UNSET && f.hour12 !== UNSET) {
    if (f.hour12 < 1 || f.hour12 > 12) return invalid('ClockHourOfAmPm', 1, 12, f.hour12);
    hour = (f.hour12 % 12) + (f.amPm === 1 ? 12 : 0);
  }
  if (hour === UNSET) hour = roundUp ? 23 : 0;
  else if (hour < 0 || hour > 23) return invalid('HourOfDay', 0, 23, hour);
  let minute = f.minute;
  if (minute === UNSET) minute = roundUp ? 59 : 0;
  else if (minute > 59) return invalid('MinuteOfHour', 0, 59, minute);
  let second = f.second;
  if (second === UNSET) second = roundUp ? 59 : 0;
  else if (second > 59) return invalid('SecondOfMinute', 0, 59, second);
  const nano = f.nano === UNSET ? (roundUp ? 999_999_999 : 0) : f.nano;
  const days =
    f.dayOfYear !== UNSET ? daysFromCivil(year, 1, 1) + f.dayOfYear - 1 : daysFromCivil(year, month, day);
  const local =
    days * MS_PER_DAY + hour * 3_600_000 + minute * 60_000 + second * 1000 + Math.floor(nano / 1_000_000);
  let millis: number;
  if (!Number.isNaN(f.offsetMillis)) millis = local - f.offsetMillis;
  else if (f.zone) millis = f.zone.localToUtc(local);
  else millis = zone.localToUtc(local);
  out.millis = millis;
  out.nanoOfMilli = nano % 1_000_000;
  return null;
}
