import { describe, expect, it } from 'vitest';
import { ChangeCollector, changeSources } from './changes.ts';
import { parsePivot } from './pivot-config.ts';
import { BodyReader } from './strict-body.ts';

const pivot = parsePivot(
  new BodyReader(''),
  {
    group_by: {
      user: { terms: { field: 'user' } },
      day: { date_histogram: { field: 'time', calendar_interval: '1d' } },
      tile: { geotile_grid: { field: 'p', precision: 3 } },
    },
    aggs: { n: { value_count: { field: 'time' } } },
  },
  [],
);

const page = (keys: Record<string, unknown>[], after?: Record<string, unknown>) => ({
  aggregations: { _changes: { buckets: keys.map((key) => ({ key, doc_count: 1 })), after_key: after } },
});

describe('change collection', () => {
  it('groups changed documents by the transform keys it can filter on', () => {
    const sources = changeSources(pivot, undefined);
    expect(sources.map((s) => [s.name, s.kind])).toEqual([
      ['user', 'terms'],
      ['day', 'date_histogram'],
    ]);
    expect(sources[0]!.body).toEqual({ field: 'user', missing_bucket: true });
  });

  it('filters on the changed terms and from the lowest changed bucket on', () => {
    const c = new ChangeCollector(changeSources(pivot, undefined));
    expect(c.any).toBe(false);
    const next = c.collect(
      page(
        [
          { user: 'a', day: 200 },
          { user: 'b', day: 100 },
        ],
        { user: 'b', day: 100 },
      ),
    );
    expect(next).toEqual({ user: 'b', day: 100 });
    expect(c.collect(page([]))).toBeUndefined();
    expect(c.any).toBe(true);
    expect(c.filters()).toEqual([
      { terms: { user: ['a', 'b'] } },
      { range: { time: { gte: 100, format: 'epoch_millis' } } },
    ]);
  });

  it('does not filter on a key some changed document lacks', () => {
    const c = new ChangeCollector(changeSources(pivot, undefined));
    c.collect(
      page([
        { user: null, day: 5 },
        { user: 'a', day: 7 },
      ]),
    );
    expect(c.filters()).toEqual([{ range: { time: { gte: 5, format: 'epoch_millis' } } }]);
  });

  it('collects the unique keys of a latest transform', () => {
    const sources = changeSources(undefined, { uniqueKey: ['a', 'b'], sort: 't', json: {} });
    const c = new ChangeCollector(sources);
    c.collect(page([{ k0: 'x', k1: 1 }]));
    expect(c.filters()).toEqual([{ terms: { a: ['x'] } }, { terms: { b: [1] } }]);
  });
});
