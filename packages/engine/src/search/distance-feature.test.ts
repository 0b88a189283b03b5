import { describe, expect, it } from 'vitest';
import { corpus } from './test-corpus.test-support.ts';

const c = corpus(
  { at: { type: 'date' }, loc: { type: 'geo_point' }, tag: { type: 'keyword' } },
  [
    ['1', { at: ['2024-01-01T00:00:00Z', '2024-01-10T00:00:00Z'], loc: { lat: 0, lon: 0 } }],
    ['2', { at: '2024-01-02T00:00:00Z', loc: { lat: 0, lon: 0.01 } }],
    ['3', { tag: 'x' }],
  ],
  2,
);

describe('distance_feature', () => {
  it('scores boost × pivot / (pivot + distance) with the nearest of a doc’s values', () => {
    const r = c.search({
      type: 'distance_feature',
      field: 'at',
      origin: '2024-01-09T00:00:00Z',
      pivot: '1d',
      boost: 2,
    });
    expect(r.totalHits).toBe(2);
    const byScore = r.hits.map((h) => h.score);
    // Doc 1 is 1 day away (its second value), doc 2 seven days.
    expect(byScore).toEqual([Math.fround(2 * (1 / 2)), Math.fround(2 * (1 / 8))]);
  });

  it('measures geo distances in meters from the origin', () => {
    const r = c.search({ type: 'distance_feature', field: 'loc', origin: '0,0', pivot: '1km', boost: 1 });
    expect(r.hits[0]!.score).toBeCloseTo(1, 5);
    // 0.01° of longitude at the equator is about 1.11 km.
    expect(r.hits[1]!.score).toBeCloseTo(1000 / (1000 + 1111.95), 3);
  });

  it('refuses a pivot that is not positive', () => {
    expect(() =>
      c.search({ type: 'distance_feature', field: 'at', origin: 'now', pivot: '0s', boost: 1 }),
    ).toThrow(/pivotDistance must be > 0/);
  });
});
