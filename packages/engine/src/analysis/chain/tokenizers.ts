/**
 * The tokenizers a request may name or define inline in `_analyze` (Elasticsearch's built-in
 * tokenizer factories): standard, whitespace, keyword, letter, lowercase, pattern, ngram and
 * edge_ngram, with their settings and their token types.
 */
import { illegalArgument } from '@shoal/protocol';
import { isJavaWhitespace, isLetter } from '../char-classes.ts';
import { charRunTokens } from '../char-tokenizers.ts';
import { DEFAULT_MAX_TOKEN_LENGTH, standardTokens } from '../standard-tokenizer.ts';
import {
  type ChainToken,
  type ComponentSettings,
  intSetting,
  javaRegExp,
  listSetting,
  stringSetting,
} from './chain-token.ts';

export type Tokenizer = (text: string) => ChainToken[];

/** The index setting `index.max_ngram_diff` at its default. */
const MAX_NGRAM_DIFF = 1;

function typed(
  tokens: { term: string; position: number; startOffset: number; endOffset: number }[],
  type: (term: string) => string,
): ChainToken[] {
  return tokens.map((t) => ({ ...t, type: type(t.term), positionLength: 1 }));
}

/** StandardTokenizer's token types. */
export function standardType(term: string): string {
  const cp = term.codePointAt(0)!;
  if (/^[\p{Nd}.,]*\p{Nd}[\p{Nd}.,]*$/u.test(term)) return '<NUM>';
  if (/\p{Script=Han}/u.test(term) && [...term].length === 1) return '<IDEOGRAPHIC>';
  if (/^\p{Script=Hiragana}$/u.test(String.fromCodePoint(cp))) return '<HIRAGANA>';
  if (/^\p{Script=Katakana}/u.test(term)) return '<KATAKANA>';
  if (/^\p{Script=Hangul}/u.test(term)) return '<HANGUL>';
  if (/^\p{Extended_Pictographic}/u.test(term)) return '<EMOJI>';
  return '<ALPHANUM>';
}

const word = () => 'word';
const notWhitespace = (cp: number) => !isJavaWhitespace(cp);

/** The tokenizer of a type with its settings; undefined for a type Shoal does not know. */
export function buildTokenizer(type: string, s: ComponentSettings): Tokenizer | undefined {
  switch (type) {
    case 'standard': {
      const max = intSetting(s, 'max_token_length', DEFAULT_MAX_TOKEN_LENGTH);
      return (text) => typed(standardTokens(text, false, max), standardType);
    }
    case 'whitespace': {
      const max = intSetting(s, 'max_token_length', DEFAULT_MAX_TOKEN_LENGTH);
      return (text) => typed(charRunTokens(text, notWhitespace, false, max), word);
    }
    case 'letter':
      return (text) => typed(charRunTokens(text, isLetter, false, DEFAULT_MAX_TOKEN_LENGTH), word);
    case 'lowercase':
      return (text) => typed(charRunTokens(text, isLetter, true, DEFAULT_MAX_TOKEN_LENGTH), word);
    case 'keyword':
      return (text) => [
        { term: text, position: 0, startOffset: 0, endOffset: text.length, type: 'word', positionLength: 1 },
      ];
    case 'pattern':
      return patternTokenizer(s);
    case 'ngram':
    case 'nGram':
      return ngramTokenizer(s, false);
    case 'edge_ngram':
    case 'edgeNGram':
      return ngramTokenizer(s, true);
    default:
      return undefined;
  }
}

