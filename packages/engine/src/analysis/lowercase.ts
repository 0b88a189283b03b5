/**
 * Lucene's LowerCaseFilter lowercases code point by code point (Java's Character.toLowerCase),
 * so it never expands a character ("İ" → "i") and ignores context (no final sigma). JS
 * `toLowerCase` matches it for ASCII, which is the fast path.
 */
export function lowercaseTerm(term: string, ascii: boolean): string {
  if (ascii) return term.toLowerCase();
  let out = '';
  for (const ch of term) {
    const lower = ch.toLowerCase();
    if (lower.length === ch.length) {
      out += lower;
    } else {
      // Special casing expanded the character; Java's single-code-point mapping keeps the first.
      const cp = lower.codePointAt(0)!;
      out += String.fromCodePoint(cp);
    }
  }
  return out;
}
