/**
 * MurmurHash3 x86 32-bit (the reference algorithm; Lucene's StringHelper.murmurhash3_x86_32 and
 * Elasticsearch's Murmur3HashFunction both use it). Returns a signed 32-bit int, as Java does.
 */
export function murmur3x86_32(bytes: Uint8Array, seed = 0): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  const len = bytes.length;
  const roundedEnd = len & ~3;
  let h1 = seed | 0;
  for (let i = 0; i < roundedEnd; i += 4) {
    let k1 = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h1 ^= k1;
    h1 = (h1 << 13) | (h1 >>> 19);
    h1 = (Math.imul(h1, 5) + 0xe6546b64) | 0;
  }
  const tail = len & 3;
  if (tail > 0) {
    let k1 = 0;
    if (tail === 3) k1 ^= bytes[roundedEnd + 2]! << 16;
    if (tail >= 2) k1 ^= bytes[roundedEnd + 1]! << 8;
    k1 ^= bytes[roundedEnd]!;
    k1 = Math.imul(k1, c1);
    k1 = (k1 << 15) | (k1 >>> 17);
    k1 = Math.imul(k1, c2);
    h1 ^= k1;
  }
  h1 ^= len;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1 | 0;
}
