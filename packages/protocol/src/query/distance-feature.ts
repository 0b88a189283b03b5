/**
 * `distance_feature` (DistanceFeatureQueryBuilder): `field`, `origin` and `pivot`, all
 * required. The origin is a number or string (a date, or a geo point as text) or a geo point
 * as an object or array, read as GeoUtils.parseGeoPoint reads it; the field's type decides on
 * the shard how origin and pivot are understood.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import type { QueryNode } from './ast.ts';
import { type LatLon, parseGeoPointValue } from './geo-point.ts';
import {
  assertSupports,
  here,
  onValue,
  type ParseCtx,
  parseField,
  type Token,
  tokenOf,
  unknownField,
  VT,
} from './parse-context.ts';
import { floatValue, text } from './xcontent-values.ts';

export interface DistanceFeatureQuery {
  type: 'distance_feature';
  field: string;
  /** A long or a string (date math, or a geo point as text), or a parsed geo point. */
  origin: number | bigint | string | LatLon;
  pivot: string;
  boost: number;
}

const NAME = 'distance_feature';
const FIELDS = ['field', 'origin', 'pivot', 'boost', '_name'];
/** ObjectParser.ValueType.OBJECT_ARRAY_STRING_OR_NUMBER. */
const ORIGIN_TOKENS = new Set<Token>(['START_OBJECT', 'START_ARRAY', 'VALUE_STRING', 'VALUE_NUMBER']);

export function parseDistanceFeature(body: Record<string, unknown>, ctx: ParseCtx): QueryNode {
  let field: string | undefined;
  let origin: DistanceFeatureQuery['origin'] | undefined;
  let pivot: string | undefined;
  let boost = 1;
  for (const key of Object.keys(body)) {
    const v = body[key];
    switch (key) {
      case 'field':
        assertSupports(ctx, NAME, key, v, VT.STRING);
        field = text(ctx, v, key);
        break;
      case 'pivot':
        assertSupports(ctx, NAME, key, v, VT.STRING);
        pivot = text(ctx, v, key);
        break;
      case 'origin': {
        assertSupports(ctx, NAME, key, v, ORIGIN_TOKENS);
        const t = tokenOf(v);
        if (t === 'VALUE_NUMBER') origin = typeof v === 'number' ? Math.trunc(v) : (v as bigint);
        else if (t === 'VALUE_STRING') origin = v as string;
        else origin = parseField(ctx, NAME, key, () => onValue(ctx, undefined, () => parseGeoPointValue(v)));
        break;
      }
      case 'boost':
        assertSupports(ctx, NAME, key, v, VT.FLOAT);
        boost = floatValue(ctx, v, key);
        break;
      case '_name':
        assertSupports(ctx, NAME, key, v, VT.STRING);
        break;
      default:
        throw unknownField(ctx, NAME, key, FIELDS);
    }
  }
  const missing = [
    field === undefined && 'field',
    origin === undefined && 'origin',
    pivot === undefined && 'pivot',
  ].filter((x): x is string => typeof x === 'string');
  if (missing.length > 0) {
    here(ctx, 'end');
    throw illegalArgument(`Required [${missing.join(', ')}]`);
  }
  return { type: 'distance_feature', field: field!, origin: origin!, pivot: pivot!, boost };
}
