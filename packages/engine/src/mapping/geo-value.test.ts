import { describe, expect, it } from 'vitest';
import { parseGeoPoint } from './geo-value.ts';
import { thrown } from './test-helpers.ts';

describe('geohash values', () => {
  it("index the cell's bottom-left corner, as GeoPoint.resetFromGeoHash", () => {
    // dr5r: lon bits 0100101101 (301), lat bits 1011100111 (743) of 10 each.
    const corner = { lat: (743 * 180) / 1024 - 90, lon: (301 * 360) / 1024 - 180 };
    expect(parseGeoPoint('dr5r', 'g', false)).toEqual(corner);
    expect(parseGeoPoint({ geohash: 'dr5r' }, 'g', false)).toEqual(corner);
    expect(parseGeoPoint('0', 'g', false)).toEqual({ lat: -90, lon: -180 });
    expect(parseGeoPoint('s', 'g', false)).toEqual({ lat: 0, lon: 0 });
  });

  it('read at most 12 characters', () => {
    expect(parseGeoPoint('dr5regw3pg6fzzz', 'g', false)).toEqual(parseGeoPoint('dr5regw3pg6f', 'g', false));
  });

  it('fail on a symbol outside the base 32 alphabet with a parse_exception', () => {
    const e = thrown(() => parseGeoPoint('dr5a', 'g', false));
    expect(e.type).toBe('parse_exception');
    expect(e.reason).toBe('unsupported symbol [a] in geohash [dr5a]');
  });
});
