/**
 * `_analyze` (Elasticsearch's TransportAnalyzeAction): the tokens an analyzer — named, or the
 * one a field of the index is analyzed with — makes of a text, or of each text of a list, with
 * positions continuing across the list (a text field's `position_increment_gap` between values)
 * and offsets counted over the texts joined by one character.
 */
import { type Analyzer, getAnalyzer } from '@shoal/engine';
import { actionRequestValidation, illegalArgument, notImplemented } from '@shoal/protocol';
import type { IndexMetadata } from '../state/index-metadata.ts';

export interface AnalyzeRequest {
  analyzer?: string;
  field?: string;
  texts: string[];
  explain: boolean;
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
  for (const chain of ['tokenizer', 'filter', 'char_filter', 'normalizer']) {
    if (b[chain] !== undefined || query[chain] !== undefined) {
      throw notImplemented(`[${chain}] in _analyze (custom analysis chains; name an analyzer or a field)`);
    }
  }
  const rawText = b.text ?? query.text;
  const texts = rawText === undefined ? [] : Array.isArray(rawText) ? rawText.map(String) : [String(rawText)];
  if (texts.length === 0) throw actionRequestValidation(['text is missing']);
  const out: AnalyzeRequest = { texts, explain: b.explain === true || query.explain === 'true' };
  const analyzer = b.analyzer ?? query.analyzer;
  const field = b.field ?? query.field;
  if (analyzer !== undefined) out.analyzer = String(analyzer);
  if (field !== undefined) out.field = String(field);
  return out;
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
        tokens: tokens.map((t) => ({
          ...t,
          bytes: bytesOf(String(t.token)),
          positionLength: 1,
          termFrequency: 1,
        })),
      },
    },
  };
}

function bytesOf(term: string): string {
  return `[${[...Buffer.from(term)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}]`;
}
