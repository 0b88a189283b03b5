/**
 * The `_geo_distance` (or `_geoDistance`) sort: GeoDistanceSortBuilder.fromXContent. It becomes a
 * field sort on the geo_point field whose values are distances (doubles, in `unit`); the shard
 * checks the points' ranges by `validation_method` (localPoints) and resolves the field.
 */
import { illegalArgument, notImplemented, parseException } from '../errors/catalogue.ts';
import {
  distanceUnit,
  type GeoDistanceType,
  type GeoValidation,
  geoDistanceType,
  geoValidation,
  type LatLon,
  parseGeoPointValue,
  pointFromString,
} from '../query/geo-point.ts';
import { parsingError } from '../query/local-errors.ts';
import { here, isObject, onValue, type ParseCtx } from '../query/parse-context.ts';
import { booleanValue, text } from '../query/xcontent-values.ts';
import { sortMode, sortOrder } from './parse-sort.ts';
import type { SortMode, SortOrder, SortSpec } from './sort-spec.ts';

export interface GeoDistanceSortOptions {
  points: LatLon[];
  /** The unit's size in meters (DistanceUnit): sort values are distances in this unit. */
  unitMeters: number;
  distanceType: GeoDistanceType;
  validation: GeoValidation;
  ignoreUnmapped: boolean;
}

const NAME = '_geo_distance';

export function parseGeoDistanceSort(ctx: ParseCtx, body: Record<string, unknown>): SortSpec {
  let field: string | undefined;
  const points: LatLon[] = [];
  let unitMeters = 1;
  let distanceType: GeoDistanceType = 'arc';
  let order: SortOrder = 'asc';
  let mode: SortMode | undefined;
  let validation: GeoValidation = 'STRICT';
  let ignoreUnmapped = false;
  const resetCheck = (key: string) => {
    if (field !== undefined && field !== key) {
      throw parsingError(
        `Trying to reset fieldName to [${key}], already set to [${field}].`,
        here(ctx, 'value', key),
      );
    }
  };
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (Array.isArray(v)) {
      ctx.path.push(key);
      readPoints(ctx, v, points);
      ctx.path.pop();
      field = key;
    } else if (isObject(v)) {
      if (key === 'nested') {
        here(ctx, 'value', key);
        throw notImplemented('the [nested] option of the [_geo_distance] sort');
      }
      resetCheck(key);
      field = key;
      points.push(onValue(ctx, key, () => parseGeoPointValue(v)));
    } else if (v !== null) {
      switch (key) {
        case 'order':
          order = onValue(ctx, key, () => sortOrder(text(ctx, v, key)));
          break;
        case 'unit':
          unitMeters = onValue(ctx, key, () => distanceUnit(text(ctx, v, key)));
          break;
        case 'distance_type':
          distanceType = onValue(ctx, key, () => geoDistanceType(text(ctx, v, key)));
          break;
        case 'validation_method':
          validation = onValue(ctx, key, () => geoValidation(text(ctx, v, key)));
          break;
        case 'mode':
        case 'sort_mode':
          mode = onValue(ctx, key, () => sortMode(text(ctx, v, key)));
          break;
        case 'ignore_unmapped':
          ignoreUnmapped = booleanValue(ctx, v, key);
          break;
        default:
          if (typeof v === 'string') {
            resetCheck(key);
            points.push(onValue(ctx, key, () => pointFromString(v, false)));
            field = key;
          } else if (field === key) {
            throw parsingError(
              `Only geohashes of type string supported for field [${key}]`,
              here(ctx, 'value', key),
            );
          } else {
            throw parsingError(`[${NAME}] does not support [${key}]`, here(ctx, 'value', key));
          }
      }
    }
  }
  if (points.length === 0 || field === undefined) {
    here(ctx, 'end');
    throw illegalArgument('Geo distance sorting needs at least one point.');
  }
  if (mode === 'sum') {
    here(ctx, 'end');
    throw illegalArgument(`sort_mode [sum] isn't supported for sorting by geo distance`);
  }
  const spec: SortSpec = {
    kind: 'field',
    field,
    order,
    missing: '_last',
    geoDistance: { points, unitMeters, distanceType, validation, ignoreUnmapped },
  };
  if (mode !== undefined) spec.mode = mode;
  return spec;
}

/**
 * GeoDistanceSortBuilder.parseGeoPoints: bare numbers are read in pairs (`[lon, lat, lon, lat]`,
 * so `[lon, lat]` is one point), anything else is one point each.
 */
function readPoints(ctx: ParseCtx, arr: unknown[], out: LatLon[]): void {
  for (let i = 0; i < arr.length; i++) {
    const e = arr[i];
    if (typeof e === 'number' || typeof e === 'bigint') {
      const next = arr[i + 1];
      if (typeof next !== 'number' && typeof next !== 'bigint') {
        here(ctx, 'value', i + 1 < arr.length ? i + 1 : i);
        throw parsingGeoPoint(next);
      }
      out.push({ lon: Number(e), lat: Number(next) });
      i++;
    } else {
      out.push(onValue(ctx, i, () => parseGeoPointValue(e)));
    }
  }
}

function parsingGeoPoint(next: unknown) {
  const token =
    next === undefined
      ? 'END_ARRAY'
      : typeof next === 'string'
        ? 'VALUE_STRING'
        : Array.isArray(next)
          ? 'START_ARRAY'
          : next === null
            ? 'VALUE_NULL'
            : typeof next === 'boolean'
              ? 'VALUE_BOOLEAN'
              : 'START_OBJECT';
  return parseException(`geo point parsing: expected second number but got [${token}] instead`);
}
