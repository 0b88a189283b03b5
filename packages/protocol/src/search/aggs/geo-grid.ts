/**
 * geohash_grid and geotile_grid on the coordinator (InternalGeoGrid): the shards' cells merged by
 * key with their sub-aggregations, then — in the final reduce only — the `size` fullest kept in
 * BucketPriorityQueue's order and written as `{"buckets": [{key, doc_count, …}]}`.
 */
import { mergeAggregations } from './merge.ts';
import type { AggPartial, GeoGridBucket, GeoGridPartial } from './partial.ts';
import type { Renderer } from './render.ts';
import type { GeoGridSpec } from './spec.ts';

/**
 * BucketPriorityQueue.lessThan, greatest first: more docs first; on a tie the greater cell
 * long first (InternalGeoGridBucket.compareTo on hashAsLong). A geohash long orders as its text
 * (the base-32 digits ascend in ASCII, the level is the same); a tile long as (x, y).
 */
export function compareGridBuckets(
  type: GeoGridSpec['type'],
): (a: { key: string; docCount: number }, b: { key: string; docCount: number }) => number {
  return (a, b) => {
    if (a.docCount !== b.docCount) return b.docCount - a.docCount;
    return type === 'geohash_grid' ? compareText(b.key, a.key) : compareTiles(b.key, a.key);
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareTiles(a: string, b: string): number {
  const [, ax = 0, ay = 0] = a.split('/').map(Number);
  const [, bx = 0, by = 0] = b.split('/').map(Number);
  return ax !== bx ? ax - bx : ay - by;
}

/** InternalGeoGrid.reduce without the cut: cells with the same key add up. */
export function mergeGeoGrids(spec: GeoGridSpec, parts: readonly GeoGridPartial[]): GeoGridPartial {
  const byKey = new Map<string, { docCount: number; aggs: (readonly AggPartial[])[] }>();
  for (const p of parts) {
    for (const b of p.buckets) {
      const acc = byKey.get(b.key);
      if (acc) {
        acc.docCount += b.docCount;
        acc.aggs.push(b.aggs);
      } else byKey.set(b.key, { docCount: b.docCount, aggs: [b.aggs] });
    }
  }
  const buckets: GeoGridBucket[] = [];
  for (const [key, acc] of byKey) {
    buckets.push({ key, docCount: acc.docCount, aggs: mergeAggregations(spec.aggs, acc.aggs) });
  }
  return { t: 'geo_grid', buckets };
}

export const EMPTY_GEO_GRID: GeoGridPartial = { t: 'geo_grid', buckets: [] };

/** The final reduce's cut to `size` and InternalGeoGrid.doXContentBody. */
export function renderGeoGrid(
  r: Renderer,
  spec: GeoGridSpec,
  p: GeoGridPartial,
  out: Record<string, unknown>,
): void {
  const top = [...p.buckets].sort(compareGridBuckets(spec.type)).slice(0, spec.size);
  r.consumeBuckets(top.length);
  out.buckets = top.map((b) => {
    const o: Record<string, unknown> = { key: b.key, doc_count: b.docCount };
    r.renderAll(spec.aggs, b.aggs, o);
    return o;
  });
}
