import { describe, expect, it } from 'vitest';
import { EMPTY_GEO_BOUNDS, mergeGeoBounds, mergeGeoCentroids, renderGeoBounds } from './geo-metrics.ts';
import type { GeoBoundsPartial } from './partial.ts';
import { Renderer } from './render.ts';

const r = new Renderer({ format: () => '', nextKey: (k) => k, round: (k) => k });
const box = (p: Partial<GeoBoundsPartial>, wrap = true) => {
  const out: Record<string, unknown> = {};
  renderGeoBounds(r, { ...EMPTY_GEO_BOUNDS, ...p }, wrap, out);
  return out.bounds;
};

describe('geo_bounds', () => {
  it('takes the extremes of the shards', () => {
    const a = { ...EMPTY_GEO_BOUNDS, top: 10, bottom: 5, posLeft: 1, posRight: 2 };
    const b = { ...EMPTY_GEO_BOUNDS, top: 7, bottom: -3, negLeft: -20, negRight: -10 };
    expect(mergeGeoBounds([a, b])).toEqual({ ...a, bottom: -3, negLeft: -20, negRight: -10 });
  });

  it('resolves the box as InternalGeoBounds does, the unwrapped one on a tie', () => {
    expect(box({})).toBeUndefined();
    const both = { top: 1, bottom: 0, posLeft: 90, posRight: 90, negLeft: -90, negRight: -90 };
    // 180 wide either way: unwrapped.
    expect(box(both)).toEqual({ top_left: { lat: 1, lon: -90 }, bottom_right: { lat: 0, lon: 90 } });
    const near = { ...both, posLeft: 170, posRight: 170, negLeft: -170, negRight: -170 };
    expect(box(near)).toEqual({ top_left: { lat: 1, lon: 170 }, bottom_right: { lat: 0, lon: -170 } });
    expect(box(near, false)).toEqual({ top_left: { lat: 1, lon: -170 }, bottom_right: { lat: 0, lon: 170 } });
    expect(box({ top: 1, bottom: 0, negLeft: -5, negRight: -4 })).toEqual({
      top_left: { lat: 1, lon: -5 },
      bottom_right: { lat: 0, lon: -4 },
    });
  });
});

describe('geo_centroid', () => {
  it("weights each shard's centroid by its count, skipping empty shards", () => {
    const merged = mergeGeoCentroids([
      { t: 'geo_centroid', lat: 0.1, lon: 0.3, count: 3 },
      { t: 'geo_centroid', lat: Number.NaN, lon: Number.NaN, count: 0 },
      { t: 'geo_centroid', lat: 0.7, lon: -0.2, count: 2 },
    ]);
    expect(merged).toEqual({
      t: 'geo_centroid',
      lat: (3 * 0.1 + 2 * 0.7) / 5,
      lon: (3 * 0.3 + 2 * -0.2) / 5,
      count: 5,
    });
    expect(mergeGeoCentroids([]).count).toBe(0);
  });
});
