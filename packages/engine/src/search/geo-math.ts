/**
 * The arithmetic Elasticsearch's geo queries and distance sort run on, ported so the doubles
 * come out the same: Lucene's GeoEncodingUtils (points are indexed as 32-bit lat/lon, and both
 * the points and the doc values hold that encoding), SloppyMath's table-driven cos/asin and
 * haversin, GeoUtils.distanceQuerySortKey, and Elasticsearch's GeoUtils (arc and plane
 * distances, point normalisation). V8's Math.sin/cos/asin are fdlibm ports, as is Java's
 * StrictMath, so the SloppyMath tables are built from the same values.
 */

const scratch = new Float64Array(1);
const scratchBits = new BigInt64Array(scratch.buffer);
const scratchWords = new Uint32Array(scratch.buffer);
/** Index of the low 32 bits of a double in `scratchWords`. */
const LOW = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;

function fromBits(bits: bigint): number {
  scratchBits[0] = BigInt.asIntN(64, bits);
  return scratch[0]!;
}

function toBits(x: number): bigint {
  scratch[0] = x;
  return scratchBits[0]!;
}

function nextDown(x: number): number {
  scratch[0] = x;
  scratchBits[0]! += x > 0 ? -1n : 1n;
  return scratch[0]!;
}

// ------------------------------------------------------------------ GeoEncodingUtils

const LAT_SCALE = 2 ** 32 / 180.0;
const LAT_DECODE = 1 / LAT_SCALE;
const LON_SCALE = 2 ** 32 / 360.0;
const LON_DECODE = 1 / LON_SCALE;

/** GeoEncodingUtils.encodeLatitude (latitude within [-90, 90]). */
export function encodeLatitude(lat: number): number {
  if (lat === 90) lat = nextDown(lat);
  return Math.floor(lat / LAT_DECODE) | 0;
}

export function encodeLatitudeCeil(lat: number): number {
  if (lat === 90) lat = nextDown(lat);
  return Math.ceil(lat / LAT_DECODE) | 0;
}

export function encodeLongitude(lon: number): number {
  if (lon === 180) lon = nextDown(lon);
  return Math.floor(lon / LON_DECODE) | 0;
}

export function encodeLongitudeCeil(lon: number): number {
  if (lon === 180) lon = nextDown(lon);
  return Math.ceil(lon / LON_DECODE) | 0;
}

export function decodeLatitude(enc: number): number {
  return enc * LAT_DECODE;
}

export function decodeLongitude(enc: number): number {
  return enc * LON_DECODE;
}

// ------------------------------------------------------------------ SloppyMath

const TO_METERS = 6_371_008.7714;
const ONE_DIV_F2 = 1 / 2.0;
const ONE_DIV_F3 = 1 / 6.0;
const ONE_DIV_F4 = 1 / 24.0;
const PIO2_HI = fromBits(0x3ff921fb54400000n);
const PIO2_LO = fromBits(0x3dd0b4611a626331n);
const TWOPI_HI = 4 * PIO2_HI;
const TWOPI_LO = 4 * PIO2_LO;
const SIN_COS_TABS_SIZE = (1 << 11) + 1;
const SIN_COS_DELTA_HI = TWOPI_HI / (SIN_COS_TABS_SIZE - 1);
const SIN_COS_DELTA_LO = TWOPI_LO / (SIN_COS_TABS_SIZE - 1);
const SIN_COS_INDEXER = 1 / (SIN_COS_DELTA_HI + SIN_COS_DELTA_LO);
const SIN_COS_MAX_VALUE_FOR_INT_MODULO = ((2147483647 >> 9) / SIN_COS_INDEXER) * 0.99;
const ASIN_MAX_VALUE_FOR_TABS = Math.sin(73.0 * (Math.PI / 180));
const ASIN_TABS_SIZE = (1 << 13) + 1;
const ASIN_DELTA = ASIN_MAX_VALUE_FOR_TABS / (ASIN_TABS_SIZE - 1);
const ASIN_INDEXER = 1 / ASIN_DELTA;
const ASIN_PIO2_HI = fromBits(0x3ff921fb54442d18n);
const ASIN_PIO2_LO = fromBits(0x3c91a62633145c07n);
const ASIN_PS0 = fromBits(0x3fc5555555555555n);
const ASIN_PS1 = fromBits(0xbfd4d61203eb6f7dn);
const ASIN_PS2 = fromBits(0x3fc9c1550e884455n);
const ASIN_PS3 = fromBits(0xbfa48228b5688f3bn);
const ASIN_PS4 = fromBits(0x3f49efe07501b288n);
const ASIN_PS5 = fromBits(0x3f023de10dfdf709n);
const ASIN_QS1 = fromBits(0xc0033a271c8a2d4bn);
const ASIN_QS2 = fromBits(0x40002ae59c598ac8n);
const ASIN_QS3 = fromBits(0xbfe6066c1b8d0159n);
const ASIN_QS4 = fromBits(0x3fb3b8c5b12e9282n);

