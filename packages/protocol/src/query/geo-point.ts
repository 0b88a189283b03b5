/**
 * Geo values of the query DSL as Elasticsearch 8 reads them (GeoUtils.parseGeoPoint over
 * GenericPointParser, GeoPoint.resetFromString, Geohash, DistanceUnit, GeoDistance,
 * GeoValidationMethod). Unlike the mapper, nothing here checks the coordinate ranges: the
 * queries and the sort do that later, according to their `validation_method`.
 */
import { illegalArgument, parseException } from '../errors/catalogue.ts';
import { isShoalError } from '../errors/shoal-error.ts';
import { javaDouble } from '../values/java-double.ts';
import { javaParseDouble } from './xcontent-values.ts';

export interface LatLon {
  lat: number;
  lon: number;
}

/** Which corner of a geohash cell a geohash stands for (GeoUtils.EffectivePoint). */
export type EffectivePoint = 'top_left' | 'top_right' | 'bottom_left' | 'bottom_right';

export type GeoValidation = 'STRICT' | 'IGNORE_MALFORMED' | 'COERCE';
export type GeoDistanceType = 'arc' | 'plane';

// ------------------------------------------------------------------ geohash

const BASE_32 = '0123456789bcdefghjkmnpqrstuvwxyz';
const LAT_SCALE = 2 ** 31 / 180;
const LON_SCALE = 2 ** 31 / 360;

/**
 * A geohash's cell (Geohash.mortonEncode / toBoundingBox): at most 12 characters are read, the
 * corners computed as Elasticsearch unscales its morton bits (`bits / SCALE - 180`), so the
 * doubles are the same.
 */
export function geohashCell(hash: string): {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
} {
  if (hash.length === 0) throw parseException('empty geohash');
  let lat = 0;
  let lon = 0;
  let latBits = 0;
  let lonBits = 0;
  let even = true;
  const len = Math.min(12, hash.length);
  for (let i = 0; i < len; i++) {
    const ch = hash[i]!;
    const b = BASE_32.indexOf(ch);
    if (b < 0) throw parseException(`unsupported symbol [${ch}] in geohash [${hash}]`);
    for (let bit = 4; bit >= 0; bit--) {
      const on = (b >> bit) & 1;
      if (even) {
        lon = lon * 2 + on;
        lonBits++;
      } else {
        lat = lat * 2 + on;
        latBits++;
      }
      even = !even;
    }
  }
  const latUnit = 2 ** (30 - latBits) * 2;
  const lonUnit = 2 ** (30 - lonBits) * 2;
  const minLat = (lat * latUnit) / LAT_SCALE - 90;
  const minLon = (lon * lonUnit) / LON_SCALE - 180;
  const maxLat = lat + 1 >= 2 ** 30 ? 90 : ((lat + 1) * latUnit) / LAT_SCALE - 90;
  const maxLon = ((lon + 1) * lonUnit) / LON_SCALE - 180;
  return { minLat, maxLat, minLon, maxLon };
}

/** GeoPoint.parseGeoHash: the bottom-left corner unless another corner is asked for. */
export function geohashPoint(hash: string, at: EffectivePoint = 'bottom_left'): LatLon {
  const c = geohashCell(hash);
  switch (at) {
    case 'bottom_left':
      return { lat: c.minLat, lon: c.minLon };
    case 'top_left':
      return { lat: c.maxLat, lon: c.minLon };
    case 'top_right':
      return { lat: c.maxLat, lon: c.maxLon };
    case 'bottom_right':
      return { lat: c.minLat, lon: c.maxLon };
  }
}

// ------------------------------------------------------------------ points

function assertZ(ignoreZ: boolean, z: number): void {
  if (!ignoreZ) {
    throw parseException(
      `Exception parsing coordinates: found Z value [${javaDouble(z)}] but [ignore_z_value] parameter is [false]`,
    );
  }
}

function parseNumber(s: string, what: string): number {
  try {
    return javaParseDouble(s);
  } catch (e) {
    if (isShoalError(e)) throw parseException(`${what} must be a number`);
    throw e;
  }
}

