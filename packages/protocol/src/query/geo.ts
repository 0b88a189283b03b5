/**
 * The geo queries on geo_point fields: `geo_distance` (GeoDistanceQueryBuilder.fromXContent)
 * and `geo_bounding_box` (GeoBoundingBoxQueryBuilder.fromXContent over
 * GeoBoundingBox.parseBoundingBox). The nodes carry the coordinates as given; their range is
 * checked on the shard according to `validation`, as Elasticsearch does in doToQuery.
 */
import { illegalArgument, parseException } from '../errors/catalogue.ts';
import { isShoalError } from '../errors/shoal-error.ts';
import { javaDouble } from '../values/java-double.ts';
import type { QueryNode } from './ast.ts';
import {
  distanceUnit,
  type EffectivePoint,
  type GeoDistanceType,
  type GeoValidation,
  geoDistanceType,
  geoValidation,
  type LatLon,
  parseDistanceMeters,
  parseGeoPointValue,
  pointFromString,
} from './geo-point.ts';
import { parsingError } from './local-errors.ts';
import { here, isObject, isValue, onValue, type ParseCtx } from './parse-context.ts';
import { checkSingleField } from './term-level.ts';
import { booleanValue, doubleValue, floatValue, text } from './xcontent-values.ts';

export interface GeoDistanceQuery {
  type: 'geo_distance';
  field: string;
  lat: number;
  lon: number;
  /** The radius in meters. */
  distance: number;
  /** Parsed and kept as Elasticsearch does; the query itself always measures the arc. */
  distanceType: GeoDistanceType;
  validation: GeoValidation;
  ignoreUnmapped: boolean;
  boost: number;
}

export interface GeoBoundingBoxQuery {
  type: 'geo_bounding_box';
  field: string;
  top: number;
  left: number;
  bottom: number;
  right: number;
  validation: GeoValidation;
  ignoreUnmapped: boolean;
  boost: number;
}

const DISTANCE_QUERY = 'geo_distance';
const BOX_QUERY = 'geo_bounding_box';

export function parseGeoDistance(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let field: string | undefined;
  let point: LatLon = { lat: Number.NaN, lon: Number.NaN };
  let distance: string | number | undefined;
  let unitMeters = 1;
  let distanceType: GeoDistanceType = 'arc';
  let validation: GeoValidation = 'STRICT';
  let ignoreUnmapped = false;
  let boost = 1;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (Array.isArray(v)) {
      field = key;
      point = onValue(ctx, key, () => parseGeoPointValue(v));
    } else if (isObject(v)) {
      checkSingleField(ctx, DISTANCE_QUERY, field, key);
      field = key;
      point = onValue(ctx, key, () => parseGeoPointValue(v));
    } else if (isValue(v)) {
      switch (key) {
        case 'distance':
          distance = typeof v === 'string' ? v : doubleValue(ctx, v, key);
          break;
        case 'unit':
          unitMeters = onValue(ctx, key, () => distanceUnit(text(ctx, v, key)));
          break;
        case 'distance_type':
          distanceType = onValue(ctx, key, () => geoDistanceType(text(ctx, v, key)));
          break;
        case '_name':
          text(ctx, v, key);
          break;
        case 'boost':
          boost = floatValue(ctx, v, key);
          break;
        case 'ignore_unmapped':
          ignoreUnmapped = booleanValue(ctx, v, key);
          break;
        case 'validation_method':
          validation = onValue(ctx, key, () => geoValidation(text(ctx, v, key)));
          break;
        default:
          if (key.endsWith('.lat')) {
            point = { lat: doubleValue(ctx, v, key), lon: point.lon };
            field = key.slice(0, -'.lat'.length);
          } else if (key.endsWith('.lon')) {
            point = { lat: point.lat, lon: doubleValue(ctx, v, key) };
            field = key.slice(0, -'.lon'.length);
          } else if (field === undefined) {
            point = onValue(ctx, key, () => pointFromString(text(ctx, v, key), false));
            field = key;
          } else {
            throw parsingError(
              `failed to parse [${DISTANCE_QUERY}] query. unexpected field [${key}]`,
              here(ctx, 'value', key),
            );
          }
      }
    }
  }
  if (distance === undefined) {
    throw parsingError(`${DISTANCE_QUERY} requires 'distance' to be specified`, here(ctx, 'end'));
  }
  if (field === undefined || field.length === 0) throw ctorError(ctx, 'fieldName must not be null or empty');
  const distanceText = typeof distance === 'number' ? javaDouble(distance) : distance;
  if (distanceText.length === 0) throw ctorError(ctx, 'distance must not be null or empty');
  const meters = parseDistanceMeters(distanceText, unitMeters);
  if (meters <= 0) throw ctorError(ctx, 'distance must be greater than zero');
  return {
    type: 'geo_distance',
    field,
    lat: point.lat,
    lon: point.lon,
    distance: meters,
    distanceType,
    validation,
    ignoreUnmapped,
    boost,
  };
}

/** A builder failure raised once the whole body was read (the parser stands at its `}`). */
function ctorError(ctx: ParseCtx, reason: string) {
  here(ctx, 'end');
  return illegalArgument(reason);
}

