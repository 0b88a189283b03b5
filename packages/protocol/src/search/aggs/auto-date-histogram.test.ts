import { describe, expect, it } from 'vitest';
import { appropriateRounding, roundingLadder } from './auto-date-histogram.ts';
import { failure, one } from './parse.test-support.ts';
import { reduce } from './reduce.test-support.ts';
import type { AutoDateHistogramSpec } from './spec.ts';

const DAY = 86_400_000;
/** Fixed steps: enough for counting buckets in UTC. */
const dates = {
  nextKey: (key: number, r: { interval: { kind: string; unit?: string } }) =>
    key +
    ({ second: 1000, minute: 60_000, hour: 3_600_000, day: DAY, month: 30 * DAY, year: 365 * DAY }[
      r.interval.unit!
    ] ?? 1),
};

describe('auto_date_histogram', () => {
  it('reads buckets and minimum_interval, and bounds the target by search.max_buckets', () => {
    expect(
      one({ h: { auto_date_histogram: { field: 'd', buckets: 5, minimum_interval: 'day' } } }),
    ).toMatchObject({
      buckets: 5,
      minimumInterval: 'day',
    });
    expect(failure({ h: { auto_date_histogram: { field: 'd', minimum_interval: 'week' } } })).toMatchObject({
      status: 400,
      cause: { reason: 'minimum_interval must be one of [[year, month, day, hour, minute, second]]' },
    });
    expect(failure({ h: { auto_date_histogram: { field: 'd', buckets: 3000 } } })).toMatchObject({
      status: 400,
      reason: 'buckets must be less than 2184',
    });
  });

  it('climbs the ladder to the first rounding whose buckets fit the target times its largest multiple', () => {
    const spec = one({ h: { auto_date_histogram: { field: 'd' } } }) as AutoDateHistogramSpec;
    const ladder = roundingLadder(spec);
    expect(ladder.map((s) => s.unit)).toEqual(['second', 'minute', 'hour', 'day', 'month', 'year']);
    // 8 days with a target of 2: 192 hours > 2 × 12, 8 days ≤ 2 × 7.
    expect(appropriateRounding(0, 8 * DAY, 0, ladder, 2, dates, undefined)).toBe(3);
    expect(appropriateRounding(0, 50 * 1000, 0, ladder, 2, dates, undefined)).toBe(0);
    expect(appropriateRounding(0, 40 * 365 * DAY, 0, ladder, 2, dates, undefined)).toBe(5);
  });

  it('merges shards at the coarsest rounding any used', () => {
    const out = reduce({ h: { auto_date_histogram: { field: 'd', buckets: 10 } } }, [
      [
        {
          t: 'auto_date_histogram',
          fmt: { kind: 'raw' },
          roundingIdx: 2,
          buckets: [{ key: 3_600_000, docCount: 1, aggs: [] }],
        },
      ],
      [
        {
          t: 'auto_date_histogram',
          fmt: { kind: 'raw' },
          roundingIdx: 3,
          buckets: [{ key: DAY, docCount: 2, aggs: [] }],
        },
      ],
    ]);
    expect(out.h).toEqual({
      buckets: [
        { key: 0, doc_count: 1 },
        { key: DAY, doc_count: 2 },
      ],
      interval: '1d',
    });
  });
});
