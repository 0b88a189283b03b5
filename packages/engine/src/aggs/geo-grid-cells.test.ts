import { describe, expect, it } from 'vitest';
import { geohashInBounds, geohashOf, tilePredicate, xTile, yTile } from './geo-grid-cells.ts';

// Independent of the code under test: the textbook geohash (halving intervals) and the
// OpenStreetMap slippy-map tile formulas.
function bisectGeohash(lat: number, lon: number, level: number): string {
  const alphabet = '0123456789bcdefghjkmnpqrstuvwxyz';
  let [latLo, latHi, lonLo, lonHi] = [-90, 90, -180, 180];
  let out = '';
  let even = true;
  for (let c = 0; c < level; c++) {
    let v = 0;
    for (let k = 0; k < 5; k++) {
      if (even) {
        const mid = (lonLo + lonHi) / 2;
        v = v * 2 + (lon >= mid ? 1 : 0);
        if (lon >= mid) lonLo = mid;
        else lonHi = mid;
      } else {
        const mid = (latLo + latHi) / 2;
        v = v * 2 + (lat >= mid ? 1 : 0);
        if (lat >= mid) latLo = mid;
        else latHi = mid;
      }
      even = !even;
    }
    out += alphabet[v];
  }
  return out;
}

function osmTile(lat: number, lon: number, zoom: number): [number, number] {
  const n = 2 ** zoom;
  const rad = (lat * Math.PI) / 180;
  const x = Math.floor(((lon + 180) / 360) * n);
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return [Math.min(Math.max(x, 0), n - 1), Math.min(Math.max(y, 0), n - 1)];
}

const POINTS: [number, number][] = [
  [52.374081, 4.91235],
  [51.2229, 4.4052],
  [48.861111, 2.336389],
  [-33.8688, 151.2093],
  [40.7143528, -74.0059731],
  [-54.8, -68.3],
  [0.5, -0.5],
  [64.1, -21.9],
];

describe('geohash cells', () => {
  it('match the textbook encoding at every level', () => {
    for (const [lat, lon] of POINTS) {
      for (let level = 1; level <= 12; level++) {
        expect(geohashOf(lat, lon, level)).toBe(bisectGeohash(lat, lon, level));
      }
    }
  });

  it('put the poles and the antimeridian in the edge cells', () => {
    expect(geohashOf(90, 180, 2)).toBe('zz');
    expect(geohashOf(-90, -180, 2)).toBe('00');
  });

  it('keep cells sharing an interior point with the box, not those touching it', () => {
    // "u1" spans lon [0, 11.25], lat [50.625, 56.25].
    const box = { top: 60, bottom: 50.625, left: 11.25, right: 20 };
    expect(geohashInBounds('u1', box)).toBe(false);
    expect(geohashInBounds('u1', { ...box, left: 11 })).toBe(true);
    expect(geohashInBounds('u1', { top: 52, bottom: 51, left: 170, right: 1 })).toBe(true);
    expect(geohashInBounds('u1', { top: 52, bottom: 51, left: 170, right: -1 })).toBe(false);
  });
});

describe('geotile cells', () => {
  it('match the slippy-map tiles', () => {
    for (const [lat, lon] of POINTS) {
      for (const zoom of [0, 1, 3, 8, 12, 17]) {
        const tiles = 2 ** zoom;
        expect([xTile(lon, tiles), yTile(lat, tiles)]).toEqual(osmTile(lat, lon, zoom));
      }
    }
  });

  it('clip beyond the Mercator mask and at the antimeridian', () => {
    expect([xTile(-180, 4), yTile(89.9, 4)]).toEqual([0, 0]);
    expect([xTile(180, 4), yTile(-89.9, 4)]).toEqual([3, 3]);
  });

  it('keep the tiles the box overlaps, dropping those it only touches', () => {
    // Zoom 1: four tiles split at lon 0 and lat 0.
    const valid = tilePredicate(1, { top: 10, bottom: -10, left: 0, right: 20 });
    expect(valid(1, 0)).toBe(true);
    expect(valid(1, 1)).toBe(true);
    expect(valid(0, 0)).toBe(false);
    const north = tilePredicate(1, { top: 10, bottom: 0, left: -20, right: 20 });
    expect([north(0, 0), north(1, 0), north(0, 1), north(1, 1)]).toEqual([true, true, false, false]);
    expect(tilePredicate(3, { top: 89, bottom: 86, left: -10, right: 10 })(3, 0)).toBe(false);
  });
});