/** PatternTokenizer: the text split by the pattern (group -1), or the pattern's group matches. */
function patternTokenizer(s: ComponentSettings): Tokenizer {
  const re = javaRegExp(stringSetting(s, 'pattern', '\\W+'), s.flags as string | undefined, true);
  const group = intSetting(s, 'group', -1);
  return (text) => {
    const out: ChainToken[] = [];
    const push = (start: number, end: number) => {
      out.push({
        term: text.slice(start, end),
        position: out.length,
        startOffset: start,
        endOffset: end,
        type: 'word',
        positionLength: 1,
      });
    };
    re.lastIndex = 0;
    if (group === -1) {
      let from = 0;
      for (const m of text.matchAll(re)) {
        if (m[0].length === 0) continue;
        if (m.index > from) push(from, m.index);
        from = m.index + m[0].length;
      }
      if (from < text.length) push(from, text.length);
      return out;
    }
    const indexed = new RegExp(re.source, `${re.flags}d`);
    for (const m of text.matchAll(indexed)) {
      const span = m.indices?.[group];
      if (span && span[1] > span[0]) push(span[0], span[1]);
    }
    return out;
  };
}

/** The character classes of `token_chars`. */
const CHAR_CLASSES: Record<string, (ch: string) => boolean> = {
  letter: (ch) => /\p{L}/u.test(ch),
  digit: (ch) => /\p{Nd}/u.test(ch),
  whitespace: (ch) => /\s/u.test(ch),
  punctuation: (ch) => /\p{P}/u.test(ch),
  symbol: (ch) => /\p{S}/u.test(ch),
};

/** NGramTokenizer / EdgeNGramTokenizer: grams of min..max chars of each run of token chars. */
function ngramTokenizer(s: ComponentSettings, edge: boolean): Tokenizer {
  const min = intSetting(s, 'min_gram', 1);
  const max = intSetting(s, 'max_gram', 2);
  if (!edge && max - min > MAX_NGRAM_DIFF) {
    throw illegalArgument(
      `The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [${MAX_NGRAM_DIFF}] but was [${max - min}]. This limit can be set by changing the [index.max_ngram_diff] index level setting.`,
    );
  }
  if (min < 1) throw illegalArgument(`minGram must be greater than zero`);
  if (min > max) throw illegalArgument(`minGram must not be greater than maxGram`);
  const classes = listSetting(s, 'token_chars') ?? [];
  const custom = stringSetting(s, 'custom_token_chars', '');
  const tests = classes.map((c) => {
    if (c === 'custom') return (ch: string) => custom.includes(ch);
    const t = CHAR_CLASSES[c];
    if (!t)
      throw illegalArgument(
        `Unknown token type: '${c}', must be one of [symbol, private_use, paragraph_separator, start_punctuation, unassigned, enclosing_mark, connector_punctuation, letter_number, other_number, math_symbol, lowercase_letter, space_separator, surrogate, initial_quote_punctuation, decimal_digit_number, digit, other_punctuation, dash_punctuation, currency_symbol, non_spacing_mark, format, modifier_letter, control, uppercase_letter, other_symbol, end_punctuation, modifier_symbol, other_letter, line_separator, titlecase_letter, letter, punctuation, combining_spacing_mark, final_punctuation, whitespace, custom]`,
      );
    return t;
  });
  const accept = (ch: string) => tests.length === 0 || tests.some((t) => t(ch));
  return (text) => {
    const out: ChainToken[] = [];
    // Runs of token chars, as [start, end) UTF-16 offsets of whole code points.
    const chars: { ch: string; at: number }[] = [];
    for (let i = 0; i < text.length; ) {
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      chars.push({ ch, at: i });
      i += ch.length;
    }
    const runs: [number, number][] = [];
    let runStart = -1;
    chars.forEach((c, i) => {
      if (accept(c.ch)) {
        if (runStart < 0) runStart = i;
      } else if (runStart >= 0) {
        runs.push([runStart, i]);
        runStart = -1;
      }
    });
    if (runStart >= 0) runs.push([runStart, chars.length]);
    const end = (i: number) => (i < chars.length ? chars[i]!.at : text.length);
    for (const [from, to] of runs) {
      const starts = edge ? [from] : Array.from({ length: to - from }, (_, k) => from + k);
      for (const st of starts) {
        for (let len = min; len <= max && st + len <= to; len++) {
          const a = chars[st]!.at;
          const b = end(st + len);
          out.push({
            term: text.slice(a, b),
            position: out.length,
            startOffset: a,
            endOffset: b,
            type: 'word',
            positionLength: 1,
          });
        }
      }
    }
    return out;
  };
}
