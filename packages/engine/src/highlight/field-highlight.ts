/**
 * One field of one hit, highlighted as Elasticsearch's DefaultHighlighter (the unified
 * highlighter) does without indexed offsets (OffsetSource.ANALYSIS): the field's `_source`
 * values are joined with MULTIVAL_SEP, analysed again with the field's index analyzer (each
 * value's offsets shifted past the separator, Lucene's offset gap of 1), the query's matches
 * found among the tokens, and passages cut by the break iterator the options select.
 */
import { illegalArgument, type ResolvedHighlightOptions } from '@shoal/protocol';
import { getAnalyzer } from '../analysis/index.ts';
import type { ResolvedField } from '../contract.ts';
import {
  Boundaries,
  BoundedSentenceBreaks,
  MULTIVAL_SEP,
  type PassageBreaks,
  PlainBreaks,
  SeparatorBreaks,
  sentenceBoundaries,
  wordBoundaries,
} from './breaks.ts';
import { highlightPassages, type MatchSpan } from './passages.ts';
import type { HighlightClause } from './query-terms.ts';

interface Tok {
  term: string;
  position: number;
  start: number;
  end: number;
}

export interface FieldContext {
  field: ResolvedField;
  options: ResolvedHighlightOptions;
  /** The clauses this field may match (already filtered by require_field_match). */
  clauses: HighlightClause[];
  /** Weight matches: a phrase is one span (Elasticsearch 8 with require_field_match). */
  weightMatches: boolean;
  /** index.highlight.max_analyzed_offset */
  indexMaxAnalyzedOffset: number;
  index: string;
}

function isTokenized(f: ResolvedField): boolean {
  return f.type === 'text';
}

/** Each value's tokens, offsets in the joined content. */
function tokensOf(f: ResolvedField, values: string[], limit: number | undefined): Tok[][] {
  const out: Tok[][] = [];
  let base = 0;
  const analyzer = isTokenized(f) ? getAnalyzer(f.analyzer ?? 'default') : undefined;
  for (const v of values) {
    let toks: Tok[];
    if (analyzer) {
      toks = analyzer.analyze(v).map((t) => ({
        term: t.term,
        position: t.position,
        start: t.startOffset + base,
        end: t.endOffset + base,
      }));
    } else {
      const lower = (f as { normalizer?: string }).normalizer === 'lowercase';
      toks = [{ term: lower ? v.toLowerCase() : v, position: 0, start: base, end: base + v.length }];
    }
    // LimitTokenOffsetAnalyzer: tokens starting past `max_analyzed_offset` are not analysed.
    if (limit !== undefined) toks = toks.filter((t) => t.start <= limit);
    out.push(toks);
    base += v.length + 1;
  }
  return out;
}

function phraseSpans(
  c: Extract<HighlightClause, { kind: 'phrase' }>,
  tokens: Tok[],
): { first: Tok; parts: Tok[] }[] {
  const byPos = new Map<number, Tok[]>();
  for (const t of tokens) {
    const list = byPos.get(t.position);
    if (list) list.push(t);
    else byPos.set(t.position, [t]);
  }
  const last = c.positions.length - 1;
  const found: { first: Tok; parts: Tok[] }[] = [];
  for (const t of tokens) {
    if (!c.positions[0]!.terms.includes(t.term) && !(last === 0 && c.lastIsPrefix)) continue;
    const parts: Tok[] = [];
    let ok = true;
    for (let i = 0; i <= last && ok; i++) {
      const p = c.positions[i]!;
      const at = byPos.get(t.position + p.offset) ?? [];
      const hit = at.find((x) =>
        i === last && c.lastIsPrefix ? p.terms.some((pt) => x.term.startsWith(pt)) : p.terms.includes(x.term),
      );
      if (hit) parts.push(hit);
      else ok = false;
    }
    if (ok) found.push({ first: t, parts });
  }
  return found;
}

