import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggregate, bucketsOf } from './aggs.test-support.ts';

const c = corpus(
  { date: { type: 'date' }, v: { type: 'long' } },
  [
    ['1', { date: '2020-03-01', v: 1 }],
    ['2', { date: '2020-03-02', v: 2 }],
    ['3', { date: '2020-03-08', v: 3 }],
    ['4', { date: '2020-03-09', v: 4 }],
  ],
  2,
);

const keys = (out: ReturnType<typeof aggregate>, name = 'h') =>
  bucketsOf(out, name).map((b) => `${b.key_as_string}:${b.doc_count}`);

describe('auto_date_histogram collector and reduce', () => {
  it('merges days into weeks to stay within the target, and names the interval', () => {
    const out = aggregate(c, {
      h: { auto_date_histogram: { field: 'date', buckets: 2 }, aggs: { v: { sum: { field: 'v' } } } },
    });
    expect(out.h!.interval).toBe('7d');
    expect(bucketsOf(out, 'h')).toEqual([
      { key_as_string: '2020-03-01T00:00:00.000Z', key: 1583020800000, doc_count: 2, v: { value: 3 } },
      { key_as_string: '2020-03-08T00:00:00.000Z', key: 1583625600000, doc_count: 2, v: { value: 7 } },
    ]);
  });

  it('fills the gaps at the rounding the range needs', () => {
    const out = aggregate(c, { h: { auto_date_histogram: { field: 'date', buckets: 10 } } });
    expect(out.h!.interval).toBe('1d');
    expect(keys(out)).toHaveLength(9);
    expect(keys(out).slice(0, 3)).toEqual([
      '2020-03-01T00:00:00.000Z:1',
      '2020-03-02T00:00:00.000Z:1',
      '2020-03-03T00:00:00.000Z:0',
    ]);
  });

  it('climbs to months and years for wide ranges, and honours minimum_interval and format', () => {
    const wide = corpus({ date: { type: 'date' } }, [
      ['1', { date: '2001-05-01' }],
      ['2', { date: '2009-01-01' }],
      ['3', { date: '2020-12-31' }],
    ]);
    const out = aggregate(wide, {
      h: { auto_date_histogram: { field: 'date', buckets: 3, format: 'yyyy' } },
    });
    expect(out.h!.interval).toBe('10y');
    // 20 yearly buckets from 2001: runs of 10 bring them to 2.
    expect(keys(out)).toEqual(['2001:2', '2011:1']);
    const min = aggregate(c, {
      h: { auto_date_histogram: { field: 'date', buckets: 100, minimum_interval: 'month' } },
    });
    expect(min.h!.interval).toBe('1M');
    expect(keys(min)).toEqual(['2020-03-01T00:00:00.000Z:4']);
  });

  it('answers no buckets for no docs', () => {
    const out = aggregate(c, { h: { auto_date_histogram: { field: 'nope' } } });
    expect(out.h).toEqual({ buckets: [], interval: '1s' });
  });
});
