/**
 * The token filters a request may name or define inline in `_analyze` (Elasticsearch's
 * built-in token filter factories): lowercase, uppercase, asciifolding, trim, length, unique,
 * stop, shingle, reverse, truncate, the English stemmers and synonyms.
 */
import { illegalArgument } from '@shoal/protocol';
import { stemmer as porterStem } from 'stemmer';
import snowballEnglish from 'wink-porter2-stemmer';
import { lowercaseTerm } from '../lowercase.ts';
import { ENGLISH_STOP_WORDS } from '../stop-words.ts';
import {
  boolSetting,
  type ChainToken,
  type ComponentSettings,
  intSetting,
  listSetting,
  stringSetting,
} from './chain-token.ts';
import { synonymFilter, type TermAnalyzer } from './synonyms.ts';

export type TokenFilter = (tokens: ChainToken[]) => ChainToken[];

/** Filters a normalizer may use: they work on a whole keyword (NormalizingTokenFilterFactory). */
export const NORMALIZING_FILTERS = new Set(['lowercase', 'uppercase', 'asciifolding', 'trim']);

const INT_MAX = 2 ** 31 - 1;

const map =
  (fn: (t: ChainToken) => ChainToken): TokenFilter =>
  (tokens) =>
    tokens.map(fn);

/**
 * The filter of a type with its settings; undefined for a type Shoal does not know. `analyze`
 * runs the chain before the filter (synonym rules are analysed with it).
 */
export function buildTokenFilter(
  type: string,
  s: ComponentSettings,
  analyze: TermAnalyzer,
): TokenFilter | undefined {
  switch (type) {
    case 'lowercase':
      return map((t) => ({ ...t, term: lowercaseTerm(t.term, false) }));
    case 'uppercase':
      return map((t) => ({ ...t, term: upper(t.term) }));
    case 'asciifolding': {
      const keep = boolSetting(s, 'preserve_original', false);
      return (tokens) =>
        tokens.flatMap((t) => {
          const folded = foldToAscii(t.term);
          if (folded === t.term) return [t];
          return keep ? [t, { ...t, term: folded }] : [{ ...t, term: folded }];
        });
    }
    case 'trim':
      return map((t) => ({ ...t, term: t.term.trim() }));
    case 'reverse':
      return map((t) => ({ ...t, term: [...t.term].reverse().join('') }));
    case 'truncate': {
      const length = intSetting(s, 'length', 10);
      if (length < 1) throw illegalArgument(`length parameter must be provided`);
      return map((t) => ({ ...t, term: [...t.term].slice(0, length).join('') }));
    }
    case 'length': {
      const min = intSetting(s, 'min', 0);
      const max = intSetting(s, 'max', INT_MAX);
      return (tokens) => tokens.filter((t) => t.term.length >= min && t.term.length <= max);
    }
    case 'unique': {
      const samePosition = boolSetting(s, 'only_on_same_position', false);
      return (tokens) => {
        const seen = new Set<string>();
        let at = -1;
        return tokens.filter((t) => {
          if (samePosition && t.position !== at) {
            seen.clear();
            at = t.position;
          }
          if (seen.has(t.term)) return false;
          seen.add(t.term);
          return true;
        });
      };
    }
    case 'stop':
      return stopFilter(s);
    case 'shingle':
      return shingleFilter(s);
    case 'porter_stem':
      return stemFilter(porterStem);
    case 'stemmer': {
      const language = stringSetting(s, 'language', stringSetting(s, 'name', 'english'));
      if (language === 'english' || language === 'porter') return stemFilter(porterStem);
      if (language === 'porter2') return stemFilter(snowballEnglish);
      return undefined;
    }
    case 'snowball': {
      const language = stringSetting(s, 'language', 'English');
      return language === 'English' || language === 'english' ? stemFilter(snowballEnglish) : undefined;
    }
    case 'synonym':
    case 'synonym_graph':
      return synonymFilter(s, analyze);
    case 'ngram':
    case 'edge_ngram':
      return gramFilter(s, type === 'edge_ngram');
    case 'limit': {
      const max = intSetting(s, 'max_token_count', 1);
      return (tokens) => tokens.slice(0, max);
    }
    case 'keep': {
      const words = new Set(listSetting(s, 'keep_words') ?? []);
      const ci = boolSetting(s, 'keep_words_case', false);
      const set = ci ? new Set([...words].map((w) => w.toLowerCase())) : words;
      return (tokens) => tokens.filter((t) => set.has(ci ? t.term.toLowerCase() : t.term));
    }
    case 'keep_types': {
      const types = new Set(listSetting(s, 'types') ?? []);
      const include = stringSetting(s, 'mode', 'include') === 'include';
      return (tokens) => tokens.filter((t) => types.has(t.type) === include);
    }
    case 'keyword_marker': {
      const words = new Set(listSetting(s, 'keywords') ?? []);
      return map((t) => ({ ...t, keyword: words.has(t.term) }));
    }
    default:
      return undefined;
  }
}

/** Character.toUpperCase per code point: never expands a character (ß stays ß). */
function upper(term: string): string {
  let out = '';
  for (const ch of term) {
    const u = ch.toUpperCase();
    out += u.length === ch.length ? u : ch;
  }
  return out;
}

/** ASCIIFoldingFilter for the Latin letters: the base letter of a decomposable one, and the ligatures. */
const FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'TH',
  ı: 'i',
  '“': '"',
  '”': '"',
  '‘': "'",
  '’': "'",
  '–': '-',
  '—': '-',
};

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 128) return false;
  return true;
}

