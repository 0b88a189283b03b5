import { describe, expect, it } from 'vitest';
import { formatTimeValue, formatTimeValueNanos, parseTimeValue } from './time-value.ts';

function reason(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('did not throw');
}

describe('parseTimeValue', () => {
  it('parses every unit', () => {
    expect(parseTimeValue('5m', 'scroll')).toBe(300_000);
    expect(parseTimeValue('30s', 'scroll')).toBe(30_000);
    expect(parseTimeValue('100ms', 'x')).toBe(100);
    expect(parseTimeValue('2h', 'x')).toBe(7_200_000);
    expect(parseTimeValue('1d', 'x')).toBe(86_400_000);
    expect(parseTimeValue('1500micros', 'x')).toBe(1);
    expect(parseTimeValue('2000000nanos', 'x')).toBe(2);
    expect(parseTimeValue(' 10S ', 'x')).toBe(10_000);
    expect(parseTimeValue('1H', 'x')).toBe(3_600_000);
  });

  it('accepts the unit-less -1 and 0 only', () => {
    expect(parseTimeValue('-1', 'x')).toBe(-1);
    expect(parseTimeValue('-01', 'x')).toBe(-1);
    expect(parseTimeValue('0', 'x')).toBe(0);
    expect(parseTimeValue('00', 'x')).toBe(0);
    expect(parseTimeValue('-1s', 'x')).toBe(-1000);
  });

  it('gives Elasticsearch messages (paging.md §2.2 #44–#46)', () => {
    expect(reason(() => parseTimeValue('5', 'scroll'))).toBe(
      'failed to parse setting [scroll] with value [5] as a time value: unit is missing or unrecognized',
    );
    expect(reason(() => parseTimeValue('-2m', 'scroll'))).toBe(
      'failed to parse setting [scroll] with value [-2m] as a time value: negative durations are not supported',
    );
    expect(reason(() => parseTimeValue('1.5m', 'keep_alive'))).toBe(
      'failed to parse [1.5m], fractional time values are not supported',
    );
    expect(reason(() => parseTimeValue('abcs', 'x'))).toBe('failed to parse [abcs]');
  });

  it('treats M as months (rejected) and has no weeks', () => {
    expect(reason(() => parseTimeValue('5M', 'scroll'))).toMatch(/unit is missing or unrecognized/);
    expect(reason(() => parseTimeValue('1w', 'scroll'))).toMatch(/unit is missing or unrecognized/);
  });

  it('throws 400 illegal_argument_exception', () => {
    try {
      parseTimeValue('x', 'scroll');
    } catch (e) {
      expect((e as { type: string; status: number }).type).toBe('illegal_argument_exception');
      expect((e as { status: number }).status).toBe(400);
    }
  });
});

describe('formatTimeValue', () => {
  it('prints the largest unit with one truncated decimal', () => {
    expect(formatTimeValue(86_400_000)).toBe('1d');
    expect(formatTimeValue(25 * 3_600_000)).toBe('1d');
    expect(formatTimeValue(2 * 86_400_000)).toBe('2d');
    expect(formatTimeValue(90_000)).toBe('1.5m');
    expect(formatTimeValue(60_000)).toBe('1m');
    expect(formatTimeValue(119_999)).toBe('1.9m');
    expect(formatTimeValue(1500)).toBe('1.5s');
    expect(formatTimeValue(5)).toBe('5ms');
    expect(formatTimeValue(0)).toBe('0s');
    expect(formatTimeValue(-1)).toBe('-1');
    expect(formatTimeValue(0.5)).toBe('500micros');
    expect(formatTimeValueNanos(12)).toBe('12nanos');
  });
});