const sinTab = new Float64Array(SIN_COS_TABS_SIZE);
const cosTab = new Float64Array(SIN_COS_TABS_SIZE);
const asinTab = new Float64Array(ASIN_TABS_SIZE);
const asinDer1DivF1Tab = new Float64Array(ASIN_TABS_SIZE);
const asinDer2DivF2Tab = new Float64Array(ASIN_TABS_SIZE);
const asinDer3DivF3Tab = new Float64Array(ASIN_TABS_SIZE);
const asinDer4DivF4Tab = new Float64Array(ASIN_TABS_SIZE);

{
  const piIndex = (SIN_COS_TABS_SIZE - 1) / 2;
  const twoPiIndex = 2 * piIndex;
  const halfPiIndex = piIndex / 2;
  const threeHalfPiIndex = (3 * piIndex) / 2;
  for (let i = 0; i < SIN_COS_TABS_SIZE; i++) {
    const angle = i * SIN_COS_DELTA_HI + i * SIN_COS_DELTA_LO;
    let sinAngle = Math.sin(angle);
    let cosAngle = Math.cos(angle);
    if (i === piIndex || i === twoPiIndex) sinAngle = 0.0;
    else if (i === halfPiIndex || i === threeHalfPiIndex) cosAngle = 0.0;
    sinTab[i] = sinAngle;
    cosTab[i] = cosAngle;
  }
  for (let i = 0; i < ASIN_TABS_SIZE; i++) {
    const x = i * ASIN_DELTA;
    asinTab[i] = Math.asin(x);
    const oneMinusXSqInv = 1.0 / (1 - x * x);
    const oneMinusXSqInv05 = Math.sqrt(oneMinusXSqInv);
    const oneMinusXSqInv15 = oneMinusXSqInv05 * oneMinusXSqInv;
    const oneMinusXSqInv25 = oneMinusXSqInv15 * oneMinusXSqInv;
    const oneMinusXSqInv35 = oneMinusXSqInv25 * oneMinusXSqInv;
    asinDer1DivF1Tab[i] = oneMinusXSqInv05;
    asinDer2DivF2Tab[i] = x * oneMinusXSqInv15 * ONE_DIV_F2;
    asinDer3DivF3Tab[i] = (1 + 2 * x * x) * oneMinusXSqInv25 * ONE_DIV_F3;
    asinDer4DivF4Tab[i] = (5 + 2 * x * (2 + x * (5 - 2 * x))) * oneMinusXSqInv35 * ONE_DIV_F4;
  }
}

/** SloppyMath.cos. */
export function sloppyCos(a: number): number {
  if (a < 0.0) a = -a;
  if (a > SIN_COS_MAX_VALUE_FOR_INT_MODULO) return Math.cos(a);
  let index = (a * SIN_COS_INDEXER + 0.5) | 0;
  const delta = a - index * SIN_COS_DELTA_HI - index * SIN_COS_DELTA_LO;
  index &= SIN_COS_TABS_SIZE - 2;
  const indexCos = cosTab[index]!;
  const indexSin = sinTab[index]!;
  return (
    indexCos +
    delta *
      (-indexSin +
        delta * (-indexCos * ONE_DIV_F2 + delta * (indexSin * ONE_DIV_F3 + delta * indexCos * ONE_DIV_F4)))
  );
}

/** SloppyMath.asin. */
export function sloppyAsin(a: number): number {
  let negate = false;
  if (a < 0.0) {
    a = -a;
    negate = true;
  }
  if (a <= ASIN_MAX_VALUE_FOR_TABS) {
    const index = (a * ASIN_INDEXER + 0.5) | 0;
    const delta = a - index * ASIN_DELTA;
    const result =
      asinTab[index]! +
      delta *
        (asinDer1DivF1Tab[index]! +
          delta *
            (asinDer2DivF2Tab[index]! +
              delta * (asinDer3DivF3Tab[index]! + delta * asinDer4DivF4Tab[index]!)));
    return negate ? -result : result;
  }
  if (a < 1.0) {
    const t = (1.0 - a) * 0.5;
    const p =
      t * (ASIN_PS0 + t * (ASIN_PS1 + t * (ASIN_PS2 + t * (ASIN_PS3 + t * (ASIN_PS4 + t * ASIN_PS5)))));
    const q = 1.0 + t * (ASIN_QS1 + t * (ASIN_QS2 + t * (ASIN_QS3 + t * ASIN_QS4)));
    const s = Math.sqrt(t);
    const z = s + s * (p / q);
    const result = ASIN_PIO2_HI - (z + z - ASIN_PIO2_LO);
    return negate ? -result : result;
  }
  if (a === 1.0) return negate ? -Math.PI / 2 : Math.PI / 2;
  return Number.NaN;
}

