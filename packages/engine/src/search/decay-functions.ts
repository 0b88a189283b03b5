/**
 * function_score's decay functions (DecayFunctionBuilder): gauss, exp and linear over numeric,
 * date and geo_point fields, with origin, scale, offset, decay and multi_value_mode, as
 * DecayFunctionParser reads their parameters and DecayFunction evaluates them.
 */
import {
  illegalArgument,
  javaDouble,
  numberFormat,
  parseDistanceMeters,
  parseException,
  parseGeoPointValue,
  parseTimeValue,
  ShoalError,
  tokenOf,
} from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import { isJavaDouble, javaParseDouble, resolveDateMath } from '../dates/index.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { CompileEnv } from './compile-env.ts';
import { failedToCreateQuery, isNumericType } from './field-values.ts';
import { arcDistance, decodeLatitude, decodeLongitude } from './geo-math.ts';
import { encodedGeo } from './geo-queries.ts';
import type { Decay, LeafFunction } from './score-functions.ts';

/** DecayFunction.processScale and evaluate of gauss, exp and linear. */
const CURVES: Record<
  Decay['curve'],
  { scale(scale: number, decay: number): number; evaluate(value: number, scale: number): number }
> = {
  gauss: {
    scale: (scale, decay) => (0.5 * scale ** 2) / Math.log(decay),
    evaluate: (value, scale) => Math.exp((0.5 * value ** 2) / scale),
  },
  exp: {
    scale: (scale, decay) => Math.log(decay) / scale,
    evaluate: (value, scale) => Math.exp(scale * value),
  },
  linear: {
    scale: (scale, decay) => scale / (1.0 - decay),
    evaluate: (value, scale) => Math.max(0.0, (scale - value) / scale),
  },
};

/** DecayFunctionBuilder.parseVariable: numbers, dates and geo points. */
export function decay(fn: Decay, env: CompileEnv): (rs: ReaderSegment) => LeafFunction {
  const field = env.mapping.field(fn.field);
  if (!field) throw new ShoalError('parsing_exception', `unknown field [${fn.field}]`, 400);
  let params: { origin: number; scale: number; offset: number; decay: number };
  if (field.type === 'date' || field.type === 'date_nanos') params = dateParams(fn.params, field, env);
  else if (field.type === 'geo_point') return geoDecay(fn, field, env);
  else if (isNumericType(field.type)) params = numberParams(fn.params, env);
  else {
    throw new ShoalError(
      'parsing_exception',
      `field [${fn.field}] is of type [${field.type}], but only numeric types are supported.`,
      400,
    );
  }
  const { curve, scale } = decayCurve(fn, params, env);
  const { origin, offset } = params;
  const mode = fn.multiValueMode;
  return (rs) => {
    const n = rs.segment.field(field.path)?.numeric;
    if (!n) return () => 1;
    const distances: number[] = [];
    return (doc) => {
      const s = n.starts[doc]!;
      const e = n.starts[doc + 1]!;
      // A doc without a value is at distance 0 (FieldData.replaceMissing(…, 0)): it scores 1.
      if (s === e) return curve.evaluate(0, scale);
      distances.length = 0;
      for (let i = s; i < e; i++)
        distances.push(Math.max(0.0, Math.abs(Number(n.values[i]!) - origin) - offset));
      if (distances.length > 1) distances.sort((a, b) => a - b);
      return curve.evaluate(select(distances, mode), scale);
    };
  };
}

/**
 * What a decay function's explanation prints (DecayFunctionBuilder's getDistanceString and
 * explainFunction): the origin, the offset and the processed scale, for numeric and date fields;
 * undefined for geo points.
 */
export function decayParams(
  fn: Decay,
  env: CompileEnv,
): { origin: number; offset: number; scale: number } | undefined {
  const field = env.mapping.field(fn.field);
  if (!field || field.type === 'geo_point') return undefined;
  const params =
    field.type === 'date' || field.type === 'date_nanos'
      ? dateParams(fn.params, field, env)
      : numberParams(fn.params, env);
  return { origin: params.origin, offset: params.offset, scale: decayCurve(fn, params, env).scale };
}

/** AbstractDistanceScoreFunction's checks, then DecayFunction.processScale. */
function decayCurve(fn: Decay, params: { scale: number; offset: number; decay: number }, env: CompileEnv) {
  if (!(params.scale > 0))
    throw failedToCreateQuery(env, illegalArgument('function_score : scale must be > 0.0.'));
  if (!(params.decay > 0 && params.decay < 1)) {
    throw failedToCreateQuery(env, illegalArgument('function_score : decay must be in the range [0..1].'));
  }
  const curve = CURVES[fn.curve];
  const scale = curve.scale(params.scale, params.decay);
  if (params.offset < 0)
    throw failedToCreateQuery(env, illegalArgument('function_score : offset must be > 0.0'));
  return { curve, scale };
}

/**
 * DecayFunctionBuilder.parseGeoVariable and GeoFieldDataScoreFunction: the distance of each of
 * a doc's points from the origin is GeoDistance.ARC in meters (GeoUtils.arcDistance, i.e.
 * SloppyMath.haversinMeters, origin first) on the point as its doc values decode it, less the
 * offset and never below 0; the mode picks among the sorted distances, and a doc without a point
 * is at distance 0.
 */
