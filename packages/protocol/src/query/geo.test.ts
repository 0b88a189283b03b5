import { describe, expect, it } from 'vitest';
import {
  geohashCell,
  geohashPoint,
  parseDistanceMeters,
  parseGeoPointValue,
  pointFromString,
} from './geo-point.ts';
import { parseQuery } from './parse-query.ts';

const reason = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    const err = e as { type: string; reason: string };
    return `${err.type}: ${err.reason}`;
  }
  return 'no error';
};

describe('geo points of the query DSL', () => {
  it('reads every form GeoUtils.parseGeoPoint reads', () => {
    const p = { lat: 40.5, lon: -74.25 };
    expect(parseGeoPointValue({ lat: 40.5, lon: -74.25 })).toEqual(p);
    expect(parseGeoPointValue({ lat: '40.5', lon: '-74.25' })).toEqual(p);
    expect(parseGeoPointValue('40.5,-74.25')).toEqual(p);
    expect(parseGeoPointValue([-74.25, 40.5])).toEqual(p);
    expect(parseGeoPointValue('POINT (-74.25 40.5)')).toEqual(p);
    expect(parseGeoPointValue({ type: 'Point', coordinates: [-74.25, 40.5] })).toEqual(p);
    // Out-of-range values are kept: the query's validation_method decides.
    expect(parseGeoPointValue({ lat: 100, lon: 200 })).toEqual({ lat: 100, lon: 200 });
  });

  it('takes the bottom-left corner of a geohash cell, or the corner asked for', () => {
    expect(geohashPoint('s')).toEqual({ lat: 0, lon: 0 });
    expect(geohashCell('s')).toEqual({ minLat: 0, maxLat: 45, minLon: 0, maxLon: 45 });
    expect(geohashPoint('s', 'top_right')).toEqual({ lat: 45, lon: 45 });
    expect(geohashPoint('z', 'top_left')).toEqual({ lat: 90, lon: 135 });
    expect(reason(() => geohashPoint('a'))).toBe('parse_exception: unsupported symbol [a] in geohash [a]');
    expect(reason(() => pointFromString('', false))).toBe('parse_exception: empty geohash');
  });

  it('fails as GenericPointParser does', () => {
    expect(reason(() => parseGeoPointValue({ lat: 1 }))).toBe('parse_exception: Required [lon]');
    expect(reason(() => parseGeoPointValue({ lat: 1, lon: 2, geohash: 's' }))).toBe(
      'parse_exception: fields matching more than one point format found: [geohash, lon/lat]',
    );
    expect(reason(() => parseGeoPointValue([1, 2, 3]))).toBe(
      'parse_exception: Exception parsing coordinates: found Z value [3.0] but [ignore_z_value] parameter is [false]',
    );
    expect(reason(() => parseGeoPointValue({ lat: 'x', lon: 1 }))).toBe(
      'parse_exception: [latitude] must be a valid double value',
    );
    expect(reason(() => parseGeoPointValue('MULTIPOINT (1 2, 3 4)'))).toBe(
      'parse_exception: [geo_point] supports only POINT among WKT primitives, but found MULTIPOINT',
    );
    // Without `point` in it, the text is read as `lat,lon`.
    expect(reason(() => parseGeoPointValue('LINESTRING (1 2, 3 4)'))).toBe(
      'parse_exception: latitude must be a number',
    );
    expect(reason(() => parseGeoPointValue(true))).toBe('parse_exception: geo_point expected');
  });

  it('parses distances with DistanceUnit suffixes', () => {
    expect(parseDistanceMeters('12km', 1)).toBe(12000);
    expect(parseDistanceMeters('1mi', 1)).toBe(1609.344);
    expect(parseDistanceMeters('2NM', 1)).toBe(3704);
    expect(parseDistanceMeters('10', 1000)).toBe(10000);
    expect(parseDistanceMeters('5in', 1)).toBeCloseTo(0.127, 12);
    expect(reason(() => parseDistanceMeters('far', 1))).toBe(
      'number_format_exception: For input string: "far"',
    );
  });
});

describe('geo queries', () => {
  it('builds geo_distance nodes', () => {
    expect(parseQuery({ geo_distance: { distance: '2km', 'loc.lat': 1, 'loc.lon': 2, boost: 2 } })).toEqual({
      type: 'geo_distance',
      field: 'loc',
      lat: 1,
      lon: 2,
      distance: 2000,
      distanceType: 'arc',
      validation: 'STRICT',
      ignoreUnmapped: false,
      boost: 2,
    });
    expect(reason(() => parseQuery({ geo_distance: { distance: '2km', loc: 's', other: 1 } }))).toBe(
      'parsing_exception: failed to parse [geo_distance] query. unexpected field [other]',
    );
    expect(
      reason(() => parseQuery({ geo_distance: { distance: '2km', distance_type: 'x', loc: 's' } })),
    ).toBe('illegal_argument_exception: No geo distance for [x]');
  });

  it('builds geo_bounding_box nodes from corners, sides and WKT', () => {
    const box = { top: 2, left: 1, bottom: 0, right: 3 };
    expect(parseQuery({ geo_bounding_box: { loc: { wkt: 'BBOX (1, 3, 2, 0)' } } })).toMatchObject(box);
    expect(
      parseQuery({ geo_bounding_box: { loc: { top_left: [1, 2], bottom_right: [3, 0] } } }),
    ).toMatchObject(box);
    expect(reason(() => parseQuery({ geo_bounding_box: { loc: { wkt: 'POINT (1 2)' } } }))).toBe(
      'parse_exception: failed to parse [geo_bounding_box] query. [failed to parse WKT bounding box. [POINT] found. expected [ENVELOPE]]',
    );
    expect(
      reason(() => parseQuery({ geo_bounding_box: { loc: { wkt: 'BBOX (1, 3, 2, 0)', top: 1 } } })),
    ).toBe(
      'parse_exception: failed to parse [geo_bounding_box] query. [failed to parse bounding box. Conflicting definition found using well-known text and explicit corners.]',
    );
  });
});
