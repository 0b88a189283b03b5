/**
 * `_analyze` (Elasticsearch's TransportAnalyzeAction): the tokens an analyzer — named, or the
 * one a field of the index is analyzed with — makes of a text, or of each text of a list, with
 * positions continuing across the list (a text field's `position_increment_gap` between values)
 * and offsets counted over the texts joined by one character. A request may instead build its
 * own chain of `char_filter`s, a `tokenizer` and `filter`s (a custom normalizer without a
 * tokenizer); `explain` then shows each step's output, with the token `attributes` asked for.
 */
import { type Analyzer, buildChain, type ChainToken, type Component, getAnalyzer } from '@shoal/engine';
import { actionRequestValidation, illegalArgument, notImplemented } from '@shoal/protocol';
import type { IndexMetadata } from '../state/index-metadata.ts';
import { type IndexAnalysis, indexAnalysis } from './index-analysis.ts';

export interface AnalyzeRequest {
  analyzer?: string;
  field?: string;
  texts: string[];
  explain: boolean;
  tokenizer?: Component;
  filters: Component[];
  charFilters: Component[];
  /** The extended token attributes `explain` shows (all when absent). */
  attributes?: string[];
  normalizer?: string;
}

const KNOWN_KEYS = new Set([
  'analyzer',
  'field',
  'text',
  'explain',
  'attributes',
  'tokenizer',
  'filter',
  'char_filter',
  'normalizer',
]);

export function parseAnalyzeRequest(body: unknown, query: Record<string, string>): AnalyzeRequest {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b !== 'object' || Array.isArray(b))
    throw illegalArgument('Malformed content, must start with an object');
  for (const key of Object.keys(b)) {
    if (!KNOWN_KEYS.has(key))
      throw illegalArgument(
        `Unknown parameter [${key}] in request body or parameter is of the wrong type[${typeof b[key] === 'object' ? 'START_OBJECT' : 'VALUE_STRING'}] `,
      );
  }
  const rawText = b.text ?? query.text;
  const texts = rawText === undefined ? [] : Array.isArray(rawText) ? rawText.map(String) : [String(rawText)];
  const tokenizer = component(b.tokenizer ?? query.tokenizer, 'tokenizer');
  const filters = components(b.filter ?? query.filter, 'filter');
  const charFilters = components(b.char_filter ?? query.char_filter, 'char_filter');
  const out: AnalyzeRequest = {
    texts,
    explain: b.explain === true || query.explain === 'true',
    filters,
    charFilters,
  };
  if (tokenizer !== undefined) out.tokenizer = tokenizer;
  const analyzer = b.analyzer ?? query.analyzer;
  const field = b.field ?? query.field;
  const normalizer = b.normalizer ?? query.normalizer;
  if (normalizer !== undefined) out.normalizer = String(normalizer);
  if (analyzer !== undefined) out.analyzer = String(analyzer);
  if (field !== undefined) out.field = String(field);
  const attributes = b.attributes ?? query.attributes;
  if (attributes !== undefined) out.attributes = listOf(attributes).map((a) => a.toLowerCase());
  // AnalyzeAction.Request#validate.
  const errors: string[] = [];
  if (texts.length === 0) errors.push('text is missing');
  const custom = tokenizer !== undefined || filters.length > 0 || charFilters.length > 0;
  if (normalizer !== undefined && (tokenizer !== undefined || analyzer !== undefined))
    errors.push('tokenizer/analyze should be null if normalizer is specified');
  if (custom && analyzer !== undefined) errors.push('cannot define extra components on a named analyzer');
  if (custom && analyzer === undefined && field !== undefined)
    errors.push('cannot define extra components on a field-specific analyzer');
  if (errors.length > 0) throw actionRequestValidation(errors);
  return out;
}

function listOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  return String(v)
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x.length > 0);
}

/** A chain component: a name, or an object of settings with its `type`. */
function component(v: unknown, key: string): Component | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  throw illegalArgument(`[${key}] must be a string or an object`);
}

