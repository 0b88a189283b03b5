/**
 * `geo_distance` and `geo_bounding_box` on geo_point fields, as GeoDistanceQueryBuilder and
 * GeoBoundingBoxQueryBuilder build them (doToQuery: the field checks, checkLatLon by
 * validation_method, COERCE's normalisation) and as Lucene's LatLonPoint.newDistanceQuery and
 * newBoxQuery match: on the 32-bit encoded coordinates, not the values as sent. Shoal's doc
 * values keep the raw doubles, so the encoding is applied here, once per segment (cached).
 * Both score as constant-score queries (the boost).
 */
import { javaDouble, type QueryNode, queryShardException, ShoalError } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { CompileEnv } from './compile-env.ts';
import { type DocVerifier, verifier } from './doc-values-range.ts';
import { failedToCreateQuery } from './field-values.ts';
import {
  decodeLatitude,
  decodeLongitude,
  distanceQuerySortKey,
  encodeLatitude,
  encodeLatitudeCeil,
  encodeLongitude,
  encodeLongitudeCeil,
  haversinSortKey,
  isValidLatitude,
  isValidLongitude,
  normalizePoint,
} from './geo-math.ts';
import { ConstantWeight, MatchNoneWeight, type Weight } from './weights.ts';

type GeoDistanceNode = Extract<QueryNode, { type: 'geo_distance' }>;
type GeoBoxNode = Extract<QueryNode, { type: 'geo_bounding_box' }>;

const NONE = new MatchNoneWeight();

/** A segment's geo_point values as Lucene encodes them, with the doc → values offsets. */
export interface EncodedGeo {
  starts: Uint32Array;
  lat: Int32Array;
  lon: Int32Array;
  docsWithField: Int32Array;
}

/** The field's points in the segment, encoded once and kept as long as the segment. */
export function encodedGeo(rs: ReaderSegment, path: string): EncodedGeo | null {
  const sf = rs.segment.field(path);
  const g = sf?.geo;
  if (!sf || !g) return null;
  return rs.segment.cached(`geoenc:${path}`, () => {
    const lat = new Int32Array(g.lat.length);
    const lon = new Int32Array(g.lon.length);
    for (let i = 0; i < lat.length; i++) {
      lat[i] = encodeLatitude(g.lat[i]!);
      lon[i] = encodeLongitude(g.lon[i]!);
    }
    return { starts: g.starts, lat, lon, docsWithField: sf.docsWithField };
  });
}

/** The geo_point field a geo query runs on, or null (match nothing) for ignore_unmapped. */
function geoField(env: CompileEnv, name: string, query: string, ignoreUnmapped: boolean): string | null {
  const field = env.mapping.field(name);
  if (!field) {
    if (ignoreUnmapped) return null;
    throw queryShardException(`failed to find geo field [${name}]`, env.index, env.indexUuid);
  }
  if (field.type !== 'geo_point') {
    throw queryShardException(
      `Field [${name}] is of unsupported type [${field.type}] for [${query}] query`,
      env.index,
      env.indexUuid,
    );
  }
  return field.path;
}

/** QueryShardException("couldn't validate latitude/ longitude values") over the validation errors. */
function invalidLatLon(env: CompileEnv, errors: string[]): ShoalError {
  const cause = new ShoalError(
    'query_validation_exception',
    `Validation Failed: ${errors.map((e, i) => `${i + 1}: ${e};`).join('')}`,
    400,
    {},
    undefined,
    // A java IllegalArgumentException subclass: root causes stop above it.
    { foreign: true },
  );
  return new ShoalError(
    'query_shard_exception',
    "couldn't validate latitude/ longitude values",
    400,
    { index_uuid: env.indexUuid, index: env.index },
    cause,
  );
}

/** Lucene's GeoUtils.checkLatitude, raised while the query is built (failed to create query). */
function checkLatitude(env: CompileEnv, lat: number): void {
  if (!(lat >= -90 && lat <= 90)) {
    throw failedToCreateQuery(
      env,
      luceneArg(`invalid latitude ${javaDouble(lat)}; must be between -90.0 and 90.0`),
    );
  }
}

function checkLongitude(env: CompileEnv, lon: number): void {
  if (!(lon >= -180 && lon <= 180)) {
    throw failedToCreateQuery(
      env,
      luceneArg(`invalid longitude ${javaDouble(lon)}; must be between -180.0 and 180.0`),
    );
  }
}

function luceneArg(reason: string): ShoalError {
  return new ShoalError('illegal_argument_exception', reason, 400);
}

