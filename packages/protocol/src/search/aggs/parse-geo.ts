/**
 * The geo aggregation bodies: `geo_bounds` (GeoBoundsAggregationBuilder: the values source
 * without a script, `wrap_longitude`), `geo_centroid` (GeoCentroidAggregationBuilder) and
 * `geo_distance` (GeoDistanceAggregationBuilder: `origin` and its deprecated names, `ranges`,
 * `unit`, `distance_type`, `keyed`), as their ObjectParsers read them.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { ShoalError } from '../../errors/shoal-error.ts';
import { distanceUnit, geoDistanceType, type LatLon, parseGeoPointValue } from '../../query/geo-point.ts';
import { parsingError } from '../../query/local-errors.ts';
import { here, isObject, type ParseCtx, tokenOf } from '../../query/parse-context.ts';
import { booleanValue, doubleValue, javaParseDouble, text } from '../../query/xcontent-values.ts';
import { javaDouble } from '../../values/java-double.ts';
import type { BodyContext, SpecDraft } from './body-context.ts';
import { readDeclared, TOKENS } from './object-parser.ts';
import type { GeoDistanceSpec } from './spec.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

export function parseGeoBounds(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const draft: SourceDraft = {};
  let wrapLongitude = true;
  const fields = sourceFields(b.ctx, 'geo_bounds', draft, { formattable: false, timeZoneAware: false });
  // declareFields(PARSER, false, …): geo_bounds declares no script.
  delete fields.script;
  fields.wrap_longitude = {
    tokens: TOKENS.BOOLEAN,
    read: (v) => (wrapLongitude = booleanValue(b.ctx, v)),
  };
  const seen = readDeclared(b.ctx, 'geo_bounds', body, fields);
  return { type: 'geo_bounds', source: finishSource(draft, seen), wrapLongitude };
}

export function parseGeoCentroid(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const draft: SourceDraft = {};
  const fields = sourceFields(b.ctx, 'geo_centroid', draft, { formattable: false, timeZoneAware: false });
  const seen = readDeclared(b.ctx, 'geo_centroid', body, fields);
  return { type: 'geo_centroid', source: finishSource(draft, seen) };
}

type Range = GeoDistanceSpec['ranges'][number];

const ORIGIN_NAMES = ['origin', 'center', 'point', 'por'];

export function parseGeoDistance(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const draft: SourceDraft = {};
  let origin: LatLon | undefined;
  const ranges: Range[] = [];
  let unitMeters = 1;
  let distanceType: 'arc' | 'plane' = 'arc';
  let keyed = false;
  const fields = sourceFields(ctx, 'geo_distance', draft, { formattable: false, timeZoneAware: false });
  fields.keyed = { tokens: TOKENS.BOOLEAN, read: (v) => (keyed = booleanValue(ctx, v)) };
  fields.ranges = {
    tokens: TOKENS.OBJECT_ARRAY,
    read: (v) => {
      const items = Array.isArray(v) ? v : [v];
      items.forEach((item, i) => {
        if (Array.isArray(v)) ctx.path.push(i);
        ranges.push(parseRange(ctx, item));
        if (Array.isArray(v)) ctx.path.pop();
      });
    },
  };
  fields.unit = { tokens: TOKENS.STRING, read: (v) => (unitMeters = distanceUnit(text(ctx, v))) };
  fields.distance_type = {
    tokens: TOKENS.STRING,
    read: (v) => (distanceType = geoDistanceType(text(ctx, v))),
  };
  for (const alias of ORIGIN_NAMES) {
    fields[alias] = {
      tokens: TOKENS.OBJECT_ARRAY_OR_STRING,
      read: (v) => {
        if (alias !== 'origin')
          b.warnings.push(`Deprecated field [${alias}] used, expected [origin] instead`);
        origin = parseOrigin(ctx, v);
      },
    };
  }
  const seen = readDeclared(ctx, 'geo_distance', body, fields);
  const source = finishSource(draft, seen);
  if (origin === undefined) throw illegalArgument(`Aggregation [${name}] must define an [origin].`);
  if (ranges.length === 0) throw illegalArgument(`No [ranges] specified for the [${name}] aggregation`);
  return { type: 'geo_distance', source, origin, ranges, unitMeters, distanceType, keyed };
}

/** GeoDistanceAggregationBuilder.parseGeoPoint: a point text, `[lon, lat]` or `{lat, lon}` numbers. */
function parseOrigin(ctx: ParseCtx, v: unknown): LatLon {
  if (typeof v === 'string') return parseGeoPointValue(v);
  if (Array.isArray(v)) {
    let lat = Number.NaN;
    let lon = Number.NaN;
    for (const x of v) {
      if (Number.isNaN(lon)) lon = doubleValue(ctx, x);
      else if (Number.isNaN(lat)) lat = doubleValue(ctx, x);
      else {
        throw parsingError(
          'malformed [origin]: a geo point array must be of the form [lon, lat]',
          here(ctx, 'value'),
        );
      }
    }
    return { lat, lon };
  }
  const o = v as Record<string, unknown>;
  let lat = Number.NaN;
  let lon = Number.NaN;
  let last: string | null = null;
  for (const key of Object.keys(o)) {
    last = key;
    const x = o[key];
    // Only number tokens count; anything else under any name is passed over.
    if (typeof x !== 'number' && typeof x !== 'bigint') continue;
    if (key === 'lat') lat = Number(x);
    else if (key === 'lon') lon = Number(x);
  }
  if (Number.isNaN(lat) || Number.isNaN(lon)) {
    throw parsingError(
      `malformed [${last}] geo point object. either [lat] or [lon] (or both) are missing`,
      here(ctx, 'end'),
    );
  }
  return { lat, lon };
}

