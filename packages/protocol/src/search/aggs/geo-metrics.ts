/**
 * geo_bounds and geo_centroid on the coordinator: the reduce of the shards' partials and the
 * response body, as InternalGeoBounds and InternalGeoCentroid (InternalCentroid) do them. Neither
 * reduces a single partial (mustReduceOnSingleInternalAgg is false), which mergePartials honours
 * by returning a lone partial as it is.
 */
import type { GeoBoundsPartial, GeoCentroidPartial } from './partial.ts';
import type { Renderer } from './render.ts';

export const EMPTY_GEO_BOUNDS: GeoBoundsPartial = {
  t: 'geo_bounds',
  top: Number.NEGATIVE_INFINITY,
  bottom: Number.POSITIVE_INFINITY,
  posLeft: Number.POSITIVE_INFINITY,
  posRight: Number.NEGATIVE_INFINITY,
  negLeft: Number.POSITIVE_INFINITY,
  negRight: Number.NEGATIVE_INFINITY,
};

export const EMPTY_GEO_CENTROID: GeoCentroidPartial = {
  t: 'geo_centroid',
  lat: Number.NaN,
  lon: Number.NaN,
  count: 0,
};

/** InternalGeoBounds.reduce: the extremes of the extremes. */
export function mergeGeoBounds(parts: readonly GeoBoundsPartial[]): GeoBoundsPartial {
  let { top, bottom, posLeft, posRight, negLeft, negRight } = EMPTY_GEO_BOUNDS;
  for (const p of parts) {
    if (p.top > top) top = p.top;
    if (p.bottom < bottom) bottom = p.bottom;
    if (p.posLeft < posLeft) posLeft = p.posLeft;
    if (p.posRight > posRight) posRight = p.posRight;
    if (p.negLeft < negLeft) negLeft = p.negLeft;
    if (p.negRight > negRight) negRight = p.negRight;
  }
  return { t: 'geo_bounds', top, bottom, posLeft, posRight, negLeft, negRight };
}

/**
 * InternalCentroid.reduce: each shard's centroid weighted back into sums by its count (plain
 * additions, in shard order), then divided by the total count.
 */
export function mergeGeoCentroids(parts: readonly GeoCentroidPartial[]): GeoCentroidPartial {
  let lonSum = Number.NaN;
  let latSum = Number.NaN;
  let count = 0;
  for (const p of parts) {
    if (p.count <= 0) continue;
    count += p.count;
    if (Number.isNaN(lonSum)) {
      lonSum = p.count * p.lon;
      latSum = p.count * p.lat;
    } else {
      lonSum += p.count * p.lon;
      latSum += p.count * p.lat;
    }
  }
  if (Number.isNaN(lonSum)) return EMPTY_GEO_CENTROID;
  return { t: 'geo_centroid', lat: latSum / count, lon: lonSum / count, count };
}

/**
 * InternalGeoBounds.resolveBoundingBox: no box without a point; one hemisphere's longitudes
 * alone; both, either across the antimeridian or not — with `wrap_longitude`, whichever box is
 * narrower (the unwrapped one on a tie).
 */
export function renderGeoBounds(
  r: Renderer,
  p: GeoBoundsPartial,
  wrapLongitude: boolean,
  out: Record<string, unknown>,
): void {
  const { top, bottom, posLeft, posRight, negLeft, negRight } = p;
  if (!Number.isFinite(top)) return;
  let left: number;
  let right: number;
  if (!Number.isFinite(posLeft)) {
    left = negLeft;
    right = negRight;
  } else if (!Number.isFinite(negLeft)) {
    left = posLeft;
    right = posRight;
  } else if (wrapLongitude) {
    const unwrappedWidth = posRight - negLeft;
    const wrappedWidth = 180 - posLeft - (-180 - negRight);
    if (unwrappedWidth <= wrappedWidth) {
      left = negLeft;
      right = posRight;
    } else {
      left = posLeft;
      right = negRight;
    }
  } else {
    left = negLeft;
    right = posRight;
  }
  out.bounds = {
    top_left: { lat: r.double(top), lon: r.double(left) },
    bottom_right: { lat: r.double(bottom), lon: r.double(right) },
  };
}

/** InternalCentroid.doXContentBody: `location` only when there is a point, then `count`. */
export function renderGeoCentroid(r: Renderer, p: GeoCentroidPartial, out: Record<string, unknown>): void {
  if (p.count > 0) out.location = { lat: r.double(p.lat), lon: r.double(p.lon) };
  out.count = p.count;
}
