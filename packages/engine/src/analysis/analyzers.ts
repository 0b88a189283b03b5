/**
 * The built-in analyzers Elasticsearch offers without configuration. Each returns tokens with
 * positions (stop words leave position gaps, as Lucene's StopFilter does) and UTF-16 offsets.
 */
import type { Analyzer, Token } from '../contract.ts';
import { isJavaWhitespace, isLetter } from './char-classes.ts';
import { charRunTokens } from './char-tokenizers.ts';
import { DEFAULT_MAX_TOKEN_LENGTH, standardTokens } from './standard-tokenizer.ts';
import { ENGLISH_STOP_WORDS } from './stop-words.ts';

/** `standard`: standard tokenizer + lowercase (no stop words by default). */
export const standardAnalyzer: Analyzer = {
  name: 'standard',
  analyze: (text) => standardTokens(text, true, DEFAULT_MAX_TOKEN_LENGTH),
};

/** `simple`: letters only, lowercased. */
export const simpleAnalyzer: Analyzer = {
  name: 'simple',
  analyze: (text) => charRunTokens(text, isLetter, true, DEFAULT_MAX_TOKEN_LENGTH),
};

const notWhitespace = (cp: number) => !isJavaWhitespace(cp);

/** `whitespace`: split on whitespace, case kept. */
export const whitespaceAnalyzer: Analyzer = {
  name: 'whitespace',
  analyze: (text) => charRunTokens(text, notWhitespace, false, DEFAULT_MAX_TOKEN_LENGTH),
};

/** `keyword`: the whole input is one token (even an empty one, like Lucene's KeywordTokenizer). */
export const keywordAnalyzer: Analyzer = {
  name: 'keyword',
  analyze: (text) => [{ term: text, position: 0, startOffset: 0, endOffset: text.length }],
};

/** `stop`: `simple` plus the English stop words; removed words still advance the position. */
export const stopAnalyzer: Analyzer = {
  name: 'stop',
  analyze: (text) => {
    const all = charRunTokens(text, isLetter, true, DEFAULT_MAX_TOKEN_LENGTH);
    const kept: Token[] = [];
    for (const t of all) if (!ENGLISH_STOP_WORDS.has(t.term)) kept.push(t);
    return kept;
  },
};