/**
 * GeoDistanceAggregationBuilder.parseRange and Range: number bounds, or text bounds read with
 * Double.parseDouble when either is text; an open `from` is 0; the key, when not given, is
 * `from-to` with `*` for a 0 `from` and an infinite `to`.
 */
function parseRange(ctx: ParseCtx, item: unknown): Range {
  if (!isObject(item)) {
    throw parsingError(
      `Failed to parse object: unexpected token [${tokenOf(item)}] found`,
      here(ctx, 'value'),
    );
  }
  let key: string | undefined;
  let from = 0;
  let to = Number.POSITIVE_INFINITY;
  let fromText: string | undefined;
  let toText: string | undefined;
  for (const k of Object.keys(item)) {
    const v = item[k];
    const bound = k === 'from' || k === 'to';
    if (typeof v === 'number' || typeof v === 'bigint') {
      if (!bound)
        throw parsingError(`Failed to parse object: unknown field [${k}] found`, here(ctx, 'key', k));
      if (k === 'from') from = Number(v);
      else to = Number(v);
    } else if (typeof v === 'string') {
      if (k === 'key') key = v;
      else if (k === 'from') fromText = v;
      else if (k === 'to') toText = v;
      else throw parsingError(`Failed to parse object: unknown field [${k}] found`, here(ctx, 'key', k));
    } else if (v === null) {
      if (!bound && k !== 'key') {
        throw parsingError(`Failed to parse object: unknown field [${k}] found`, here(ctx, 'key', k));
      }
    } else {
      throw parsingError(
        `Failed to parse object: unexpected token [${tokenOf(v)}] found`,
        here(ctx, 'value', k),
      );
    }
  }
  if (fromText !== undefined || toText !== undefined) {
    // Both go through Double.parseDouble, a missing one included: Java fails on the null text.
    if (fromText === undefined || toText === undefined) {
      throw new ShoalError(
        'null_pointer_exception',
        'Cannot invoke "String.trim()" because "in" is null',
        500,
      );
    }
    from = javaParseDouble(fromText);
    to = javaParseDouble(toText);
  }
  if (key === undefined) {
    const f = from === 0 ? '*' : javaDouble(from);
    const t = Number.isFinite(to) || Number.isNaN(to) ? javaDouble(to) : '*';
    key = `${f}-${t}`;
  }
  return { key, from, to };
}
