/**
 * Proleptic Gregorian arithmetic on plain numbers (Howard Hinnant's civil-from-days), so years
 * far outside `Date`'s range still work the way java.time does.
 */
export const MS_PER_DAY = 86_400_000;

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeapYear(y) ? 29 : DAYS_IN_MONTH[m - 1]!;
}

/** Days since 1970-01-01 of the civil date y-m-d (m 1..12). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

export function civilFromDays(days: number): CivilDate {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}

/** 1 = Monday … 7 = Sunday (ISO), for days since the epoch. */
export function isoDayOfWeek(days: number): number {
  return ((((days + 3) % 7) + 7) % 7) + 1;
}

export function dayOfYear(y: number, m: number, d: number): number {
  return daysFromCivil(y, m, d) - daysFromCivil(y, 1, 1) + 1;
}

/** Local date-time fields of an epoch-millis value seen at a fixed offset. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Nanosecond of second, 0..999_999_999. */
  nano: number;
}

export function localFromEpoch(
  epochMillis: number,
  nanoOfMilli: number,
  offsetMillis: number,
): LocalDateTime {
  const local = epochMillis + offsetMillis;
  const days = Math.floor(local / MS_PER_DAY);
  const msOfDay = local - days * MS_PER_DAY;
  const { year, month, day } = civilFromDays(days);
  const secOfDay = Math.floor(msOfDay / 1000);
  return {
    year,
    month,
    day,
    hour: Math.floor(secOfDay / 3600),
    minute: Math.floor(secOfDay / 60) % 60,
    second: secOfDay % 60,
    nano: (msOfDay % 1000) * 1_000_000 + nanoOfMilli,
  };
}

/** Epoch millis of local fields taken as UTC (the caller subtracts the zone offset). */
export function localToEpochMillis(l: LocalDateTime): number {
  return (
    daysFromCivil(l.year, l.month, l.day) * MS_PER_DAY +
    l.hour * 3_600_000 +
    l.minute * 60_000 +
    l.second * 1000 +
    Math.floor(l.nano / 1_000_000)
  );
}