export function geoDistanceQuery(env: CompileEnv, node: GeoDistanceNode, boost: number): Weight {
  const path = geoField(env, node.field, 'geo_distance', node.ignoreUnmapped);
  if (path === null) return NONE;
  const center = { lat: node.lat, lon: node.lon };
  if (node.validation === 'STRICT') {
    const errors: string[] = [];
    if (!isValidLatitude(center.lat))
      errors.push(`center point latitude is invalid: ${javaDouble(center.lat)}`);
    if (!isValidLongitude(center.lon))
      errors.push(`center point longitude is invalid: ${javaDouble(center.lon)}`);
    if (errors.length > 0) throw invalidLatLon(env, errors);
  }
  if (node.validation === 'COERCE') normalizePoint(center);
  // new Circle(...) in Lucene: the center and the radius are checked there.
  checkLatitude(env, center.lat);
  checkLongitude(env, center.lon);
  if (!Number.isFinite(node.distance) || node.distance < 0) {
    throw failedToCreateQuery(env, luceneArg(`radiusMeters: '${javaDouble(node.distance)}' is invalid`));
  }
  const lat = center.lat;
  const lon = center.lon;
  const maxKey = distanceQuerySortKey(node.distance);
  const within = (g: EncodedGeo, doc: number) => {
    for (let j = g.starts[doc]!, e = g.starts[doc + 1]!; j < e; j++) {
      const key = haversinSortKey(decodeLatitude(g.lat[j]!), decodeLongitude(g.lon[j]!), lat, lon);
      if (key <= maxKey) return true;
    }
    return false;
  };
  return geoWeight(path, boost, within);
}

export function geoBoundingBoxQuery(env: CompileEnv, node: GeoBoxNode, boost: number): Weight {
  const path = geoField(env, node.field, 'geo_bounding_box', node.ignoreUnmapped);
  if (path === null) return NONE;
  if (node.validation === 'STRICT') {
    const errors: string[] = [];
    if (!isValidLatitude(node.top)) errors.push(`top latitude is invalid: ${javaDouble(node.top)}`);
    if (!isValidLongitude(node.left)) errors.push(`left longitude is invalid: ${javaDouble(node.left)}`);
    if (!isValidLatitude(node.bottom)) errors.push(`bottom latitude is invalid: ${javaDouble(node.bottom)}`);
    if (!isValidLongitude(node.right)) errors.push(`right longitude is invalid: ${javaDouble(node.right)}`);
    if (errors.length > 0) throw invalidLatLon(env, errors);
  }
  const topLeft = { lat: node.top, lon: node.left };
  const bottomRight = { lat: node.bottom, lon: node.right };
  if (node.validation === 'COERCE') {
    // A box 360° wide (right greater than left) asks for every longitude.
    const completeLonRange = (bottomRight.lon - topLeft.lon) % 360 === 0 && bottomRight.lon > topLeft.lon;
    normalizePoint(topLeft, true, !completeLonRange);
    normalizePoint(bottomRight, true, !completeLonRange);
    if (completeLonRange) {
      topLeft.lon = -180;
      bottomRight.lon = 180;
    }
  }
  const minLat = bottomRight.lat;
  const maxLat = topLeft.lat;
  let minLon = topLeft.lon;
  const maxLon = bottomRight.lon;
  if (maxLat < minLat) throw failedToCreateQuery(env, luceneArg('max y cannot be less than min y'));
  // org.apache.lucene.geo.Rectangle's checks, in its order.
  checkLatitude(env, minLat);
  checkLatitude(env, maxLat);
  checkLongitude(env, minLon);
  checkLongitude(env, maxLon);
  // LatLonPoint.newBoxQuery: 90 and 180 are not representable, so these boxes are empty.
  if (minLat === 90) return NONE;
  if (minLon === 180) {
    if (maxLon === 180) return NONE;
    if (maxLon < minLon) minLon = -180;
  }
  const latLo = encodeLatitudeCeil(minLat);
  const latHi = encodeLatitude(maxLat);
  const lonLo = encodeLongitudeCeil(minLon);
  const lonHi = encodeLongitude(maxLon);
  const crosses = maxLon < minLon;
  const within = (g: EncodedGeo, doc: number) => {
    for (let j = g.starts[doc]!, e = g.starts[doc + 1]!; j < e; j++) {
      const la = g.lat[j]!;
      if (la < latLo || la > latHi) continue;
      const lo = g.lon[j]!;
      // Across the dateline Lucene ORs two boxes, each open on its outer longitude side.
      if (crosses ? lo >= lonLo || lo <= lonHi : lo >= lonLo && lo <= lonHi) return true;
    }
    return false;
  };
  return geoWeight(path, boost, within);
}

/** A constant-score weight over the docs with a point passing `within`, checked doc by doc. */
function geoWeight(path: string, boost: number, within: (g: EncodedGeo, doc: number) => boolean): Weight {
  const verifierOf = (rs: ReaderSegment): DocVerifier | null => {
    const g = encodedGeo(rs, path);
    if (!g) return null;
    return verifier(g.docsWithField, (doc) => within(g, doc));
  };
  const docsOf = (rs: ReaderSegment): Int32Array => {
    const g = encodedGeo(rs, path);
    if (!g) return new Int32Array(0);
    const docs = g.docsWithField;
    const out: number[] = [];
    for (let i = 0; i < docs.length; i++) if (within(g, docs[i]!)) out.push(docs[i]!);
    return Int32Array.from(out);
  };
  return new ConstantWeight(docsOf, Math.fround(boost), verifierOf);
}
