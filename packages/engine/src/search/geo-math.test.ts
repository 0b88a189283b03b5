import { describe, expect, it } from 'vitest';
import {
  arcDistance,
  decodeLatitude,
  decodeLongitude,
  distanceQuerySortKey,
  encodeLatitude,
  encodeLatitudeCeil,
  encodeLongitude,
  haversinMeters,
  haversinSortKey,
  normalizePoint,
  planeDistance,
  sloppyAsin,
  sloppyCos,
} from './geo-math.ts';

describe('GeoEncodingUtils', () => {
  it('encodes to 32-bit ints, flooring (ceil on request), 90 and 180 just below', () => {
    expect(encodeLatitude(90)).toBe(2147483647);
    expect(encodeLatitude(-90)).toBe(-2147483648);
    expect(encodeLongitude(180)).toBe(2147483647);
    expect(encodeLongitude(-180)).toBe(-2147483648);
    expect(encodeLatitude(0)).toBe(0);
    for (const x of [40.7143528, -74.0059731, 1e-9, -1e-9, 89.999999]) {
      const d = decodeLatitude(encodeLatitude(x));
      expect(d).toBeLessThanOrEqual(x);
      expect(x - d).toBeLessThan(180 / 2 ** 32);
      expect(decodeLatitude(encodeLatitudeCeil(x))).toBeGreaterThanOrEqual(x);
      expect(decodeLongitude(encodeLongitude(x))).toBeLessThanOrEqual(x);
    }
  });
});

describe('SloppyMath', () => {
  it('cos and asin stay within Lucene test accuracy', () => {
    for (let i = 0; i < 2000; i++) {
      const d = (Math.random() - 0.5) * 1000;
      expect(Math.abs(sloppyCos(d) - Math.cos(d))).toBeLessThan(1e-15 * 10);
      const a = Math.random() * 2 - 1;
      expect(Math.abs(sloppyAsin(a) - Math.asin(a))).toBeLessThan(1e-7);
    }
    expect(sloppyAsin(1)).toBe(Math.PI / 2);
    expect(Number.isNaN(sloppyAsin(2))).toBe(true);
  });

  it('haversin as TestSloppyMath pins it', () => {
    expect(arcDistance(0, 0, 0, 0)).toBe(0);
    expect(arcDistance(0, -180, 0, 180)).toBe(0);
    expect(arcDistance(90, -180, 90, 180)).toBe(0);
    expect(arcDistance(0, 0, 0, 180)).toBe(6_371_008.7714 * Math.PI);
    expect(arcDistance(40.7143528, -74.0059731, 40.759011, -73.9844722)).toBeCloseTo(5_285.89, 1);
    expect(arcDistance(40.7143528, -74.0059731, 40.718266, -74.007819)).toBeCloseTo(462.1, 1);
    expect(arcDistance(40.7143528, -74.0059731, 40.65, -73.95)).toBeCloseTo(8_572.11, 1);
    expect(haversinMeters(0)).toBe(0);
  });

  it('the query sort key is the smallest key at least the radius away', () => {
    for (const r of [1, 1000, 12345.678, 5_000_000]) {
      const key = distanceQuerySortKey(r);
      expect(haversinMeters(key)).toBeGreaterThanOrEqual(r);
    }
    const c = haversinSortKey(40, -70, 40.01, -70);
    const d = haversinMeters(c);
    expect(c <= distanceQuerySortKey(d)).toBe(true);
  });
});

describe('GeoUtils', () => {
  it('plane distance is close to the arc for short distances', () => {
    const arc = arcDistance(52, 4, 52.01, 4.01);
    expect(Math.abs(planeDistance(52, 4, 52.01, 4.01) - arc)).toBeLessThan(0.01);
  });

  it('normalizes points as normalizePoint does', () => {
    const p = { lat: 100, lon: 10 };
    normalizePoint(p);
    expect(p).toEqual({ lat: 80, lon: -170 });
    const q = { lat: 10, lon: 190 };
    normalizePoint(q);
    expect(q).toEqual({ lat: 10, lon: -170 });
    const r = { lat: -10, lon: -180 };
    normalizePoint(r);
    expect(r).toEqual({ lat: -10, lon: -180 });
  });
});
