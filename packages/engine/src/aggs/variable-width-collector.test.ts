import { mergeAggregations, renderAggregations } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggDates } from './agg-dates.ts';
import { aggregate, bucketsOf, partialsOf, specsOf } from './aggs.test-support.ts';

const numbers = (values: number[]) =>
  corpus(
    { number: { type: 'integer' } },
    values.map((n, i) => [String(i), { number: n }]),
    2,
  );

describe('variable_width_histogram collector and reduce', () => {
  it('merges the closest clusters down to the target, keys at the centroids', () => {
    const out = aggregate(numbers([-3, -2, 1, 4, 5]), {
      h: {
        variable_width_histogram: { field: 'number', buckets: 3 },
        aggs: { n: { sum: { field: 'number' } } },
      },
    });
    expect(bucketsOf(out, 'h')).toEqual([
      { min: -3, key: -2.5, max: -2, doc_count: 2, n: { value: -5 } },
      { min: 1, key: 1, max: 1, doc_count: 1, n: { value: 1 } },
      { min: 4, key: 4.5, max: 5, doc_count: 2, n: { value: 9 } },
    ]);
  });

  it('weights centroids by doc count when shards merge', () => {
    const aggs = { h: { variable_width_histogram: { field: 'number', buckets: 2 } } };
    const specs = specsOf(aggs);
    const a = partialsOf(numbers([1, 1, 1, 10]), specs);
    const b = partialsOf(numbers([2, 11, 12]), specs);
    const out = renderAggregations(specs, mergeAggregations(specs, [a, b]), { dates: aggDates }) as Record<
      string,
      Record<string, unknown>
    >;
    expect(bucketsOf(out, 'h')).toEqual([
      { min: 1, key: 1.25, max: 2, doc_count: 4 },
      { min: 10, key: 11, max: 12, doc_count: 3 },
    ]);
  });

  it('checks its sizes as Elasticsearch does', () => {
    // ObjectParser wraps the setter's error: `[variable_width_histogram] failed to parse field [buckets]`.
    expect(() => specsOf({ h: { variable_width_histogram: { field: 'number', buckets: 0 } } })).toThrow(
      'failed to parse field [buckets]',
    );
    expect(() =>
      specsOf({ h: { variable_width_histogram: { field: 'number', buckets: 10, shard_size: 12 } } }),
    ).toThrow('3/4 of shard_size must be at least buckets but was [9<10] for [h]');
  });
});
