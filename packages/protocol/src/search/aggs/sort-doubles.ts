/**
 * Sorts doubles in place in exactly the order of `Float64Array.prototype.sort()` (-0 before +0,
 * NaN last), without comparisons: integers over a small range are counted, other values go
 * through an LSD radix sort on their IEEE-754 bits, a byte at a time.
 *
 * A digest sorts every value a shard collects; the comparison sort costs n log n comparisons,
 * while doc values are mostly integers or floats whose low mantissa bits are all zero. Bytes
 * that are the same in every value need no pass, and when every value's low 32 bits are zero
 * (any float, most integers) only the high word is sorted. Values made of sorted runs (each
 * segment's points) are merged run by run instead.
 */

/** Below this many values the comparison sort is as fast. */
const RADIX_MIN = 512;
/** Where a double's high and low 32-bit words sit in a Uint32Array view of it. */
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
const LOW = 1 - HIGH;
const SIGN = 0x80000000;

export function sortDoubles(a: Float64Array, runs?: readonly number[]): Float64Array {
  const n = a.length;
  if (n < RADIX_MIN) return a.sort();
  let min = Infinity;
  let max = -Infinity;
  let integers = true;
  for (let i = 0; i < n; i++) {
    const v = a[i]!;
    // NaNs (which may carry a sign) are left to the comparison sort.
    if (Number.isNaN(v)) return a.sort();
    if (v < min) min = v;
    if (v > max) max = v;
    // -0 is told from +0 only by the bits.
    if (integers && (Math.floor(v) !== v || (v === 0 && 1 / v < 0))) integers = false;
  }
  if (integers && max - min <= COUNTING_MAX_RANGE && max - min <= 4 * n) return countingSort(a, min, max);
  return runs !== undefined && runs.length > 0 ? mergeSortedRuns(a, runs) : radixSort(a);
}

/** Integer values over a range this small (and at most 4n wide) are counted rather than sorted. */
const COUNTING_MAX_RANGE = 1 << 20;

function countingSort(a: Float64Array, min: number, max: number): Float64Array {
  const counts = new Int32Array(max - min + 1);
  for (let i = 0; i < a.length; i++) counts[a[i]! - min]!++;
  let at = 0;
  for (let k = 0; k < counts.length; k++) {
    const v = k + min;
    for (let c = counts[k]!; c > 0; c--) a[at++] = v;
  }
  return a;
}

function radixSort(a: Float64Array): Float64Array {
  const n = a.length;
  const words = new Uint32Array(a.buffer, a.byteOffset, n * 2);
  // Order-preserving keys: a positive double's bits with the sign set, a negative's inverted.
  const hi = new Uint32Array(n);
  let lowsZero = true;
  for (let i = 0; i < n; i++) {
    const h = words[2 * i + HIGH]!;
    hi[i] = h & SIGN ? ~h >>> 0 : (h | SIGN) >>> 0;
    if (words[2 * i + LOW]! !== 0) lowsZero = false;
  }
  if (lowsZero) {
    const sorted = radixHigh(hi);
    for (let i = 0; i < n; i++) {
      const h = sorted[i]!;
      words[2 * i + HIGH] = h & SIGN ? (h & ~SIGN) >>> 0 : ~h >>> 0;
      words[2 * i + LOW] = 0;
    }
    return a;
  }
  const lo = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const l = words[2 * i + LOW]!;
    lo[i] = words[2 * i + HIGH]! & SIGN ? ~l >>> 0 : l;
  }
  const [sh, sl] = radixWide(hi, lo);
  for (let i = 0; i < n; i++) {
    const h = sh[i]!;
    const positive = (h & SIGN) !== 0;
    words[2 * i + HIGH] = positive ? (h & ~SIGN) >>> 0 : ~h >>> 0;
    words[2 * i + LOW] = positive ? sl[i]! : ~sl[i]! >>> 0;
  }
  return a;
}

/** Every byte's counts in one read: [byte position * 256 + byte value], low byte first. */
function byteCounts(keys: Uint32Array, counts: Int32Array, at: number): void {
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    counts[at + (k & 255)]!++;
    counts[at + 256 + ((k >>> 8) & 255)]!++;
    counts[at + 512 + ((k >>> 16) & 255)]!++;
    counts[at + 768 + (k >>> 24)]!++;
  }
}

/** Turns one byte position's counts into start offsets; false when every key has the same byte. */
function offsets(counts: Int32Array, base: number, n: number): boolean {
  let sum = 0;
  for (let b = base; b < base + 256; b++) {
    const c = counts[b]!;
    if (c === n) return false;
    counts[b] = sum;
    sum += c;
  }
  return true;
}

function radixHigh(keys: Uint32Array): Uint32Array {
  const n = keys.length;
  const counts = new Int32Array(1024);
  byteCounts(keys, counts, 0);
  let src = keys;
  let dst: Uint32Array = new Uint32Array(n);
  for (let pass = 0; pass < 4; pass++) {
    const base = pass * 256;
    if (!offsets(counts, base, n)) continue;
    const shift = pass * 8;
    for (let i = 0; i < n; i++) {
      const k = src[i]!;
      dst[counts[base + ((k >>> shift) & 255)]!++] = k;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}

function radixWide(hiKeys: Uint32Array, loKeys: Uint32Array): [Uint32Array, Uint32Array] {
  const n = hiKeys.length;
  const counts = new Int32Array(2048);
  byteCounts(loKeys, counts, 0);
  byteCounts(hiKeys, counts, 1024);
  let hi = hiKeys;
  let lo = loKeys;
  let hiOut: Uint32Array = new Uint32Array(n);
  let loOut: Uint32Array = new Uint32Array(n);
  for (let pass = 0; pass < 8; pass++) {
    const base = pass * 256;
    if (!offsets(counts, base, n)) continue;
    const shift = (pass & 3) * 8;
    const by = pass < 4 ? lo : hi;
    for (let i = 0; i < n; i++) {
      const at = counts[base + ((by[i]! >>> shift) & 255)]!++;
      hiOut[at] = hi[i]!;
      loOut[at] = lo[i]!;
    }
    let t = hi;
    hi = hiOut;
    hiOut = t;
    t = lo;
    lo = loOut;
    loOut = t;
  }
  return [hi, lo];
}

/**
 * The sorted runs `a[0, ends[0])`, `a[ends[0], ends[1])`, … merged in place, pairwise, into the
 * order of Float64Array.prototype.sort.
 */
function mergeSortedRuns(a: Float64Array, ends: readonly number[]): Float64Array {
  let bounds = [0, ...ends];
  let src = a;
  let dst: Float64Array = new Float64Array(a.length);
  while (bounds.length > 2) {
    const next = [0];
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const lo = bounds[r]!;
      const mid = bounds[r + 1]!;
      const hi = r + 2 < bounds.length ? bounds[r + 2]! : mid;
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const x = src[i]!;
        const y = src[j]!;
        // The right value first only when strictly before: y < x, or -0 against +0.
        if (y < x || (y === 0 && x === 0 && 1 / y < 0 && 1 / x > 0)) {
          dst[k++] = y;
          j++;
        } else {
          dst[k++] = x;
          i++;
        }
      }
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
      next.push(hi);
    }
    bounds = next;
    const t = src;
    src = dst;
    dst = t;
  }
  if (src !== a) a.set(src);
  return a;
}
