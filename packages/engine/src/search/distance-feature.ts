/**
 * `distance_feature` (DateFieldType / GeoPointFieldType.distanceFeatureQuery, Lucene's
 * LongDistanceFeatureQuery and LatLonPointDistanceFeatureQuery): every doc with a value scores
 * `boost × pivot / (pivot + distance)`, its distance that of its value nearest to the origin —
 * in the field's resolution for dates (millis, or nanos for `date_nanos`), in meters
 * (haversine, on the point as its doc values decode it) for geo points.
 */
import {
  type DistanceFeatureQuery,
  illegalArgument,
  parseDistanceMeters,
  parseGeoPointValue,
  parseTimeValue,
  ShoalError,
} from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import { resolveDateMath } from '../dates/index.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { CompileEnv } from './compile-env.ts';
import { failedToCreateQuery } from './field-values.ts';
import { arcDistance, decodeLatitude, decodeLongitude } from './geo-math.ts';
import { encodedGeo } from './geo-queries.ts';
import { NO_MATCHES } from './matches.ts';
import { DocScoreList, ScoredDocsWeight } from './scored-docs-weight.ts';
import type { Weight } from './weights.ts';

const NAME = 'distance_feature';

export function distanceFeatureQuery(env: CompileEnv, node: DistanceFeatureQuery, boost: number): Weight {
  const field = env.mapping.field(node.field);
  // Unmapped: "Can't run [distance_feature] query on unmapped fields!" — it matches nothing.
  if (!field) return new ScoredDocsWeight(() => NO_MATCHES);
  const fail = (e: unknown): never => {
    if (e instanceof ShoalError && e.type !== 'query_shard_exception') throw failedToCreateQuery(env, e);
    throw e;
  };
  try {
    if (field.type === 'date' || field.type === 'date_nanos') return dateQuery(env, field, node, boost);
    if (field.type === 'geo_point') return geoQuery(field, node, boost);
  } catch (e) {
    fail(e);
  }
  throw failedToCreateQuery(
    env,
    illegalArgument(
      `Illegal data type of [${field.type}]![${NAME}] query can only be run on a date, date_nanos or geo_point field type!`,
    ),
  );
}

/** Lucene's score: `(float) (boost * (pivot / (pivot + distance)))`. */
function score(boost: number, pivot: number, distance: number): number {
  return Math.fround(boost * (pivot / (pivot + distance)));
}

function checkPivot(pivot: number): void {
  if (!(pivot > 0)) throw illegalArgument(`pivotDistance must be > 0, got ${pivot}`);
}

/** TimeValue.nanos() of the pivot: the `nanos` and `micros` units without rounding to millis. */
function pivotNanos(text: string): number {
  const t = text.trim().toLowerCase();
  const m = /^(\d+)\s*(nanos|micros)$/.exec(t);
  if (m) return Number(m[1]) * (m[2] === 'micros' ? 1000 : 1);
  return parseTimeValue(text, `${NAME}.pivot`) * 1_000_000;
}

function dateQuery(env: CompileEnv, field: ResolvedField, node: DistanceFeatureQuery, boost: number): Weight {
  const nanos = field.type === 'date_nanos';
  const origin = node.origin;
  if (typeof origin === 'object') {
    throw illegalArgument(
      `Illegal type [class org.elasticsearch.common.geo.GeoPoint] for [origin]! Must be of type [long] or [string] for date and date_nanos fields!`,
    );
  }
  const format = field.format ?? 'strict_date_optional_time||epoch_millis';
  const resolved = resolveDateMath(String(origin), format, nanos ? 'nanos' : 'millis', {
    roundUp: false,
    nowMillis: env.nowMillis,
  });
  const originValue = Number(resolved);
  const originLong = BigInt(resolved);
  const pivot = nanos ? pivotNanos(node.pivot) : parseTimeValue(node.pivot, `${NAME}.pivot`);
  checkPivot(pivot);
  const path = field.path;
  return new ScoredDocsWeight((rs: ReaderSegment) => {
    const n = rs.segment.field(path)?.numeric;
    if (!n) return NO_MATCHES;
    const out = new DocScoreList();
    const starts = n.starts;
    // Longs are subtracted exactly (nanos since the epoch are beyond a double's integers).
    const distance =
      n.kind === 'long'
        ? (i: number) => {
            const d = n.values[i]! - originLong;
            return Number(d < 0n ? -d : d);
          }
        : (i: number) => Math.abs(n.values[i]! - originValue);
    for (let doc = 0; doc < rs.segment.maxDoc; doc++) {
      const s = starts[doc]!;
      const e = starts[doc + 1]!;
      if (s === e) continue;
      let best = Number.POSITIVE_INFINITY;
      for (let i = s; i < e; i++) {
        const d = distance(i);
        if (d < best) best = d;
      }
      out.push(doc, score(boost, pivot, best));
    }
    return out.done();
  });
}

function geoQuery(field: ResolvedField, node: DistanceFeatureQuery, boost: number): Weight {
  const origin = node.origin;
  let point: { lat: number; lon: number };
  if (typeof origin === 'string') point = parseGeoPointValue(origin);
  else if (typeof origin === 'object') point = origin;
  else {
    throw illegalArgument(
      `Illegal type [class java.lang.Long] for [origin]! Must be of type [geo_point] or [string] for geo_point fields!`,
    );
  }
  const pivot = parseDistanceMeters(node.pivot, 1);
  checkPivot(pivot);
  const path = field.path;
  return new ScoredDocsWeight((rs: ReaderSegment) => {
    const g = encodedGeo(rs, path);
    if (!g) return NO_MATCHES;
    const out = new DocScoreList();
    const { starts, lat, lon } = g;
    for (let doc = 0; doc < rs.segment.maxDoc; doc++) {
      const s = starts[doc]!;
      const e = starts[doc + 1]!;
      if (s === e) continue;
      let best = Number.POSITIVE_INFINITY;
      for (let i = s; i < e; i++) {
        const d = arcDistance(point.lat, point.lon, decodeLatitude(lat[i]!), decodeLongitude(lon[i]!));
        if (d < best) best = d;
      }
      out.push(doc, score(boost, pivot, best));
    }
    return out.done();
  });
}
