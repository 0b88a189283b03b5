/**
 * An analysis chain a request builds (`_analyze` with `tokenizer`, `filter`, `char_filter`):
 * each component named (a built-in) or defined inline with its `type`, run in order over each
 * text, with every step's output kept for `explain`. Without a tokenizer it is a custom
 * normalizer: the keyword tokenizer, and only filters that work on a whole keyword.
 */
import { illegalArgument, notImplemented } from '@shoal/protocol';
import type { ChainToken, ComponentSettings } from './chain-token.ts';
import { buildCharFilter, type CharFilter, NORMALIZING_CHAR_FILTERS } from './char-filters.ts';
import { buildTokenFilter, NORMALIZING_FILTERS, type TokenFilter } from './token-filters.ts';
import { buildTokenizer, type Tokenizer } from './tokenizers.ts';

/** A component as a request gives it: a name, or settings with a `type`. */
export type Component = string | ComponentSettings;

export type ComponentKind = 'tokenizer' | 'token filter' | 'char_filter';

export interface ChainSpec {
  tokenizer?: Component;
  filters: Component[];
  charFilters: Component[];
  /** Components an index defines (`index.analysis.*`), found by name before the built-ins. */
  lookup?: (kind: ComponentKind, name: string) => ComponentSettings | undefined;
  /** Positions added between the texts of a list (a custom analyzer's position_increment_gap). */
  positionGap?: number;
}

export interface ChainRun {
  charFilters: { name: string; filteredText: string[] }[];
  tokenizer: { name: string; tokens: ChainToken[] };
  tokenFilters: { name: string; tokens: ChainToken[] }[];
}

/** Built-in components of Elasticsearch that Shoal does not run (501 rather than "unknown"). */
const ES_TOKENIZERS = new Set([
  'classic',
  'uax_url_email',
  'path_hierarchy',
  'char_group',
  'simple_pattern',
  'simple_pattern_split',
  'thai',
]);
const ES_FILTERS = new Set(
  'apostrophe arabic_normalization cjk_bigram cjk_width classic common_grams condition decimal_digit delimited_payload dictionary_decompounder elision fingerprint flatten_graph hunspell hyphenation_decompounder keyword_repeat kstem min_hash multiplexer pattern_capture pattern_replace predicate_token_filter remove_duplicates stemmer_override word_delimiter word_delimiter_graph'.split(
    ' ',
  ),
);

interface Named<T> {
  name: string;
  type: string;
  impl: T;
}

function resolve<T>(
  c: Component,
  kind: ComponentKind,
  build: (type: string, s: ComponentSettings) => T | undefined,
  known: Set<string>,
  lookup: ChainSpec['lookup'],
): Named<T> {
  const defined = typeof c === 'string' ? lookup?.(kind, c) : undefined;
  if (defined !== undefined) {
    const type = defined.type;
    if (typeof type !== 'string') throw illegalArgument(`${kind} [${c}] must have a type associated with it`);
    const impl = build(type, defined);
    if (impl !== undefined) return { name: c as string, type, impl };
    if (known.has(type)) throw notImplemented(`the [${type}] ${kind} in _analyze`);
    throw illegalArgument(`failed to find global ${kind} under [${type}]`);
  }
  const inline = typeof c === 'object' && c !== null;
  const settings: ComponentSettings = inline ? c : {};
  const type = inline ? settings.type : c;
  if (typeof type !== 'string') {
    throw illegalArgument(`Missing [type] setting for anonymous ${kind}: ${JSON.stringify(c)}`);
  }
  const name = inline ? `__anonymous__${type}` : type;
  const impl = build(type, settings);
  if (impl !== undefined) return { name, type, impl };
  if (known.has(type)) throw notImplemented(`the [${type}] ${kind} in _analyze`);
  throw illegalArgument(`failed to find global ${kind} under [${type}]`);
}

export interface Chain {
  /** Whether there is no tokenizer (a custom normalizer). */
  normalizer: boolean;
  run(texts: string[]): ChainRun;
}

export function buildChain(spec: ChainSpec): Chain {
  const normalizer = spec.tokenizer === undefined;
  const charFilters = spec.charFilters.map((c) =>
    resolve<CharFilter>(c, 'char_filter', buildCharFilter, new Set(), spec.lookup),
  );
  const tokenizer = resolve<Tokenizer>(
    spec.tokenizer ?? 'keyword',
    'tokenizer',
    buildTokenizer,
    ES_TOKENIZERS,
    spec.lookup,
  );
  if (normalizer) {
    for (const c of charFilters) {
      if (!NORMALIZING_CHAR_FILTERS.has(c.type))
        throw illegalArgument(`Custom normalizer may not use char filter [${c.name}]`);
    }
  }
  // Each filter's synonym rules (if any) are analysed by the chain before it.
  const filters: Named<TokenFilter>[] = [];
  for (const f of spec.filters) {
    const before = [...filters];
    const analyzeRule = (text: string) => {
      let t = text;
      for (const c of charFilters) t = c.impl(t).text;
      let tokens = tokenizer.impl(t);
      for (const b of before) tokens = b.impl(tokens);
      return tokens.map((x) => x.term);
    };
    if (normalizer) {
      const defined = typeof f === 'string' ? spec.lookup?.('token filter', f) : undefined;
      const type = defined ? String(defined.type) : typeof f === 'string' ? f : String(f.type);
      if (!NORMALIZING_FILTERS.has(type))
        throw illegalArgument(`Custom normalizer may not use filter [${type}]`);
    }
    filters.push(
      resolve<TokenFilter>(
        f,
        'token filter',
        (type, s) => buildTokenFilter(type, s, analyzeRule),
        ES_FILTERS,
        spec.lookup,
      ),
    );
  }
  return {
    normalizer,
    run(texts) {
      const out: ChainRun = {
        charFilters: charFilters.map((c) => ({ name: c.name, filteredText: [] })),
        tokenizer: { name: tokenizer.name, tokens: [] },
        tokenFilters: filters.map((f) => ({ name: f.name, tokens: [] })),
      };
      let offsetBase = 0;
      const positionBase = new Array<number>(filters.length + 1).fill(0);
      for (const text of texts) {
        let t = text;
        // Output offset → input offset, composed over the char filters.
        const maps: Int32Array[] = [];
        charFilters.forEach((c, i) => {
          const r = c.impl(t);
          out.charFilters[i]!.filteredText.push(r.text);
          maps.push(r.offsets);
          t = r.text;
        });
        const correct = (off: number) => {
          for (let i = maps.length - 1; i >= 0; i--) off = maps[i]![Math.min(off, maps[i]!.length - 1)]!;
          return off;
        };
        let tokens = tokenizer.impl(t).map((x) => ({
          ...x,
          startOffset: correct(x.startOffset),
          endOffset: correct(x.endOffset),
        }));
        const stages = [tokens];
        for (const f of filters) {
          tokens = f.impl(tokens);
          stages.push(tokens);
        }
        stages.forEach((stage, i) => {
          const dest = i === 0 ? out.tokenizer.tokens : out.tokenFilters[i - 1]!.tokens;
          let last = -1;
          for (const x of stage) {
            dest.push({
              ...x,
              position: positionBase[i]! + x.position,
              startOffset: offsetBase + x.startOffset,
              endOffset: offsetBase + x.endOffset,
            });
            last = Math.max(last, x.position);
          }
          positionBase[i]! += last + 1 + (spec.positionGap ?? 0);
        });
        offsetBase += text.length + 1;
      }
      return out;
    },
  };
}
