import type { DateRounding } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { DateRounder } from './date-rounding.ts';

const t = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

function rounder(interval: DateRounding['interval'], timeZone?: string, offsetMillis = 0): DateRounder {
  return new DateRounder(
    timeZone === undefined ? { interval, offsetMillis } : { interval, offsetMillis, timeZone },
  );
}

describe('date_histogram rounding', () => {
  it('rounds to calendar units in UTC and steps to the next one', () => {
    const cases: [DateRounding['interval'], string, string, string][] = [
      [
        { kind: 'calendar', unit: 'day' },
        '2020-01-03T10:00:00Z',
        '2020-01-03T00:00:00.000Z',
        '2020-01-04T00:00:00.000Z',
      ],
      [
        { kind: 'calendar', unit: 'week' },
        '2020-01-01T12:00:00Z',
        '2019-12-30T00:00:00.000Z',
        '2020-01-06T00:00:00.000Z',
      ],
      [
        { kind: 'calendar', unit: 'month' },
        '2020-02-29T23:59:59Z',
        '2020-02-01T00:00:00.000Z',
        '2020-03-01T00:00:00.000Z',
      ],
      [
        { kind: 'calendar', unit: 'quarter' },
        '2020-05-10T00:00:00Z',
        '2020-04-01T00:00:00.000Z',
        '2020-07-01T00:00:00.000Z',
      ],
      [
        { kind: 'calendar', unit: 'year' },
        '2020-12-31T23:00:00Z',
        '2020-01-01T00:00:00.000Z',
        '2021-01-01T00:00:00.000Z',
      ],
      [
        { kind: 'calendar', unit: 'hour' },
        '2020-01-01T05:59:59Z',
        '2020-01-01T05:00:00.000Z',
        '2020-01-01T06:00:00.000Z',
      ],
      [
        { kind: 'fixed', millis: 90 * 60_000 },
        '2020-01-01T02:00:00Z',
        '2020-01-01T01:30:00.000Z',
        '2020-01-01T03:00:00.000Z',
      ],
    ];
    for (const [interval, value, key, next] of cases) {
      const r = rounder(interval);
      expect(iso(r.round(t(value)))).toBe(key);
      expect(iso(r.next(t(key)))).toBe(next);
    }
  });

  it('rounds dates before the epoch down', () => {
    const r = rounder({ kind: 'calendar', unit: 'day' });
    expect(iso(r.round(t('1969-12-31T12:00:00Z')))).toBe('1969-12-31T00:00:00.000Z');
    expect(iso(rounder({ kind: 'fixed', millis: 3_600_000 }).round(-1))).toBe('1969-12-31T23:00:00.000Z');
  });

  it('rounds in local time of fixed-offset zones', () => {
    const day = rounder({ kind: 'calendar', unit: 'day' }, '+01:00');
    expect(iso(day.round(t('2020-01-03T23:30:00Z')))).toBe('2020-01-03T23:00:00.000Z');
    const hour = rounder({ kind: 'calendar', unit: 'hour' }, '+05:30');
    expect(iso(hour.round(t('2020-01-01T00:10:00Z')))).toBe('2019-12-31T23:30:00.000Z');
    const fixed = rounder({ kind: 'fixed', millis: 86_400_000 }, '-05:00');
    expect(iso(fixed.round(t('2020-01-02T03:00:00Z')))).toBe('2020-01-01T05:00:00.000Z');
  });

  it('follows daylight saving time in region zones', () => {
    const r = rounder({ kind: 'calendar', unit: 'day' }, 'Europe/Paris');
    const march29 = r.round(t('2020-03-29T12:00:00Z'));
    expect(iso(march29)).toBe('2020-03-28T23:00:00.000Z');
    expect(iso(r.next(march29))).toBe('2020-03-29T22:00:00.000Z');
    expect(iso(r.round(t('2020-03-29T21:59:59Z')))).toBe('2020-03-28T23:00:00.000Z');
    expect(iso(r.round(t('2020-03-29T22:00:00Z')))).toBe('2020-03-29T22:00:00.000Z');
    const month = rounder({ kind: 'calendar', unit: 'month' }, 'America/New_York');
    expect(iso(month.round(t('2020-11-15T00:00:00Z')))).toBe('2020-11-01T04:00:00.000Z');
    expect(iso(month.next(t('2020-11-01T04:00:00Z')))).toBe('2020-12-01T05:00:00.000Z');
  });

  it('shifts buckets by the offset', () => {
    const r = rounder({ kind: 'calendar', unit: 'day' }, undefined, 6 * 3_600_000);
    expect(iso(r.round(t('2020-01-03T05:00:00Z')))).toBe('2020-01-02T06:00:00.000Z');
    expect(iso(r.next(t('2020-01-02T06:00:00Z')))).toBe('2020-01-03T06:00:00.000Z');
    const f = rounder({ kind: 'fixed', millis: 3_600_000 }, undefined, -15 * 60_000);
    expect(iso(f.round(t('2020-01-01T10:50:00Z')))).toBe('2020-01-01T10:45:00.000Z');
  });
});
