/**
 * date_histogram keys (Elasticsearch's Rounding): a value rounds down to the start of its
 * bucket — a calendar unit (day, week from Monday, month, quarter, year, …) in local time of the
 * time zone, or a multiple of a fixed duration — shifted by `offset`. `next` steps from one
 * bucket start to the next, which the reduce needs to fill empty buckets.
 *
 * Fixed durations in a fixed-offset zone are plain arithmetic. Everything else goes through the
 * zone's rules (Intl for region zones, which is slow), so each bucket found is remembered as a
 * [start, end) range and later values in it are answered by a binary search.
 */
import type { CalendarUnit, DateRounding } from '@shoal/protocol';
import {
  civilFromDays,
  daysFromCivil,
  isoDayOfWeek,
  type LocalDateTime,
  localFromEpoch,
  MS_PER_DAY,
} from '../dates/calendar.ts';
import { resolveZone, type Zone } from '../dates/time-zone.ts';

const FIXED_ZONE = /^(Z|UTC|GMT|UT|Etc\/UTC|(UTC|GMT|UT)?[+-].*)$/;

/** Buckets remembered per rounding before the memory starts over. */
const MAX_REMEMBERED = 16384;

const UNIT_MILLIS: Partial<Record<CalendarUnit, number>> = { second: 1000, minute: 60_000, hour: 3_600_000 };

export class DateRounder {
  private readonly zone: Zone;
  /** The zone's offset when it never changes, else null. */
  private readonly fixedOffset: number | null;
  private readonly offset: number;
  // Known buckets, ascending by start: [starts[i], ends[i]) rounds to starts[i].
  private starts: number[] = [];
  private ends: number[] = [];

  constructor(readonly rounding: DateRounding) {
    const id = rounding.timeZone ?? 'Z';
    this.zone = resolveZone(id);
    this.fixedOffset = FIXED_ZONE.test(id) ? this.zone.offsetAt(0) : null;
    this.offset = rounding.offsetMillis;
  }

  /** The start of the bucket holding epoch millis `v`. */
  round(v: number): number {
    const iv = this.rounding.interval;
    if (iv.kind === 'fixed' && this.fixedOffset !== null) {
      const shift = this.fixedOffset - this.offset;
      return Math.floor((v + shift) / iv.millis) * iv.millis - shift;
    }
    const i = this.findRange(v);
    if (i >= 0) return this.starts[i]!;
    const start = this.innerRound(v - this.offset) + this.offset;
    const end = this.innerNext(start - this.offset) + this.offset;
    this.remember(start, end > start ? end : start + 1);
    return start;
  }

  /** The start of the bucket after the one starting at `key`. */
  next(key: number): number {
    const iv = this.rounding.interval;
    if (iv.kind === 'fixed' && this.fixedOffset !== null) return key + iv.millis;
    // A bucket round() found: its end is what this would compute.
    const i = this.findRange(key);
    if (i >= 0 && this.starts[i] === key) return this.ends[i]!;
    const n = this.innerNext(key - this.offset) + this.offset;
    return n > key ? n : key + 1;
  }

  private findRange(v: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! > v) hi = mid - 1;
      else if (this.ends[mid]! <= v) lo = mid + 1;
      else return mid;
    }
    return -1;
  }

  private remember(start: number, end: number): void {
    if (this.starts.length >= MAX_REMEMBERED) {
      this.starts = [];
      this.ends = [];
    }
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid]! < start) lo = mid + 1;
      else hi = mid;
    }
    this.starts.splice(lo, 0, start);
    this.ends.splice(lo, 0, end);
  }

  /** Rounding without the offset. */
  private innerRound(v: number): number {
    const iv = this.rounding.interval;
    const zone = this.zone;
    const off = zone.offsetAt(v);
    if (iv.kind === 'fixed') {
      const local = v + off;
      const rounded = Math.floor(local / iv.millis) * iv.millis;
      const utc = zone.localToUtc(rounded);
      return utc <= v ? utc : rounded - off;
    }
    const unitMs = UNIT_MILLIS[iv.unit];
    if (unitMs !== undefined) {
      // Sub-day units truncate local time, as java.time's truncatedTo does.
      const local = v + off;
      return Math.floor(local / unitMs) * unitMs - off;
    }
    const l = localFromEpoch(v, 0, off);
    truncate(l, iv.unit);
    const utc = zone.localToUtc(localMillis(l));
    return utc <= v ? utc : localMillis(l) - off;
  }

  /** The next bucket start after `key` (a bucket start), without the offset. */
  private innerNext(key: number): number {
    const iv = this.rounding.interval;
    if (iv.kind === 'fixed') {
      const n = this.innerRound(key + iv.millis);
      return n > key ? n : key + iv.millis;
    }
    const unitMs = UNIT_MILLIS[iv.unit];
    if (unitMs !== undefined) {
      const n = this.innerRound(key + unitMs);
      return n > key ? n : key + unitMs;
    }
    const l = localFromEpoch(key, 0, this.zone.offsetAt(key));
    truncate(l, iv.unit);
    step(l, iv.unit);
    return this.zone.localToUtc(localMillis(l));
  }
}

function localMillis(l: LocalDateTime): number {
  return (
    daysFromCivil(l.year, l.month, l.day) * MS_PER_DAY +
    l.hour * 3_600_000 +
    l.minute * 60_000 +
    l.second * 1000
  );
}

/** Truncates local fields to the start of their day, week, month, quarter or year. */
function truncate(l: LocalDateTime, unit: CalendarUnit): void {
  l.hour = 0;
  l.minute = 0;
  l.second = 0;
  l.nano = 0;
  switch (unit) {
    case 'week': {
      const days = daysFromCivil(l.year, l.month, l.day);
      const c = civilFromDays(days - (isoDayOfWeek(days) - 1));
      l.year = c.year;
      l.month = c.month;
      l.day = c.day;
      return;
    }
    case 'month':
      l.day = 1;
      return;
    case 'quarter':
      l.day = 1;
      l.month = Math.floor((l.month - 1) / 3) * 3 + 1;
      return;
    case 'year':
      l.day = 1;
      l.month = 1;
      return;
    default:
      return;
  }
}

/** Moves truncated local fields one unit on. */
function step(l: LocalDateTime, unit: CalendarUnit): void {
  if (unit === 'day' || unit === 'week') {
    const c = civilFromDays(daysFromCivil(l.year, l.month, l.day) + (unit === 'day' ? 1 : 7));
    l.year = c.year;
    l.month = c.month;
    l.day = c.day;
    return;
  }
  const months = unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12;
  const total = l.year * 12 + (l.month - 1) + months;
  l.year = Math.floor(total / 12);
  l.month = total - l.year * 12 + 1;
}