function geoDecay(fn: Decay, field: ResolvedField, env: CompileEnv): (rs: ReaderSegment) => LeafFunction {
  const params = geoParams(fn.params, env);
  if (!field.docValues) {
    throw failedToCreateQuery(
      env,
      illegalArgument(
        `Can't load fielddata on [${field.path}] because fielddata is unsupported on fields of type [geo_point]. Use doc values instead.`,
      ),
    );
  }
  const { curve, scale } = decayCurve(fn, params, env);
  const { lat: originLat, lon: originLon } = params.origin;
  const { offset } = params;
  const mode = fn.multiValueMode;
  return (rs) => {
    const g = encodedGeo(rs, field.path);
    if (!g) return () => curve.evaluate(0, scale);
    const { starts, lat, lon } = g;
    const distances: number[] = [];
    return (doc) => {
      const s = starts[doc]!;
      const e = starts[doc + 1]!;
      if (s === e) return curve.evaluate(0, scale);
      distances.length = 0;
      for (let i = s; i < e; i++) {
        const d = arcDistance(originLat, originLon, decodeLatitude(lat[i]!), decodeLongitude(lon[i]!));
        distances.push(Math.max(0.0, d - offset));
      }
      if (distances.length > 1) distances.sort((a, b) => a - b);
      return curve.evaluate(select(distances, mode), scale);
    };
  };
}

/**
 * parseGeoVariable's parameters: the origin as any geo point (GeoUtils.parseGeoPoint, a geohash
 * its bottom-left corner; (0, 0) when absent), scale and offset as distances in meters by default
 * (DistanceUnit.DEFAULT.parse), offset `0km` when absent, decay 0.5.
 */
function geoParams(p: Record<string, unknown>, env: CompileEnv) {
  checkParams(p, env);
  const wrap = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof ShoalError && e.type !== 'query_shard_exception') throw failedToCreateQuery(env, e);
      throw e;
    }
  };
  const origin = p.origin === undefined ? { lat: 0, lon: 0 } : wrap(() => parseGeoPointValue(p.origin));
  const decay = p.decay === undefined ? 0.5 : doubleParam(p.decay, env);
  if (p.scale === undefined) {
    throw failedToCreateQuery(env, parseException('[origin] and [scale] must be set for geo fields.'));
  }
  const scale = wrap(() => parseDistanceMeters(distanceText(p.scale), 1));
  const offset = p.offset === undefined ? 0 : wrap(() => parseDistanceMeters(distanceText(p.offset), 1));
  return { origin, scale, offset, decay };
}

/** parser.text() of a scalar: a number as its JSON text. */
function distanceText(v: unknown): string {
  if (typeof v === 'number') return javaDouble(v);
  return String(v);
}

/** MultiValueMode.select over sorted values. */
function select(v: number[], mode: Decay['multiValueMode']): number {
  switch (mode) {
    case 'min':
      return v[0]!;
    case 'max':
      return v[v.length - 1]!;
    case 'sum':
    case 'avg': {
      let sum = 0;
      for (const x of v) sum += x;
      return mode === 'sum' ? sum : sum / v.length;
    }
    case 'median': {
      const mid = v.length >>> 1;
      return v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
    }
  }
}

const PARAMS = new Set(['origin', 'scale', 'offset', 'decay']);

function checkParams(params: Record<string, unknown>, env: CompileEnv): void {
  for (const key of Object.keys(params)) {
    if (!PARAMS.has(key)) throw failedToCreateQuery(env, parseException(`parameter [${key}] not supported!`));
  }
}

/** parser.doubleValue(): numbers, and strings as Double.parseDouble reads them. */
function doubleParam(v: unknown, env: CompileEnv): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    if (!isJavaDouble(v)) throw failedToCreateQuery(env, numberFormat(v.trim()));
    return javaParseDouble(v);
  }
  throw failedToCreateQuery(
    env,
    illegalArgument(`Current token (${tokenOf(v)}) not numeric, can not use numeric value accessors`),
  );
}

function numberParams(p: Record<string, unknown>, env: CompileEnv) {
  checkParams(p, env);
  if (p.scale === undefined || p.origin === undefined) {
    throw failedToCreateQuery(
      env,
      parseException('both [scale] and [origin] must be set for numeric fields.'),
    );
  }
  return {
    origin: doubleParam(p.origin, env),
    scale: doubleParam(p.scale, env),
    offset: p.offset === undefined ? 0 : doubleParam(p.offset, env),
    decay: p.decay === undefined ? 0.5 : doubleParam(p.decay, env),
  };
}

/** Dates: origin by the field's format (default `now`), scale and offset as time values. */
function dateParams(p: Record<string, unknown>, field: ResolvedField, env: CompileEnv) {
  checkParams(p, env);
  const decay = p.decay === undefined ? 0.5 : doubleParam(p.decay, env);
  let origin = env.nowMillis;
  const wrap = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      if (e instanceof ShoalError && e.type !== 'query_shard_exception') throw failedToCreateQuery(env, e);
      throw e;
    }
  };
  if (p.origin !== undefined) {
    const text = String(p.origin);
    const format = field.format ?? 'strict_date_optional_time||epoch_millis';
    const res = field.type === 'date_nanos' ? 'nanos' : 'millis';
    origin = Number(
      wrap(() => resolveDateMath(text, format, res, { roundUp: false, nowMillis: env.nowMillis })),
    );
  }
  if (p.scale === undefined) {
    throw failedToCreateQuery(env, parseException('[scale] must be set for date fields.'));
  }
  const scale = wrap(() => parseTimeValue(String(p.scale), 'DecayFunctionParser.scale'));
  const offset =
    p.offset === undefined ? 0 : wrap(() => parseTimeValue(String(p.offset), 'DecayFunctionParser.offset'));
  return { origin, scale, offset, decay };
}