/** GeoPoint.resetFromString: WKT `POINT`, `lat,lon[,z]`, else a geohash. */
export function pointFromString(s: string, ignoreZ: boolean, at: EffectivePoint = 'bottom_left'): LatLon {
  if (s.toLowerCase().includes('point')) return pointFromWkt(s, ignoreZ);
  if (s.includes(',')) {
    const vals = javaSplitComma(s);
    if (vals.length > 3) {
      throw parseException(`failed to parse [${s}], expected 2 or 3 coordinates but found: [${vals.length}]`);
    }
    const lat = parseNumber(vals[0] ?? '', 'latitude');
    const lon = parseNumber(vals[1] ?? '', 'longitude');
    if (vals.length > 2) assertZ(ignoreZ, javaParseDouble(vals[2]!));
    return { lat, lon };
  }
  return geohashPoint(s, at);
}

/** Java's String.split(","): trailing empty strings dropped. */
function javaSplitComma(s: string): string[] {
  const parts = s.split(',');
  while (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const WKT_POINT = /^\s*point\s*(?:z\s*|m\s*|zm\s*)?\(\s*(\S+)\s+(\S+)(?:\s+(\S+))?\s*\)\s*$/i;

/** GeoPoint.resetFromWKT: only a POINT, `Invalid WKT format` for anything unreadable. */
function pointFromWkt(s: string, ignoreZ: boolean): LatLon {
  const m = WKT_POINT.exec(s);
  if (!m) {
    const type = /^\s*([a-z]+)/i.exec(s)?.[1]?.toUpperCase();
    if (type !== undefined && WKT_TYPES.has(type) && type !== 'POINT') {
      throw parseException(`[geo_point] supports only POINT among WKT primitives, but found ${type}`);
    }
    throw parseException('Invalid WKT format');
  }
  const num = (t: string) => {
    const n = Number(t);
    if (Number.isNaN(n) && t !== 'NaN') throw parseException('Invalid WKT format');
    return n;
  };
  const lon = num(m[1]!);
  const lat = num(m[2]!);
  if (m[3] !== undefined) assertZ(ignoreZ, num(m[3]));
  return { lat, lon };
}

const WKT_TYPES = new Set([
  'POINT',
  'MULTIPOINT',
  'LINESTRING',
  'MULTILINESTRING',
  'POLYGON',
  'MULTIPOLYGON',
  'GEOMETRYCOLLECTION',
  'BBOX',
  'CIRCLE',
]);

const POINT_FIELDS = ['lon', 'lat', 'z', 'type', 'coordinates', 'geohash'];

function objectDouble(v: unknown, desc: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    try {
      return javaParseDouble(v);
    } catch (e) {
      if (isShoalError(e)) throw parseException(`[${desc}] must be a valid double value`, e);
      throw e;
    }
  }
  throw parseException(`${desc} must be a number`);
}

/**
 * GeoUtils.parseGeoPoint (GenericPointParser.parsePoint): an object with lat/lon, a geohash or
 * GeoJSON `type`/`coordinates`; an array `[lon, lat(, z)]`; a string. Failures are
 * ElasticsearchParseException (`parse_exception`).
 */
export function parseGeoPointValue(v: unknown, ignoreZ = false, at: EffectivePoint = 'bottom_left'): LatLon {
  if (typeof v === 'string') return pointFromString(v, ignoreZ, at);
  if (Array.isArray(v)) {
    let lon = Number.NaN;
    let lat = Number.NaN;
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      if (typeof e !== 'number' && typeof e !== 'bigint') throw parseException('numeric value expected');
      const n = Number(e);
      if (i === 0) lon = n;
      else if (i === 1) lat = n;
      else if (i === 2) assertZ(ignoreZ, n);
      else throw parseException('[geo_point] field type does not accept > 3 dimensions');
    }
    return { lat, lon };
  }
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    let lon = Number.NaN;
    let lat = Number.NaN;
    let geohash: string | undefined;
    let type: string | undefined;
    let coordinates: number[] | undefined;
    for (const key of Object.keys(o)) {
      const x = o[key];
      switch (key) {
        case 'lon':
          lon = objectDouble(x, 'longitude');
          break;
        case 'lat':
          lat = objectDouble(x, 'latitude');
          break;
        case 'z':
          assertZ(ignoreZ, objectDouble(x, 'z'));
          break;
        case 'geohash':
        case 'type':
          if (typeof x !== 'string') throw parseException(`[${key}] must be a string`);
          if (key === 'geohash') geohash = x;
          else type = x;
          break;
        case 'coordinates':
          if (!Array.isArray(x)) throw parseException('[coordinates] must be an array');
          coordinates = x.map((c) => objectDouble(c, 'coordinates'));
          break;
        default:
          throw parseException(`field [${key}] not supported - must be one of: ${POINT_FIELDS.join(', ')}`);
      }
    }
    return pointOfObject(lat, lon, geohash, type, coordinates, ignoreZ, at);
  }
  throw parseException('geo_point expected');
}