export function parseGeoBoundingBox(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let field: string | undefined;
  let box: Box | undefined;
  let validation: GeoValidation = 'STRICT';
  let ignoreUnmapped = false;
  let boost = 1;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (isObject(v)) {
      try {
        box = parseBoundingBox(v);
      } catch (e) {
        if (!isShoalError(e)) throw e;
        here(ctx, 'value', key);
        throw parseException(`failed to parse [${BOX_QUERY}] query. [${e.reason}]`);
      }
      field = key;
    } else if (isValue(v)) {
      if (key === '_name') text(ctx, v, key);
      else if (key === 'boost') boost = floatValue(ctx, v, key);
      else if (key === 'validation_method')
        validation = onValue(ctx, key, () => geoValidation(text(ctx, v, key)));
      else if (key === 'ignore_unmapped') ignoreUnmapped = booleanValue(ctx, v, key);
      else throw unexpectedBoxField(ctx, key);
    } else if (Array.isArray(v)) {
      throw unexpectedBoxField(ctx, key);
    }
  }
  if (box === undefined || field === undefined) {
    here(ctx, 'end');
    throw parseException(`failed to parse [${BOX_QUERY}] query. bounding box not provided`);
  }
  // setCorners runs before the validation method is set: these checks are always STRICT ones.
  const { top, left, bottom, right } = box;
  const invalid = (x: number) => !Number.isFinite(x);
  if (invalid(top)) throw ctorError(ctx, `top latitude is invalid: ${javaDouble(top)}`);
  if (invalid(left)) throw ctorError(ctx, `left longitude is invalid: ${javaDouble(left)}`);
  if (invalid(bottom)) throw ctorError(ctx, `bottom latitude is invalid: ${javaDouble(bottom)}`);
  if (invalid(right)) throw ctorError(ctx, `right longitude is invalid: ${javaDouble(right)}`);
  if (top < bottom) {
    throw ctorError(ctx, `top is below bottom corner: ${javaDouble(top)} vs. ${javaDouble(bottom)}`);
  }
  return { type: 'geo_bounding_box', field, top, left, bottom, right, validation, ignoreUnmapped, boost };
}

function unexpectedBoxField(ctx: ParseCtx, key: string) {
  return parsingError(
    `failed to parse [${BOX_QUERY}] query. unexpected field [${key}]`,
    here(ctx, 'value', key),
  );
}

export interface Box {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

const CORNERS: Record<string, EffectivePoint> = {
  top_left: 'top_left',
  bottom_right: 'bottom_right',
  top_right: 'top_right',
  bottom_left: 'bottom_left',
};

/** GeoBoundingBox.parseBoundingBox (BoundingBox.BoundsParser); messages are those it raises. */
export function parseBoundingBox(obj: Record<string, unknown>): Box {
  let top = Number.NaN;
  let bottom = Number.NaN;
  let left = Number.NaN;
  let right = Number.NaN;
  let envelope: Box | undefined;
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    switch (key) {
      case 'wkt':
        envelope = parseWktBbox(v);
        break;
      case 'top':
        top = boundValue(v);
        break;
      case 'bottom':
        bottom = boundValue(v);
        break;
      case 'left':
        left = boundValue(v);
        break;
      case 'right':
        right = boundValue(v);
        break;
      default: {
        const corner = CORNERS[key];
        if (corner === undefined)
          throw parseException(`failed to parse bounding box. unexpected field [${key}]`);
        const p = parseGeoPointValue(v, false, corner);
        if (corner === 'top_left' || corner === 'top_right') top = p.lat;
        else bottom = p.lat;
        if (corner === 'top_left' || corner === 'bottom_left') left = p.lon;
        else right = p.lon;
      }
    }
  }
  if (envelope !== undefined) {
    if (!Number.isNaN(top) || !Number.isNaN(bottom) || !Number.isNaN(left) || !Number.isNaN(right)) {
      throw parseException(
        'failed to parse bounding box. Conflicting definition found using well-known text and explicit corners.',
      );
    }
    return envelope;
  }
  return { top, left, bottom, right };
}

function boundValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') return parseDouble(v);
  throw parseException(`Current token (${v === null ? 'VALUE_NULL' : 'START_OBJECT'}) not numeric`);
}

function parseDouble(s: string): number {
  const t = s.trim();
  const n = Number(t);
  if (t.length === 0 || Number.isNaN(n)) throw parseException(`For input string: "${t}"`);
  return n;
}

const WKT_BBOX = /^\s*bbox\s*\(([^)]*)\)\s*$/i;

/** WellKnownText's `BBOX (minLon, maxLon, maxLat, minLat)`; only an envelope makes a box. */
function parseWktBbox(v: unknown): Box {
  if (typeof v !== 'string') throw parseException('failed to parse WKT bounding box');
  const m = WKT_BBOX.exec(v);
  if (!m) {
    const type = /^\s*([a-z]+)/i.exec(v)?.[1]?.toUpperCase();
    if (type !== undefined && WKT_GEOMETRIES.has(type)) {
      throw parseException(`failed to parse WKT bounding box. [${type}] found. expected [ENVELOPE]`);
    }
    throw parseException('failed to parse WKT bounding box');
  }
  const parts = m[1]!.split(',').map((p) => p.trim());
  const nums = parts.map(Number);
  if (nums.length !== 4 || parts.some((p) => p.length === 0) || nums.some(Number.isNaN)) {
    throw parseException('failed to parse WKT bounding box');
  }
  const [minLon, maxLon, maxLat, minLat] = nums as [number, number, number, number];
  // Rectangle's own check: max y cannot be less than min y.
  if (maxLat < minLat) throw parseException('failed to parse WKT bounding box');
  return { top: maxLat, left: minLon, bottom: minLat, right: maxLon };
}

const WKT_GEOMETRIES = new Set([
  'POINT',
  'MULTIPOINT',
  'LINESTRING',
  'MULTILINESTRING',
  'POLYGON',
  'MULTIPOLYGON',
  'GEOMETRYCOLLECTION',
  'CIRCLE',
]);