function components(v: unknown, key: string): Component[] {
  if (v === undefined) return [];
  if (typeof v === 'string') return listOf(v);
  const list = Array.isArray(v) ? v : [v];
  return list.map((c) => component(c, key)!);
}

/** Elasticsearch's StandardTokenizer types; the other built-in tokenizers say `word`. */
function tokenType(analyzer: string, term: string): string {
  if (analyzer !== 'standard' && analyzer !== 'default' && analyzer !== 'stop') return 'word';
  return /^\p{Nd}+$/u.test(term) ? '<NUM>' : '<ALPHANUM>';
}

function pick(
  req: AnalyzeRequest,
  index: IndexMetadata | undefined,
): { analyzer: Analyzer; name: string; gap: number } {
  if (req.analyzer !== undefined) {
    const a = getAnalyzer(req.analyzer);
    if (!a) {
      throw illegalArgument(
        index
          ? `failed to find analyzer [${req.analyzer}]`
          : `failed to find global analyzer [${req.analyzer}]`,
      );
    }
    return { analyzer: a, name: req.analyzer, gap: 0 };
  }
  if (req.field !== undefined && index) {
    const f = index.mapping.field(req.field);
    if (f?.type === 'text') {
      const name = f.analyzer ?? 'standard';
      return { analyzer: getAnalyzer(name) ?? getAnalyzer('standard')!, name, gap: 100 };
    }
    if (f) return { analyzer: getAnalyzer('keyword')!, name: 'keyword', gap: 0 };
  }
  return { analyzer: getAnalyzer('standard')!, name: 'standard', gap: 0 };
}

export function analyze(req: AnalyzeRequest, index: IndexMetadata | undefined): Record<string, unknown> {
  const analysis = indexAnalysis(index);
  if (req.normalizer !== undefined) return analyzeNormalizer(req, index, analysis);
  if (req.tokenizer !== undefined || req.filters.length > 0 || req.charFilters.length > 0)
    return analyzeChain(req, analysis);
  // An analyzer the index defines (a custom one: its tokenizer, filters and char filters).
  const defined = req.analyzer !== undefined ? analysis.analyzers.get(req.analyzer) : undefined;
  if (defined !== undefined) return analyzeDefined(req, req.analyzer!, defined, analysis);
  const { analyzer, name, gap } = pick(req, index);
  const tokens: Record<string, unknown>[] = [];
  let positionBase = 0;
  let offsetBase = 0;
  for (const [i, text] of req.texts.entries()) {
    if (i > 0) positionBase += gap;
    let last = -1;
    for (const t of analyzer.analyze(text)) {
      tokens.push({
        token: t.term,
        start_offset: offsetBase + t.startOffset,
        end_offset: offsetBase + t.endOffset,
        type: tokenType(name, t.term),
        position: positionBase + t.position,
      });
      last = t.position;
    }
    positionBase += last + 1;
    offsetBase += text.length + 1;
  }
  if (!req.explain) return { tokens };
  return {
    detail: {
      custom_analyzer: false,
      analyzer: {
        name,
        tokens: tokens.map((t) => {
          const extended: Record<string, unknown> = {
            bytes: bytesOf(String(t.token)),
            positionLength: 1,
            termFrequency: 1,
          };
          const out = { ...t };
          for (const [k, v] of Object.entries(extended)) {
            if (!req.attributes || req.attributes.includes(k.toLowerCase())) out[k] = v;
          }
          return out;
        }),
      },
    },
  };
}

function bytesOf(term: string): string {
  return `[${[...Buffer.from(term)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}]`;
}

/** A token as `_analyze` answers it; `positionLength` only when the token spans positions. */
function tokenBody(t: ChainToken): Record<string, unknown> {
  const out: Record<string, unknown> = {
    token: t.term,
    start_offset: t.startOffset,
    end_offset: t.endOffset,
    type: t.type,
    position: t.position,
  };
  if (t.positionLength > 1) out.positionLength = t.positionLength;
  return out;
}

