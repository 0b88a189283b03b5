/**
 * The date services the protocol's reduce takes as a parameter (AggDates): printing date keys
 * and values with a format and time zone, and stepping date_histogram keys for the empty
 * buckets. The coordinator passes `aggDates` to `reduceAggregations` / `renderAggregations`.
 */
import type { AggDates, DateRounding } from '@shoal/protocol';
import { formatDate } from '../dates/index.ts';
import { DateRounder } from './date-rounding.ts';

const rounders = new Map<string, DateRounder>();

/** A rounder per rounding, kept across searches: it remembers the buckets it has computed. */
export function rounderFor(rounding: DateRounding): DateRounder {
  const iv = rounding.interval;
  const key = `${iv.kind === 'fixed' ? iv.millis : iv.unit}|${rounding.timeZone ?? ''}|${rounding.offsetMillis}`;
  let r = rounders.get(key);
  if (!r) {
    if (rounders.size > 256) rounders.clear();
    r = new DateRounder(rounding);
    rounders.set(key, r);
  }
  return r;
}

export const aggDates: AggDates = {
  format(millis: number, pattern: string, timeZone?: string): string {
    return formatDate(millis, 'millis', pattern, timeZone);
  },
  nextKey(key: number, rounding: DateRounding): number {
    return rounderFor(rounding).next(key);
  },
  round(millis: number, rounding: DateRounding): number {
    return rounderFor(rounding).round(millis);
  },
};
