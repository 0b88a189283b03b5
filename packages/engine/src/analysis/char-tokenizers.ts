/**
 * Lucene's CharTokenizer family: a token is a maximal run of code points accepted by a
 * predicate (letters for `simple`/`stop`, non-whitespace for `whitespace`), cut at the max token
 * length (255 by default) like Lucene does.
 */
import type { Token } from '../contract.ts';
import { lowercaseTerm } from './lowercase.ts';

export function charRunTokens(
  text: string,
  accept: (cp: number) => boolean,
  lowercase: boolean,
  maxTokenLength: number,
): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let position = 0;
  let i = 0;
  while (i < n) {
    let cp = text.codePointAt(i)!;
    if (!accept(cp)) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    let ascii = true;
    while (i < n) {
      cp = text.codePointAt(i)!;
      if (!accept(cp)) break;
      const len = cp > 0xffff ? 2 : 1;
      if (i + len - start > maxTokenLength) break;
      if (cp >= 128) ascii = false;
      i += len;
    }
    const raw = text.slice(start, i);
    tokens.push({
      term: lowercase ? lowercaseTerm(raw, ascii) : raw,
      position: position++,
      startOffset: start,
      endOffset: i,
    });
  }
  return tokens;
}
