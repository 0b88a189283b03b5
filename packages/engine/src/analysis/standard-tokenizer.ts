/**
 * The standard tokenizer: UAX #29 word segmentation as Lucene's StandardTokenizer does it.
 * Words are runs of letters and digits joined by the "mid" characters of the rules (`'`, `.`
 * between letters, `,`/`.` between digits, `_` anywhere); Han and Hiragana characters are one
 * token each; emoji are tokens; everything else separates. Tokens longer than the max token
 * length are split at that length, as Lucene does.
 */
import type { Token } from '../contract.ts';
import {
  ALETTER,
  EMOJI,
  EXTEND,
  EXTEND_NUM_LET,
  IDEOGRAPHIC,
  KATAKANA,
  MID_LETTER,
  MID_NUM,
  MID_NUM_LET,
  NUMERIC,
  SINGLE_QUOTE,
  wordBreakClass,
} from './char-classes.ts';
import { lowercaseTerm } from './lowercase.ts';

export const DEFAULT_MAX_TOKEN_LENGTH = 255;

function codePointAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** Index just past the EXTEND characters starting at i. */
function skipExtend(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const cp = codePointAt(text, i);
    if (cp < 0x300 || wordBreakClass(cp) !== EXTEND) break;
    i += cp > 0xffff ? 2 : 1;
  }
  return i;
}

/** Called with a token's bounds; `ascii` tells whether every char is < 128. */
export type TokenSink = (start: number, end: number, ascii: boolean) => void;

/** Segments `text` into word tokens, calling `emit` for each in order. */
export function segmentWords(text: string, emit: TokenSink): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c0 = text.charCodeAt(i);
    // Fast skip of ASCII separators.
    if (c0 < 128) {
      const cls = wordBreakClass(c0);
      if (cls !== ALETTER && cls !== NUMERIC && cls !== EXTEND_NUM_LET) {
        i++;
        continue;
      }
    }
    const cp0 = c0 < 0xd800 ? c0 : codePointAt(text, i);
    const cls0 = wordBreakClass(cp0);
    const start = i;
    i += cp0 > 0xffff ? 2 : 1;
    if (cls0 === IDEOGRAPHIC) {
      i = skipExtend(text, i);
      emit(start, i, false);
      continue;
    }
    if (cls0 === EMOJI) {
      i = skipExtend(text, i);
      // ZWJ sequences (👩‍💻) stay one token.
      while (i < n && text.charCodeAt(i - 1) === 0x200d) {
        const cp = codePointAt(text, i);
        if (wordBreakClass(cp) !== EMOJI) break;
        i = skipExtend(text, i + (cp > 0xffff ? 2 : 1));
      }
      emit(start, i, false);
      continue;
    }
    if (cls0 !== ALETTER && cls0 !== NUMERIC && cls0 !== KATAKANA && cls0 !== EXTEND_NUM_LET) continue;
    let ascii = cp0 < 128;
    let last = cls0;
    let hasCore = cls0 !== EXTEND_NUM_LET;
    let end = i;
    while (i < n) {
      const c = text.charCodeAt(i);
      const cp = c < 0xd800 ? c : codePointAt(text, i);
      const cls = wordBreakClass(cp);
      const len = cp > 0xffff ? 2 : 1;
      if (cls === EXTEND) {
        i += len;
        end = i;
        ascii = false;
        continue;
      }
      if (cls === ALETTER || cls === NUMERIC) {
        if (last === KATAKANA) break;
        last = cls;
      } else if (cls === KATAKANA) {
        if (last !== KATAKANA && last !== EXTEND_NUM_LET) break;
        last = KATAKANA;
      } else if (cls === EXTEND_NUM_LET) {
        last = EXTEND_NUM_LET;
      } else if (
        ((cls === MID_LETTER || cls === MID_NUM_LET || cls === SINGLE_QUOTE) && last === ALETTER) ||
        ((cls === MID_NUM || cls === MID_NUM_LET || cls === SINGLE_QUOTE) && last === NUMERIC)
      ) {
        // WB6/7 and WB11/12: a mid character joins only when the same kind follows it.
        const next = skipExtend(text, i + len);
        if (next >= n) break;
        const ncp = codePointAt(text, next);
        if (wordBreakClass(ncp) !== last) break;
        if (c >= 128) ascii = false;
        i = next;
        continue;
      } else {
        break;
      }
      if (cls !== EXTEND_NUM_LET) hasCore = true;
      if (cp >= 128) ascii = false;
      i += len;
      end = i;
    }
    i = end;
    if (hasCore) emit(start, end, ascii);
  }
}

/** Splits [start, end) into pieces of at most maxLen UTF-16 units, never inside a surrogate pair. */
export function splitLong(
  text: string,
  start: number,
  end: number,
  maxLen: number,
  emit: (s: number, e: number) => void,
): void {
  while (end - start > maxLen) {
    let cut = start + maxLen;
    const c = text.charCodeAt(cut - 1);
    if (c >= 0xd800 && c <= 0xdbff) cut--;
    emit(start, cut);
    start = cut;
  }
  emit(start, end);
}

export function standardTokens(text: string, lowercase: boolean, maxTokenLength: number): Token[] {
  const tokens: Token[] = [];
  let position = 0;
  segmentWords(text, (start, end, ascii) => {
    if (end - start <= maxTokenLength) {
      const raw = text.slice(start, end);
      tokens.push({
        term: lowercase ? lowercaseTerm(raw, ascii) : raw,
        position: position++,
        startOffset: start,
        endOffset: end,
      });
      return;
    }
    splitLong(text, start, end, maxTokenLength, (s, e) => {
      const raw = text.slice(s, e);
      tokens.push({
        term: lowercase ? lowercaseTerm(raw, ascii) : raw,
        position: position++,
        startOffset: s,
        endOffset: e,
      });
    });
  });
  return tokens;
}