const FIELD_ERROR = 'field must be either lat/lon, geohash string or type/coordinates';

/** GenericPointParser.assertOnlyOneFormat, then the point of the one format given. */
function pointOfObject(
  lat: number,
  lon: number,
  geohash: string | undefined,
  type: string | undefined,
  coordinates: number[] | undefined,
  ignoreZ: boolean,
  at: EffectivePoint,
): LatLon {
  const x = !Number.isNaN(lon);
  const y = !Number.isNaN(lat);
  const found: string[] = [];
  if (geohash !== undefined) found.push('geohash');
  if (x && y) found.push('lon/lat');
  if (coordinates !== undefined && type !== undefined) found.push('GeoJSON');
  if (found.length > 1)
    throw parseException(`fields matching more than one point format found: [${found.join(', ')}]`);
  if (geohash !== undefined) {
    if (x || y || type !== undefined || coordinates !== undefined) throw parseException(FIELD_ERROR);
    return geohashPoint(geohash, at);
  }
  if (found.length === 0) {
    if (x) throw parseException('Required [lat]');
    if (y) throw parseException('Required [lon]');
    if (coordinates !== undefined) throw parseException('Required [type]');
    if (type !== undefined) throw parseException('Required [coordinates]');
    throw parseException(FIELD_ERROR);
  }
  if (coordinates !== undefined) {
    if (type === undefined || type.toLowerCase() !== 'point') {
      throw parseException(`[type] for geo_point can only be 'Point'`);
    }
    if (coordinates.length < 2) throw parseException('[coordinates] must contain at least two values');
    if (coordinates.length === 3) assertZ(ignoreZ, coordinates[2]!);
    if (coordinates.length > 3) throw parseException('[geo_point] field type does not accept > 3 dimensions');
    return { lat: coordinates[1]!, lon: coordinates[0]! };
  }
  return { lat, lon };
}

// ------------------------------------------------------------------ distances

/** DistanceUnit, in declaration order (parsing takes the first unit whose name ends the text). */
const DISTANCE_UNITS: readonly { meters: number; names: readonly string[] }[] = [
  { meters: 0.0254, names: ['in', 'inch'] },
  { meters: 0.9144, names: ['yd', 'yards'] },
  { meters: 0.3048, names: ['ft', 'feet'] },
  { meters: 1000.0, names: ['km', 'kilometers'] },
  { meters: 1852.0, names: ['NM', 'nmi', 'nauticalmiles'] },
  { meters: 0.001, names: ['mm', 'millimeters'] },
  { meters: 0.01, names: ['cm', 'centimeters'] },
  { meters: 1609.344, names: ['mi', 'miles'] },
  { meters: 1, names: ['m', 'meters'] },
];

/** DistanceUnit.fromString: one unit's size in meters. */
export function distanceUnit(name: string): number {
  for (const u of DISTANCE_UNITS) if (u.names.includes(name)) return u.meters;
  throw illegalArgument(`No distance unit match [${name}]`);
}

/** DistanceUnit.convert. */
function convert(value: number, fromMeters: number, toMeters: number): number {
  return fromMeters === toMeters ? value : (value * fromMeters) / toMeters;
}

/** DistanceUnit.parse(distance, defaultUnit, METERS): `12km`, `3.5mi`, `100` (default unit). */
export function parseDistanceMeters(distance: string, defaultUnitMeters: number): number {
  for (const u of DISTANCE_UNITS) {
    for (const name of u.names) {
      if (distance.endsWith(name)) {
        return convert(javaParseDouble(distance.slice(0, distance.length - name.length)), u.meters, 1);
      }
    }
  }
  return convert(javaParseDouble(distance), defaultUnitMeters, 1);
}

/** GeoDistance.fromString. */
export function geoDistanceType(s: string): GeoDistanceType {
  const lower = s.toLowerCase();
  if (lower === 'plane' || lower === 'arc') return lower;
  throw illegalArgument(`No geo distance for [${lower}]`);
}

/** GeoValidationMethod.fromString. */
export function geoValidation(s: string): GeoValidation {
  const up = s.toUpperCase();
  if (up === 'STRICT' || up === 'IGNORE_MALFORMED' || up === 'COERCE') return up;
  throw illegalArgument(`operator needs to be either [COERCE, IGNORE_MALFORMED, STRICT], but not [${s}]`);
}
