/**
 * Terms are ordered as Lucene orders `BytesRef`s: by their UTF-8 bytes, which is Unicode code
 * point order. JavaScript's `<` compares UTF-16 code units, which differs only when a surrogate
 * (U+D800–U+DFFF, i.e. a code point above U+FFFF) meets a code unit in U+E000–U+FFFF.
 */
export function compareTerms(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca !== cb) {
      if (ca >= 0xd800 && cb >= 0xd800) {
        // Move surrogates above U+E000–U+FFFF so code units compare like code points.
        ca = ca >= 0xe000 ? ca - 0x800 : ca + 0x2000;
        cb = cb >= 0xe000 ? cb - 0x800 : cb + 0x2000;
      }
      return ca - cb;
    }
  }
  return a.length - b.length;
}
