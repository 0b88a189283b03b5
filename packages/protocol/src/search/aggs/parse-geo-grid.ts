/**
 * The `geohash_grid` and `geotile_grid` bodies (GeoGridAggregationBuilder.createParser): the
 * values source without a script, `precision` as each type reads it (GeoUtils.parsePrecision,
 * GeoTileUtils.parsePrecision), `size`, `shard_size` and `bounds` (GeoBoundingBox).
 */
import { illegalArgument, numberFormat } from '../../errors/catalogue.ts';
import { isShoalError, type ShoalError } from '../../errors/shoal-error.ts';
import { parseBoundingBox } from '../../query/geo.ts';
import { parseDistanceMeters } from '../../query/geo-point.ts';
import { intValue } from '../../query/xcontent-values.ts';
import type { BodyContext, DraftOf, SpecDraft } from './body-context.ts';
import { readDeclared, TOKENS } from './object-parser.ts';
import { suggestShardSize } from './parse-terms.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

type GridType = 'geohash_grid' | 'geotile_grid';

/** GeoHashGridAggregationBuilder / GeoTileGridAggregationBuilder DEFAULT_MAX_NUM_CELLS. */
const DEFAULT_SIZE = 10000;
const DEFAULT_PRECISION: Record<GridType, number> = { geohash_grid: 5, geotile_grid: 7 };
/** GeoTileUtils.MAX_ZOOM. */
const MAX_ZOOM = 29;
/** GeoUtils.GEOHASH_MAX_LEVELS_POSSIBLE: what a zero distance asks for. */
const GEOHASH_MAX_LEVELS_POSSIBLE = 24;
const EARTH_EQUATOR = 2 * Math.PI * 6378137.0;
const EARTH_POLAR_DISTANCE = Math.PI * 6356752.314245;

export const parseGeohashGrid = (b: BodyContext, body: Record<string, unknown>): SpecDraft =>
  parseGeoGrid('geohash_grid', b, body);

export const parseGeotileGrid = (b: BodyContext, body: Record<string, unknown>): SpecDraft =>
  parseGeoGrid('geotile_grid', b, body);

function parseGeoGrid(type: GridType, b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const draft: SourceDraft = {};
  let precision = DEFAULT_PRECISION[type];
  let size = DEFAULT_SIZE;
  let shardSize: number | undefined;
  let bounds: DraftOf<GridType>['bounds'];
  const fields = sourceFields(ctx, type, draft, { formattable: false, timeZoneAware: false });
  // declareFields(parser, false, false, false): the grids declare no script.
  delete fields.script;
  fields.precision = {
    tokens: TOKENS.NUMBER,
    read: (v) => {
      precision =
        type === 'geohash_grid'
          ? checkGeohashPrecision(geohashPrecision(b, v))
          : checkZoom(typeof v === 'string' ? javaParseInt(v) : intValue(ctx, v));
    },
  };
  fields.size = {
    tokens: TOKENS.NUMBER,
    read: (v) => {
      size = intValue(ctx, v);
      if (size <= 0) throw illegalArgument(`[size] must be greater than 0. Found [${size}] in [${name}]`);
    },
  };
  fields.shard_size = {
    tokens: TOKENS.NUMBER,
    read: (v) => {
      shardSize = intValue(ctx, v);
      if (shardSize <= 0) {
        throw illegalArgument(`[shardSize] must be greater than 0. Found [${shardSize}] in [${name}]`);
      }
    },
  };
  fields.bounds = {
    tokens: TOKENS.OBJECT,
    read: (v) => {
      const box = parseBoundingBox(v as Record<string, unknown>);
      // GeoBoundingBox.isUnbounded: a box missing any side bounds nothing.
      const unbounded = [box.top, box.left, box.bottom, box.right].some(Number.isNaN);
      bounds = unbounded ? undefined : box;
    },
  };
  const seen = readDeclared(ctx, type, body, fields);
  const source = finishSource(draft, seen);
  const spec: DraftOf<GridType> = {
    type,
    source,
    precision,
    size,
    // GeoGridAggregationBuilder.innerBuild: the suggested shard size, never below `size`.
    shardSize: Math.max(shardSize ?? suggestShardSize(size), size),
  };
  if (bounds !== undefined) spec.bounds = bounds;
  return spec;
}

/**
 * GeoUtils.parsePrecision: a number is a level; text is a level when Integer.parseInt reads
 * it, otherwise a distance (`1km`, `500` meters) turned into the level whose cells are no
 * larger — and a distance too small for 12 levels is `precision too high`.
 */
function geohashPrecision(b: BodyContext, v: unknown): number {
  if (typeof v !== 'string') return intValue(b.ctx, v);
  if (INTEGER_TEXT.test(v)) {
    const n = Number(v);
    if (n >= -2147483648 && n <= 2147483647) return n;
  }
  const level = geoHashLevelsForPrecision(parseDistanceMeters(v, 1));
  try {
    return checkGeohashPrecision(level);
  } catch (e) {
    if (!isShoalError(e)) throw e;
    throw illegalArgument(`precision too high [${v}]`, e as ShoalError);
  }
}

const INTEGER_TEXT = /^[+-]?\d+$/;

/** Integer.parseInt, as XContentMapValues.nodeIntegerValue reads text. */
function javaParseInt(s: string): number {
  if (INTEGER_TEXT.test(s)) {
    const n = Number(s);
    if (n >= -2147483648 && n <= 2147483647) return n;
  }
  throw numberFormat(s);
}

/** GeoUtils.checkPrecisionRange. */
function checkGeohashPrecision(p: number): number {
  if (p < 1 || p > 12) {
    throw illegalArgument(`Invalid geohash aggregation precision of ${p}. Must be between 1 and 12.`);
  }
  return p;
}

/** GeoTileUtils.checkPrecisionRange. */
function checkZoom(p: number): number {
  if (p < 0 || p > MAX_ZOOM) {
    throw illegalArgument(`Invalid geotile_grid precision of ${p}. Must be between 0 and ${MAX_ZOOM}.`);
  }
  return p;
}

/**
 * GeoUtils.geoHashLevelsForPrecision(double): the levels whose cells' diagonal fits in
 * `meters`, counted in 5-bit steps split into even (lon) and odd (lat) levels.
 */
export function geoHashLevelsForPrecision(meters: number): number {
  if (meters === 0) return GEOHASH_MAX_LEVELS_POSSIBLE;
  const ratio = 1 + EARTH_POLAR_DISTANCE / EARTH_EQUATOR;
  const width = Math.sqrt((meters * meters) / (ratio * ratio));
  const part = Math.ceil(EARTH_EQUATOR / width);
  if (part === 1) return 1;
  const bits = javaInt(Math.round(Math.ceil(Math.log(part) / Math.log(2))));
  const full = Math.trunc(bits / 5);
  const left = bits - full * 5;
  const even = full + (left > 0 ? 1 : 0);
  const odd = full + (left > 3 ? 1 : 0);
  return even + odd;
}

/** Java's (int) cast of a long: saturating is enough for the magnitudes reached here. */
function javaInt(x: number): number {
  if (Number.isNaN(x)) return 0;
  return Math.max(-2147483648, Math.min(2147483647, x));
}