function matchSpans(ctx: FieldContext, values: Tok[][]): MatchSpan[] {
  const spans: MatchSpan[] = [];
  for (const tokens of values) {
    for (const c of ctx.clauses) {
      if (c.kind === 'term') {
        for (const t of tokens)
          if (t.term === c.term) spans.push({ start: t.start, end: t.end, key: t.term, freq: 1 });
      } else if (c.kind === 'multi') {
        for (const t of tokens)
          if (c.test(t.term)) spans.push({ start: t.start, end: t.end, key: t.term, freq: 1 });
      } else {
        for (const { parts } of phraseSpans(c, tokens)) {
          if (ctx.weightMatches) {
            const start = Math.min(...parts.map((p) => p.start));
            const end = Math.max(...parts.map((p) => p.end));
            spans.push({ start, end, key: c.key, freq: 1 });
          } else for (const p of parts) spans.push({ start: p.start, end: p.end, key: p.term, freq: 1 });
        }
      }
    }
  }
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  // One span per offsets: several clauses matching the same token mark it once.
  const unique: MatchSpan[] = [];
  for (const s of spans) {
    const prev = unique[unique.length - 1];
    if (prev && prev.start === s.start && prev.end === s.end) continue;
    unique.push(s);
  }
  if (!ctx.weightMatches) {
    // Postings offsets carry each term's frequency in the document.
    const freq = new Map<string, number>();
    for (const s of unique) freq.set(s.key, (freq.get(s.key) ?? 0) + 1);
    for (const s of unique) s.freq = freq.get(s.key)!;
  }
  return unique;
}

function breaksFor(ctx: FieldContext, content: string): { breaks: PassageBreaks; maxPassages: number } {
  const o = ctx.options;
  if (o.numberOfFragments === 0 || !isTokenized(ctx.field)) {
    return {
      breaks: new SeparatorBreaks(content),
      maxPassages: o.numberOfFragments === 0 ? 2147483646 : o.numberOfFragments,
    };
  }
  if (o.boundaryScanner === 'word') {
    return {
      breaks: new PlainBreaks(new Boundaries(wordBoundaries(content)), content.length),
      maxPassages: o.numberOfFragments,
    };
  }
  if (o.fragmentSize > 0) {
    return {
      breaks: new BoundedSentenceBreaks(content.length, content, o.fragmentSize),
      maxPassages: o.numberOfFragments,
    };
  }
  return {
    breaks: new PlainBreaks(new Boundaries(sentenceBoundaries(content)), content.length),
    maxPassages: o.numberOfFragments,
  };
}

/** The fragments of one field of one hit; empty when there is nothing to show. */
export function highlightField(ctx: FieldContext, rawValues: string[], doc: number): string[] {
  const f = ctx.field;
  let values = rawValues;
  // Keyword values longer than ignore_above were never indexed: nothing of them can match.
  if (f.type === 'keyword' && f.ignoreAbove !== undefined)
    values = values.filter((v) => v.length <= f.ignoreAbove!);
  if (values.length === 0) return [];
  const content = values.join(MULTIVAL_SEP);
  const o = ctx.options;
  if (ctx.clauses.length === 0 && o.noMatchSize === 0) return [];
  const limit = ctx.indexMaxAnalyzedOffset;
  const queryLimit = o.maxAnalyzedOffset;
  if ((queryLimit === undefined || queryLimit > limit) && content.length > limit) {
    throw illegalArgument(
      `The length [${content.length}] of field [${f.path}] in doc[${doc}]/index[${ctx.index}] exceeds the [index.highlight.max_analyzed_offset] limit [${limit}]. To avoid this error, set the query parameter [max_analyzed_offset] to a value less than index setting [${limit}] and this will tolerate long field values by truncating them.`,
    );
  }
  const spans = ctx.clauses.length > 0 ? matchSpans(ctx, tokensOf(f, values, queryLimit)) : [];
  const { breaks, maxPassages } = breaksFor(ctx, content);
  return highlightPassages(content, spans, breaks, {
    maxPassages,
    noMatchSize: o.noMatchSize,
    numberOfFragments: o.numberOfFragments,
    preTag: o.preTag,
    postTag: o.postTag,
    encoder: o.encoder,
    scoreOrdered: o.scoreOrdered,
  });
}
