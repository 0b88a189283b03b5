/**
 * Segment doc sets as bitsets (one bit per doc, Lucene's FixedBitSet), for counting a query's
 * matches without iterating them one by one: a term sets its postings' bits, a conjunction
 * ANDs, a disjunction ORs, must_not ANDs NOT, and the count is a popcount of what passes the
 * filter. Scratch bitsets come from a pool, so a count allocates nothing in steady state.
 */

export function wordsFor(maxDoc: number): number {
  return (maxDoc + 31) >>> 5;
}

const pool: Uint32Array[] = [];

/** A zeroed bitset of at least `words` words; give it back with `releaseBits`. */
export function acquireBits(words: number): Uint32Array {
  for (let i = pool.length - 1; i >= 0; i--) {
    const b = pool[i]!;
    if (b.length >= words) {
      pool.splice(i, 1);
      return b;
    }
  }
  return new Uint32Array(words);
}

/** Zeroes the first `words` words and returns the bitset to the pool. */
export function releaseBits(bits: Uint32Array, words: number): void {
  bits.fill(0, 0, words);
  if (pool.length < 16) pool.push(bits);
}

export function markDocs(docs: Int32Array, bits: Uint32Array): void {
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i]!;
    bits[d >>> 5]! |= 1 << (d & 31);
  }
}

/** Sets the bits of docs [0, maxDoc). */
export function markAll(bits: Uint32Array, maxDoc: number): void {
  const full = maxDoc >>> 5;
  bits.fill(0xffffffff, 0, full);
  if ((maxDoc & 31) !== 0) bits[full]! |= (1 << (maxDoc & 31)) - 1;
}

export function andInto(target: Uint32Array, other: Uint32Array, words: number): void {
  for (let i = 0; i < words; i++) target[i]! &= other[i]!;
}

export function orInto(target: Uint32Array, other: Uint32Array, words: number): void {
  for (let i = 0; i < words; i++) target[i]! |= other[i]!;
}

export function andNotInto(target: Uint32Array, other: Uint32Array, words: number): void {
  for (let i = 0; i < words; i++) target[i]! &= ~other[i]!;
}

export function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Set bits that are not set in `excluded`. */
export function countBits(bits: Uint32Array, excluded: Uint32Array | null, words: number): number {
  let n = 0;
  if (excluded === null) {
    for (let i = 0; i < words; i++) if (bits[i] !== 0) n += popcount(bits[i]!);
  } else {
    for (let i = 0; i < words; i++) {
      const v = bits[i]! & ~excluded[i]!;
      if (v !== 0) n += popcount(v);
    }
  }
  return n;
}
