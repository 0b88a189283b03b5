/**
 * Lucene's `SmallFloat.intToByte4` / `byte4ToInt`: the one-byte field-length norm that
 * BM25Similarity stores per document. Lengths below 24 are exact; larger ones keep 4
 * significant bits. Matching this encoding is what makes Shoal's scores equal Lucene's.
 */
const MAX_INT4 = longToInt4(0x7fffffff);
const NUM_FREE_VALUES = 255 - MAX_INT4;

function longToInt4(i: number): number {
  const numBits = 32 - Math.clz32(i);
  if (numBits < 4) return i;
  const shift = numBits - 4;
  let encoded = (i >>> shift) & 0x07;
  encoded |= (shift + 1) << 3;
  return encoded;
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

export function encodeNorm(length: number): number {
  if (length < NUM_FREE_VALUES) return length;
  return NUM_FREE_VALUES + longToInt4(length - NUM_FREE_VALUES);
}

export function decodeNorm(byte: number): number {
  if (byte < NUM_FREE_VALUES) return byte;
  return NUM_FREE_VALUES + int4ToLong(byte - NUM_FREE_VALUES);
}

/** `LENGTH_TABLE` of BM25Similarity: the decoded length of every norm byte. */
export const NORM_LENGTH_TABLE: Float64Array = (() => {
  const t = new Float64Array(256);
  for (let i = 0; i < 256; i++) t[i] = decodeNorm(i);
  return t;
})();
