/**
 * The cell of a point in the two grids Elasticsearch buckets geo_points into: a geohash
 * (Geohash.stringEncode over its own 32-bit quantisation of the point) and a map tile
 * (GeoTileUtils.getXTile / getYTile, Web Mercator with SloppyMath.cos), each with the `bounds`
 * filter of its cell source (GeoHashBoundedPredicate, GeoTileBoundedPredicate): a cell counts
 * when it shares an interior point with the box; touching cells are left out.
 */
import { geohashCell } from '@shoal/protocol';
import { decodeLatitude, encodeLatitude, normalizeLat, normalizeLon, sloppyCos } from '../search/geo-math.ts';

export interface Bounds {
  readonly top: number;
  readonly left: number;
  readonly bottom: number;
  readonly right: number;
}

/** A point's cell key, or null when `bounds` leave its cell out. */
export type CellOf = (lat: number, lon: number) => string | null;

// ------------------------------------------------------------------ geohash

const BASE_32 = '0123456789bcdefghjkmnpqrstuvwxyz';
/** Geohash's own decode steps (180 / 2^32, 360 / 2^32), not GeoEncodingUtils' reciprocals. */
const HASH_LAT_DECODE = 180 / 2 ** 32;
const HASH_LON_DECODE = 360 / 2 ** 32;
/** Math.nextDown(90.0) and Math.nextDown(180.0). */
const BELOW_90 = 90 - 2 ** -46;
const BELOW_180 = 180 - 2 ** -45;

/** Java's (int) cast of a double. */
function toInt(x: number): number {
  if (Number.isNaN(x)) return 0;
  return Math.max(-2147483648, Math.min(2147483647, x));
}

/**
 * Geohash.stringEncode(lon, lat, level): each coordinate quantised to 32 bits with its sign bit
 * flipped, the bits interleaved longitude first, and the top 5 × level bits read as base 32.
 */
export function geohashOf(lat: number, lon: number, level: number): string {
  const latBits = (toInt(Math.floor((lat === 90 ? BELOW_90 : lat) / HASH_LAT_DECODE)) ^ 0x80000000) >>> 0;
  const lonBits = (toInt(Math.floor((lon === 180 ? BELOW_180 : lon) / HASH_LON_DECODE)) ^ 0x80000000) >>> 0;
  let out = '';
  let lonAt = 31;
  let latAt = 31;
  let fromLon = true;
  for (let c = 0; c < level; c++) {
    let v = 0;
    for (let k = 0; k < 5; k++) {
      const bit = fromLon ? (lonBits >>> lonAt--) & 1 : (latBits >>> latAt--) & 1;
      v = (v << 1) | bit;
      fromLon = !fromLon;
    }
    out += BASE_32[v];
  }
  return out;
}

/** GeoHashBoundedPredicate.validHash on the cell's Geohash.toBoundingBox. */
export function geohashInBounds(hash: string, b: Bounds): boolean {
  const cell = geohashCell(hash);
  const crosses = b.right < b.left;
  const intersects = (minX: number, maxX: number): boolean => {
    if (!(b.top > cell.minLat && b.bottom < cell.maxLat)) return false;
    return crosses ? b.left < maxX || b.right > minX : b.left < maxX && b.right > minX;
  };
  if (cell.maxLon < cell.minLon) return intersects(-180, cell.maxLon) || intersects(cell.minLon, 180);
  return intersects(cell.minLon, cell.maxLon);
}

export function geohashCells(precision: number, bounds: Bounds | undefined): CellOf {
  if (bounds === undefined) return (lat, lon) => geohashOf(lat, lon, precision);
  return (lat, lon) => {
    const hash = geohashOf(lat, lon, precision);
    return geohashInBounds(hash, bounds) ? hash : null;
  };
}

// ------------------------------------------------------------------ geotile

const PI_DIV_2 = Math.PI / 2;
/** Math.toRadians / Math.toDegrees factors (Java 9+ multiplies by these). */
const DEGREES_TO_RADIANS = 0.017453292519943295;
const RADIANS_TO_DEGREES = 57.29577951308232;
/** GeoTileUtils.LATITUDE_MASK as the index stores it, north and south. */
const LATITUDE_MASK = 85.0511287798066;
const NORMALIZED_LATITUDE_MASK = decodeLatitude(encodeLatitude(LATITUDE_MASK));
const NORMALIZED_NEGATIVE_LATITUDE_MASK = decodeLatitude(encodeLatitude(-LATITUDE_MASK));