export function foldToAscii(term: string): string {
  if (isAscii(term)) return term;
  let out = '';
  for (const ch of term) {
    if (ch.charCodeAt(0) < 128) out += ch;
    else if (FOLDS[ch] !== undefined) out += FOLDS[ch];
    else {
      const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
      out += base.length > 0 && isAscii(base) ? base : ch;
    }
  }
  return out;
}

/** Lucene's stop word sets by the names Elasticsearch gives them. */
function stopWords(s: ComponentSettings): Set<string> {
  const v = s.stopwords;
  if (v === undefined || v === '_english_') return ENGLISH_STOP_WORDS as Set<string>;
  if (v === '_none_') return new Set();
  if (typeof v === 'string' && /^_\w+_$/.test(v)) {
    throw illegalArgument(`Unknown stopwords [${v}]: only [_english_] and [_none_] are known to Shoal`);
  }
  return new Set(listSetting(s, 'stopwords') ?? []);
}

/** StopFilter: removed words leave their position empty. */
function stopFilter(s: ComponentSettings): TokenFilter {
  const ignoreCase = boolSetting(s, 'ignore_case', false);
  const words = stopWords(s);
  const set = ignoreCase ? new Set([...words].map((w) => w.toLowerCase())) : words;
  const removeTrailing = boolSetting(s, 'remove_trailing', true);
  return (tokens) =>
    tokens.filter((t, i) => {
      const stop = set.has(ignoreCase ? t.term.toLowerCase() : t.term);
      // Without remove_trailing, the last token stays even when it is a stop word.
      return !stop || (!removeTrailing && i === tokens.length - 1);
    });
}

/** A stemmer applied to the lowercase form, keeping the case of the unchanged prefix. */
function stemFilter(stem: (w: string) => string): TokenFilter {
  return (tokens) =>
    tokens.map((t) => {
      if (t.keyword) return t;
      const lower = t.term.toLowerCase();
      const stemmed = lower.length > 2 && /^[a-z]+$/.test(lower) ? stem(lower) : lower;
      let k = 0;
      while (k < stemmed.length && stemmed[k] === lower[k]) k++;
      return { ...t, term: t.term.slice(0, k) + stemmed.slice(k), keyword: false };
    });
}

/** ShingleFilter: word n-grams of min..max tokens (with the unigrams), typed `shingle`. */
function shingleFilter(s: ComponentSettings): TokenFilter {
  const min = intSetting(s, 'min_shingle_size', 2);
  const max = intSetting(s, 'max_shingle_size', 2);
  const unigrams = boolSetting(s, 'output_unigrams', true);
  const ifNone = boolSetting(s, 'output_unigrams_if_no_shingles', false);
  const sep = stringSetting(s, 'token_separator', ' ');
  const filler = stringSetting(s, 'filler_token', '_');
  if (min < 2) throw illegalArgument(`Invalid minShingleSize[${min}]: must be >= 2`);
  if (max < min) throw illegalArgument(`Invalid maxShingleSize[${max}]: must be >= minShingleSize[${min}]`);
  if (max - min > 3) {
    throw illegalArgument(
      `In Shingle TokenFilter the difference between max_shingle_size and min_shingle_size (and +1 if outputting unigrams) must be less than or equal to: [3] but was [${max - min + (unigrams ? 1 : 0)}]. This limit can be set by changing the [index.max_shingle_diff] index level setting.`,
    );
  }
  return (tokens) => {
    // One slot per position: a removed word (a stop word's gap) is the filler token.
    const first = tokens[0]?.position ?? 0;
    const last = tokens[tokens.length - 1]?.position ?? -1;
    const slots: (ChainToken | undefined)[] = [];
    for (const t of tokens) if (slots[t.position - first] === undefined) slots[t.position - first] = t;
    const out: ChainToken[] = [];
    let any = false;
    for (let p = 0; p <= last - first; p++) {
      const start = slots[p];
      if (!start) continue;
      if (unigrams) out.push(start);
      for (let n = min; n <= max && p + n - 1 <= last - first; n++) {
        const parts: string[] = [];
        for (let k = 0; k < n; k++) parts.push(slots[p + k]?.term ?? filler);
        const end = slots[p + n - 1];
        if (!end) continue;
        any = true;
        out.push({
          term: parts.join(sep),
          position: start.position,
          startOffset: start.startOffset,
          endOffset: end.endOffset,
          type: 'shingle',
          positionLength: n,
        });
      }
    }
    if (!unigrams && !any && ifNone) return tokens;
    return out;
  };
}

/** NGramTokenFilter / EdgeNGramTokenFilter: grams of each token, at the token's position. */
function gramFilter(s: ComponentSettings, edge: boolean): TokenFilter {
  const min = intSetting(s, 'min_gram', 1);
  const max = intSetting(s, 'max_gram', 2);
  const keep = boolSetting(s, 'preserve_original', false);
  if (!edge && max - min > 1) {
    throw illegalArgument(
      `The difference between max_gram and min_gram in NGram Tokenizer must be less than or equal to: [1] but was [${max - min}]. This limit can be set by changing the [index.max_ngram_diff] index level setting.`,
    );
  }
  return (tokens) =>
    tokens.flatMap((t) => {
      const chars = [...t.term];
      const out: ChainToken[] = [];
      const starts = edge ? [0] : chars.map((_, i) => i);
      for (const st of starts) {
        for (let len = min; len <= max && st + len <= chars.length; len++) {
          out.push({ ...t, term: chars.slice(st, st + len).join('') });
        }
      }
      if (keep && (chars.length < min || chars.length > max)) out.push(t);
      return out;
    });
}