const TO_RADIANS = Math.PI / 180;

/** SloppyMath.haversinSortKey: orders like the distance, cheaper to compute. */
export function haversinSortKey(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x1 = lat1 * TO_RADIANS;
  const x2 = lat2 * TO_RADIANS;
  const h1 = 1 - sloppyCos(x1 - x2);
  const h2 = 1 - sloppyCos((lon1 - lon2) * TO_RADIANS);
  const h = h1 + sloppyCos(x1) * sloppyCos(x2) * h2;
  // Lucene clears the 3 lowest bits so that later rounding cannot create ties.
  scratch[0] = h;
  scratchWords[LOW]! &= 0xfffffff8;
  return scratch[0]!;
}

/** SloppyMath.haversinMeters(sortKey). */
export function haversinMeters(sortKey: number): number {
  return TO_METERS * 2 * sloppyAsin(Math.min(1, Math.sqrt(sortKey * 0.5)));
}

/** GeoUtils.arcDistance (meters). */
export function arcDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  return haversinMeters(haversinSortKey(lat1, lon1, lat2, lon2));
}

const EARTH_MEAN_RADIUS = 6371008.7714;

/** GeoUtils.planeDistance (meters): a tangential plane, inaccurate beyond a few degrees. */
export function planeDistance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const x = (lon2 - lon1) * TO_RADIANS * Math.cos(((lat2 + lat1) / 2.0) * TO_RADIANS);
  const y = (lat2 - lat1) * TO_RADIANS;
  return Math.sqrt(x * x + y * y) * EARTH_MEAN_RADIUS;
}

const MAX_SORT_KEY_METERS = haversinMeters(Number.MAX_VALUE);
const MAX_DOUBLE_BITS = toBits(Number.MAX_VALUE);

/**
 * Lucene's GeoUtils.distanceQuerySortKey: the smallest sort key whose distance is at least the
 * radius, found by a binary search over the bits of the non-negative doubles.
 */
export function distanceQuerySortKey(radius: number): number {
  if (radius >= MAX_SORT_KEY_METERS) return MAX_SORT_KEY_METERS;
  let lo = 0n;
  let hi = MAX_DOUBLE_BITS;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1n;
    const sortKey = fromBits(mid);
    const midRadius = haversinMeters(sortKey);
    if (midRadius === radius) return sortKey;
    if (midRadius > radius) hi = mid - 1n;
    else lo = mid + 1n;
  }
  return fromBits(lo);
}

// ------------------------------------------------------------------ GeoUtils (Elasticsearch)

export function isValidLatitude(lat: number): boolean {
  return !Number.isNaN(lat) && Number.isFinite(lat) && lat >= -90 && lat <= 90;
}

export function isValidLongitude(lon: number): boolean {
  return !Number.isNaN(lon) && Number.isFinite(lon) && lon >= -180 && lon <= 180;
}

function centeredModulus(dividend: number, divisor: number): number {
  let rtn = dividend % divisor;
  if (rtn <= 0) rtn += divisor;
  if (rtn > divisor / 2) rtn -= divisor;
  return rtn;
}

/** GeoUtils.normalizePoint(lonLat, normLon, normLat): the point brought into range in place. */
export function normalizePoint(p: { lat: number; lon: number }, normLat = true, normLon = true): void {
  let lon = p.lon;
  let lat = p.lat;
  normLat = normLat && (lat > 90 || lat < -90);
  normLon = normLon && (lon > 180 || lon < -180 || normLat);
  if (normLat) {
    lat = centeredModulus(lat, 360);
    let shift = true;
    if (lat < -90) lat = -180 - lat;
    else if (lat > 90) lat = 180 - lat;
    else shift = false;
    if (shift) {
      if (normLon) lon += 180;
      else lon += normalizeLon(lon) > 0 ? -180 : 180;
    }
  }
  if (normLon) lon = centeredModulus(lon, 360);
  p.lat = lat;
  p.lon = lon;
}

/** GeoUtils.normalizeLon: into (-180, 180]. */
export function normalizeLon(lon: number): number {
  if (lon > 180 || lon <= -180) lon = centeredModulus(lon, 360);
  return lon + 0;
}

/** GeoUtils.normalizeLat: into [-90, 90], folded over the poles. */
export function normalizeLat(lat: number): number {
  if (lat > 90 || lat < -90) {
    lat = centeredModulus(lat, 360);
    if (lat < -90) lat = -180 - lat;
    else if (lat > 90) lat = 180 - lat;
  }
  return lat + 0;
}