/** GeoTileUtils.getXTile. */
export function xTile(lon: number, tiles: number): number {
  // normalizeLon would make -180 into 180, the last column rather than the first.
  if (lon === -180) return 0;
  const x = toInt(Math.floor(((normalizeLon(lon) + 180) / 360) * tiles));
  if (x < 0) return 0;
  return x >= tiles ? tiles - 1 : x;
}

/** GeoTileUtils.getYTile: Web Mercator, clipped to the grid beyond ±85.0511°. */
export function yTile(lat: number, tiles: number): number {
  const latSin = sloppyCos(PI_DIV_2 - normalizeLat(lat) * DEGREES_TO_RADIANS);
  let y = toInt(Math.floor((0.5 - Math.log((1 + latSin) / (1 - latSin)) / (4 * Math.PI)) * tiles));
  if (y < 0) y = 0;
  return y >= tiles ? tiles - 1 : y;
}

export function tileKey(zoom: number, x: number, y: number): string {
  return `${zoom}/${x}/${y}`;
}

/**
 * GeoTileUtils.toBoundingBox(x, y, zoom). Elasticsearch takes the latitudes through
 * ESSloppyMath.atan and sinh; Math's are used here, which only matters to a box side given
 * exactly on a tile's edge latitude.
 */
function tileBox(
  x: number,
  y: number,
  zoom: number,
): { minX: number; maxX: number; minY: number; maxY: number } {
  const tiles = 2 ** zoom;
  const minN = Math.PI - (2.0 * Math.PI * (y + 1)) / tiles;
  const maxN = Math.PI - (2.0 * Math.PI * y) / tiles;
  return {
    minX: (x / tiles) * 360.0 - 180,
    maxX: ((x + 1) / tiles) * 360.0 - 180,
    minY: Math.atan(Math.sinh(minN)) * RADIANS_TO_DEGREES,
    maxY: Math.atan(Math.sinh(maxN)) * RADIANS_TO_DEGREES,
  };
}

/**
 * GeoTileBoundedPredicate: the box's tile columns [leftX, rightX) and rows [minY, maxY), each
 * edge tile dropped when the box only touches it; a box wholly beyond the Mercator mask holds
 * no tile.
 */
export function tilePredicate(zoom: number, b: Bounds): (x: number, y: number) => boolean {
  const crosses = b.right < b.left;
  if (b.bottom > NORMALIZED_LATITUDE_MASK || b.top < NORMALIZED_NEGATIVE_LATITUDE_MASK) return () => false;
  const tiles = 2 ** zoom;
  const minX = xTile(b.left, tiles);
  const minYTile = yTile(b.top, tiles);
  const minBox = tileBox(minX, minYTile, zoom);
  const leftX = minBox.maxX === b.left ? minX + 1 : minX;
  const minY = minBox.minY === b.top ? minYTile + 1 : minYTile;
  const maxX = xTile(b.right, tiles);
  const maxYTile = yTile(b.bottom, tiles);
  const maxBox = tileBox(maxX, maxYTile, zoom);
  const rightX = maxBox.minX === b.right ? maxX : maxX + 1;
  const maxY = maxBox.maxY === b.bottom ? maxYTile : maxYTile + 1;
  return (x, y) => {
    if (!(maxY > y && minY < y + 1)) return false;
    return crosses ? rightX > x || leftX < x + 1 : rightX > x && leftX < x + 1;
  };
}

export function geotileCells(zoom: number, bounds: Bounds | undefined): CellOf {
  const tiles = 2 ** zoom;
  const valid = bounds === undefined ? undefined : tilePredicate(zoom, bounds);
  return (lat, lon) => {
    const x = xTile(lon, tiles);
    const y = yTile(lat, tiles);
    if (valid !== undefined && !valid(x, y)) return null;
    return tileKey(zoom, x, y);
  };
}