/** An explained token: its extended attributes (sorted by name), those asked for only. */
function detailToken(t: ChainToken, attributes: string[] | undefined): Record<string, unknown> {
  const extended: Record<string, unknown> = { bytes: bytesOf(t.term) };
  if (t.keyword !== undefined) extended.keyword = t.keyword;
  extended.positionLength = t.positionLength;
  extended.termFrequency = 1;
  const out = tokenBody(t);
  for (const [k, v] of Object.entries(extended)) {
    if (!attributes || attributes.includes(k.toLowerCase())) out[k] = v;
  }
  return out;
}

function listSetting(v: unknown): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v.map(String) : listOf(v);
}

/** An analyzer of the index's settings: a custom chain (a built-in type only without parameters). */
function analyzeDefined(
  req: AnalyzeRequest,
  name: string,
  def: Record<string, unknown>,
  analysis: IndexAnalysis,
): Record<string, unknown> {
  const type =
    def.type === undefined ? (def.tokenizer !== undefined ? 'custom' : undefined) : String(def.type);
  if (type !== 'custom') {
    const builtin = type !== undefined ? getAnalyzer(type) : undefined;
    const extra = Object.keys(def).filter((k) => k !== 'type');
    if (!builtin || extra.length > 0)
      throw notImplemented(`the index analyzer [${name}] of type [${type}] in _analyze`);
    return analyze({ ...req, analyzer: type }, undefined);
  }
  if (def.tokenizer === undefined)
    throw illegalArgument(`Custom Analyzer [${name}] must be configured with a tokenizer`);
  const gap = def.position_increment_gap === undefined ? 100 : Number(def.position_increment_gap);
  return analyzeChain(
    {
      ...req,
      tokenizer: String(def.tokenizer),
      filters: listSetting(def.filter),
      charFilters: listSetting(def.char_filter),
    },
    analysis,
    gap,
  );
}

/** A normalizer: `lowercase` (built in), or one of the index's (its filters and char filters). */
function analyzeNormalizer(
  req: AnalyzeRequest,
  index: IndexMetadata | undefined,
  analysis: IndexAnalysis,
): Record<string, unknown> {
  if (!index) throw illegalArgument('analysis based on a normalizer requires an index');
  const name = req.normalizer!;
  const def = analysis.normalizers.get(name);
  if (def !== undefined) {
    return analyzeChain(
      { ...req, filters: listSetting(def.filter), charFilters: listSetting(def.char_filter) },
      analysis,
    );
  }
  if (name === 'lowercase')
    return analyzeChain({ ...req, filters: ['lowercase'], charFilters: [] }, analysis);
  throw illegalArgument(`failed to find normalizer under [${name}]`);
}

function analyzeChain(
  req: AnalyzeRequest,
  analysis: IndexAnalysis,
  positionGap = 0,
): Record<string, unknown> {
  const spec = {
    filters: req.filters,
    charFilters: req.charFilters,
    lookup: analysis.lookup,
    positionGap,
    ...(req.tokenizer ? { tokenizer: req.tokenizer } : {}),
  };
  const run = buildChain(spec).run(req.texts);
  if (!req.explain) {
    const last =
      run.tokenFilters.length > 0
        ? run.tokenFilters[run.tokenFilters.length - 1]!.tokens
        : run.tokenizer.tokens;
    return { tokens: last.map(tokenBody) };
  }
  const detail = (tokens: ChainToken[]) => tokens.map((t) => detailToken(t, req.attributes));
  return {
    detail: {
      custom_analyzer: true,
      charfilters: run.charFilters.map((c) => ({ name: c.name, filtered_text: c.filteredText })),
      tokenizer: { name: run.tokenizer.name, tokens: detail(run.tokenizer.tokens) },
      tokenfilters: run.tokenFilters.map((f) => ({ name: f.name, tokens: detail(f.tokens) })),
    },
  };
}
