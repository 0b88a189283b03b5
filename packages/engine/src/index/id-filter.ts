/**
 * A Bloom filter over one segment's `_id`s (what Lucene's BloomFilteringPostingsFormat kept
 * for the `_uid` field). Every write looks its id up in every segment, and a new id is in none
 * of them: the filter answers "not here" without touching the segment's id lookup, which for a
 * file-backed segment encodes the probe into a native buffer per call. About 10 bits per id
 * and 4 probes: roughly one lookup in a hundred still goes through to the segment.
 */
const BITS_PER_ID = 10;
const PROBES = 4;

// The two hashes of the last `hash` call (module state: no tuple allocated per lookup).
let h1 = 0;
let h2 = 0;

/** Two independent 32-bit hashes of the string's UTF-16 code units (FNV-1a and a murmur mix). */
function hash(id: string): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ id.length;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  b = Math.imul(b ^ (b >>> 13), 0x5bd1e995);
  h1 = a >>> 0;
  h2 = (b ^ (b >>> 15)) >>> 0;
}

export class IdFilter {
  private readonly bits: Int32Array;
  private readonly size: number;

  private constructor(count: number) {
    const words = Math.max(1, Math.ceil((count * BITS_PER_ID) / 32));
    this.bits = new Int32Array(words);
    this.size = words * 32;
  }

  /** The filter of `count` ids, read one by one through `idOf`. */
  static build(count: number, idOf: (i: number) => string): IdFilter {
    const f = new IdFilter(count);
    for (let i = 0; i < count; i++) f.add(idOf(i));
    return f;
  }

  private add(id: string): void {
    hash(id);
    for (let k = 0; k < PROBES; k++) {
      const bit = (h1 + k * h2) % this.size;
      this.bits[bit >>> 5]! |= 1 << (bit & 31);
    }
  }

  /** False when `id` is certainly not in the segment. */
  mayContain(id: string): boolean {
    hash(id);
    for (let k = 0; k < PROBES; k++) {
      const bit = (h1 + k * h2) % this.size;
      if ((this.bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  get byteLength(): number {
    return this.bits.byteLength;
  }
}
