/**
 * geo_point values in the shapes Elasticsearch accepts: `{"lat":…,"lon":…}`, `"lat,lon"`,
 * a geohash, `"POINT (lon lat)"`, `[lon, lat]` and GeoJSON `{"type":"Point","coordinates":[lon,lat]}`.
 */
import { geohashPoint, illegalArgument, parseException } from '@shoal/protocol';
import { isPlainObject } from './nodes.ts';

export interface GeoPoint {
  lat: number;
  lon: number;
}

/**
 * A geohash is indexed as its cell's bottom-left corner: GeoPointFieldMapper parses with
 * GeoUtils.parseGeoPoint(parser, ignoreZValue), i.e. EffectivePoint.BOTTOM_LEFT, and
 * GeoPoint.resetFromGeoHash unscales Geohash.mortonEncode's bits (at most 12 characters read).
 */
function decodeGeohash(hash: string): GeoPoint {
  return geohashPoint(hash);
}

function coord(v: unknown, name: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  throw parseException(`[${name}] must be a number`);
}

function fromString(s: string, ignoreZ: boolean): GeoPoint {
  const wkt = /^\s*POINT\s*\(\s*(\S+)\s+(\S+)(?:\s+(\S+))?\s*\)\s*$/i.exec(s);
  if (wkt) {
    if (wkt[3] !== undefined && !ignoreZ)
      throw parseException('found Z value but [ignore_z_value] parameter is [false]');
    return { lon: coord(wkt[1], 'lon'), lat: coord(wkt[2], 'lat') };
  }
  const parts = s.split(',');
  if (parts.length === 1) return decodeGeohash(s);
  if (parts.length > 3)
    throw parseException(`failed to parse [${s}], expected 2 or 3 coordinates but found: [${parts.length}]`);
  if (parts.length === 3 && !ignoreZ)
    throw parseException('found Z value but [ignore_z_value] parameter is [false]');
  return { lat: coord(parts[0]!.trim(), 'lat'), lon: coord(parts[1]!.trim(), 'lon') };
}

function fromArray(a: unknown[], ignoreZ: boolean): GeoPoint {
  if (a.length < 2)
    throw parseException('[geo_point] field type should be defined by at least two dimensions');
  if (a.length > 3) throw parseException('[geo_point] field type does not accept more than 3 values');
  if (a.length === 3 && !ignoreZ)
    throw parseException('found Z value but [ignore_z_value] parameter is [false]');
  return { lon: coord(a[0], 'lon'), lat: coord(a[1], 'lat') };
}

/** Parses one point; throws for malformed input or out-of-range coordinates. */
export function parseGeoPoint(v: unknown, field: string, ignoreZ: boolean): GeoPoint {
  let p: GeoPoint;
  if (typeof v === 'string') p = fromString(v, ignoreZ);
  else if (Array.isArray(v)) p = fromArray(v, ignoreZ);
  else if (isPlainObject(v)) {
    if (v.type !== undefined && v.coordinates !== undefined) {
      if (String(v.type).toLowerCase() !== 'point')
        throw parseException(`[type] for geo_point can only be 'Point'`);
      if (!Array.isArray(v.coordinates)) throw parseException('[coordinates] must be an array');
      p = fromArray(v.coordinates, ignoreZ);
    } else if (v.geohash !== undefined) {
      p = decodeGeohash(String(v.geohash));
    } else {
      for (const k of Object.keys(v)) {
        if (k !== 'lat' && k !== 'lon' && k !== 'z')
          throw parseException(`field must be either [lat], [lon] or [geohash]`);
      }
      if (v.lat === undefined) throw parseException('field [lat] missing');
      if (v.lon === undefined) throw parseException('field [lon] missing');
      p = { lat: coord(v.lat, 'lat'), lon: coord(v.lon, 'lon') };
    }
  } else {
    throw parseException('geo_point expected');
  }
  if (!(p.lat >= -90 && p.lat <= 90)) throw illegalArgument(`illegal latitude value [${p.lat}] for ${field}`);
  if (!(p.lon >= -180 && p.lon <= 180))
    throw illegalArgument(`illegal longitude value [${p.lon}] for ${field}`);
  return p;
}

/** `[lon, lat]` (or with z): an array that is one point rather than several values. */
export function isCoordinateArray(a: unknown[]): boolean {
  return (a.length === 2 || a.length === 3) && a.every((x) => typeof x === 'number');
}
