/**
 * Word-break classes of UAX #29 (the rules Lucene's StandardTokenizer implements), reduced to
 * what the standard tokenizer needs. ASCII is a table lookup; the rest of the BMP is classified
 * once per code point and cached, so analysis stays a tight loop over char codes.
 */
export const OTHER = 0;
export const ALETTER = 1;
export const NUMERIC = 2;
export const MID_LETTER = 3;
export const MID_NUM = 4;
export const MID_NUM_LET = 5;
export const SINGLE_QUOTE = 6;
export const EXTEND_NUM_LET = 7;
/** Marks, format characters, ZWJ: glued to whatever precedes them (WB4). */
export const EXTEND = 8;
export const KATAKANA = 9;
/** Han and Hiragana: Lucene emits each such character as a token of its own. */
export const IDEOGRAPHIC = 10;
export const EMOJI = 11;

const MID_LETTER_SET = new Set([0x3a, 0xb7, 0x387, 0x5f4, 0x2027, 0xfe13, 0xfe55, 0xff1a]);
const MID_NUM_SET = new Set([
  0x2c, 0x3b, 0x37e, 0x589, 0x60c, 0x60d, 0x66c, 0x7f8, 0x2044, 0xfe10, 0xfe14, 0xfe50, 0xfe54, 0xff0c,
  0xff1b,
]);
const MID_NUM_LET_SET = new Set([0x2e, 0x2018, 0x2019, 0x2024, 0xfe52, 0xff07, 0xff0e]);
const KATAKANA_EXTRA = new Set([
  0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x309b, 0x309c, 0x30a0, 0x30fc, 0xff70,
]);

const RE_EMOJI = /^\p{Extended_Pictographic}$/u;
const RE_EMOJI_PRESENTATION = /^\p{Emoji_Presentation}$/u;
const RE_KATAKANA = /^\p{Script=Katakana}$/u;
const RE_IDEO = /^[\p{Script=Han}\p{Script=Hiragana}]$/u;
const RE_EXTEND = /^[\p{M}\p{Cf}\p{Emoji_Modifier}]$/u;
const RE_ALPHA = /^\p{Alphabetic}$/u;
const RE_DIGIT = /^\p{Nd}$/u;
const RE_PC = /^\p{Pc}$/u;

function computeClass(cp: number): number {
  if (MID_LETTER_SET.has(cp)) return MID_LETTER;
  if (MID_NUM_SET.has(cp)) return MID_NUM;
  if (MID_NUM_LET_SET.has(cp)) return MID_NUM_LET;
  if (cp === 0x27) return SINGLE_QUOTE;
  if (cp === 0x202f) return EXTEND_NUM_LET;
  const ch = String.fromCodePoint(cp);
  if (KATAKANA_EXTRA.has(cp) || RE_KATAKANA.test(ch)) return KATAKANA;
  if (RE_IDEO.test(ch)) return IDEOGRAPHIC;
  if (RE_EXTEND.test(ch) || cp === 0x200d) return EXTEND;
  if (RE_EMOJI.test(ch)) return RE_EMOJI_PRESENTATION.test(ch) ? EMOJI : OTHER;
  if (RE_ALPHA.test(ch)) return ALETTER;
  if (RE_DIGIT.test(ch)) return NUMERIC;
  if (RE_PC.test(ch)) return EXTEND_NUM_LET;
  return OTHER;
}

const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII[c] = computeClass(c);

/** 0 means "not computed yet"; stored values are class + 1. */
const BMP_CACHE = new Uint8Array(0x10000);
const ASTRAL_CACHE = new Map<number, number>();

export function wordBreakClass(cp: number): number {
  if (cp < 128) return ASCII[cp]!;
  if (cp < 0x10000) {
    const cached = BMP_CACHE[cp]!;
    if (cached !== 0) return cached - 1;
    const c = computeClass(cp);
    BMP_CACHE[cp] = c + 1;
    return c;
  }
  let c = ASTRAL_CACHE.get(cp);
  if (c === undefined) {
    c = computeClass(cp);
    ASTRAL_CACHE.set(cp, c);
  }
  return c;
}

const RE_LETTER = /^\p{L}$/u;
const LETTER_CACHE = new Uint8Array(0x10000);

/** Java's Character.isLetter, as Lucene's LetterTokenizer uses it. */
export function isLetter(cp: number): boolean {
  if (cp < 128) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a);
  if (cp < 0x10000) {
    let v = LETTER_CACHE[cp]!;
    if (v === 0) {
      v = RE_LETTER.test(String.fromCharCode(cp)) ? 2 : 1;
      LETTER_CACHE[cp] = v;
    }
    return v === 2;
  }
  return RE_LETTER.test(String.fromCodePoint(cp));
}

/** Java's Character.isWhitespace: space separators except the no-break ones, plus controls. */
export function isJavaWhitespace(cp: number): boolean {
  if (cp <= 0x20) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f);
  if (cp < 0x1680) return false;
  if (cp === 0x1680 || cp === 0x2028 || cp === 0x2029 || cp === 0x205f || cp === 0x3000) return true;
  return cp >= 0x2000 && cp <= 0x200a && cp !== 0x2007;
}
