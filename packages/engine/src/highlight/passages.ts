/**
 * Passages of one field's text, as Lucene's FieldHighlighter.highlightOffsetsEnums picks them
 * and Elasticsearch's CustomPassageFormatter writes them: walking the matches in offset order,
 * a match past the current passage closes it and opens the passage its break iterator puts
 * around the match; closed passages are scored (PassageScorer, BM25-like) and the best
 * `maxPassages` are kept, then returned in document order. With no match, `no_match_size`
 * gives the field's first characters up to a word boundary (CustomFieldHighlighter).
 */
import { Boundaries, MULTIVAL_SEP, type PassageBreaks, wordBoundaries } from './breaks.ts';

/** One highlighted span: offsets in the field's text, and what matched (for scoring). */
export interface MatchSpan {
  start: number;
  end: number;
  /** The term or phrase that matched: passages score each distinct key once. */
  key: string;
  /** How often `key` occurs in the document (1 when unknown, as with weight matches). */
  freq: number;
}

export interface PassageOptions {
  maxPassages: number;
  noMatchSize: number;
  /** `number_of_fragments` as asked: 0 keeps each snippet untrimmed. */
  numberOfFragments: number;
  preTag: string;
  postTag: string;
  encoder: 'default' | 'html';
  scoreOrdered: boolean;
}

interface Passage {
  start: number;
  end: number;
  score: number;
  matches: MatchSpan[];
}

const K1 = Math.fround(1.2);
const B = Math.fround(0.75);
const PIVOT = Math.fround(87);
const f = Math.fround;

/** PassageScorer.weight, in Java float steps. */
function weight(contentLength: number, totalTermFreq: number): number {
  const numDocs = f(1 + f(contentLength / PIVOT));
  return f(f(K1 + 1) * f(Math.log(1 + (numDocs + 0.5) / (totalTermFreq + 0.5))));
}

function tf(freq: number, passageLen: number): number {
  const norm = f(K1 * f(f(1 - B) + f(B * f(passageLen / PIVOT))));
  return f(freq / f(freq + norm));
}

function norm(passageStart: number): number {
  return f(1 + f(1 / f(Math.log(PIVOT + passageStart))));
}

export function scorePassage(p: Passage, contentLength: number): number {
  const inPassage = new Map<string, number>();
  const inDoc = new Map<string, number>();
  for (const m of p.matches) {
    inPassage.set(m.key, (inPassage.get(m.key) ?? 0) + 1);
    if (!inDoc.has(m.key)) inDoc.set(m.key, m.freq);
  }
  let score = 0;
  for (const [key, freq] of inPassage) {
    score += f(tf(freq, p.end - p.start) * weight(contentLength, inDoc.get(key)!));
  }
  return f(score * norm(p.start));
}

/** The PriorityQueue of FieldHighlighter: lowest score first, then lowest start. */
function worse(a: Passage, b: Passage): boolean {
  return a.score < b.score || (a.score === b.score && a.start < b.start);
}

function selectPassages(
  content: string,
  matches: MatchSpan[],
  breaks: PassageBreaks,
  maxPassages: number,
): Passage[] {
  const contentLength = content.length;
  const queue: Passage[] = [];
  let passage: Passage = { start: -1, end: -1, score: 0, matches: [] };
  const offer = (): void => {
    if (passage.start === -1) return;
    passage.score = scorePassage(passage, contentLength);
    if (queue.length === maxPassages && queue.length > 0) {
      let min = 0;
      for (let i = 1; i < queue.length; i++) if (worse(queue[i]!, queue[min]!)) min = i;
      if (passage.score < queue[min]!.score) {
        passage = { start: -1, end: -1, score: 0, matches: [] };
        return;
      }
      queue.push(passage);
      queue.splice(min, 1);
    } else if (maxPassages > 0) queue.push(passage);
    passage = { start: -1, end: -1, score: 0, matches: [] };
  };
  for (const m of matches) {
    if (m.start < contentLength && m.end > contentLength) continue;
    if (m.start >= passage.end) {
      offer();
      if (m.start >= contentLength) break;
      passage.start = Math.max(breaks.preceding(m.start + 1), 0);
      passage.end = Math.min(breaks.following(m.start), contentLength);
    }
    passage.matches.push(m);
  }
  offer();
  return queue.sort((a, b) => a.start - b.start);
}

/** CustomFieldHighlighter.getSummaryPassagesNoHighlight: the first value's first characters. */
function noMatchPassage(content: string, noMatchSize: number): Passage | undefined {
  if (noMatchSize <= 0) return undefined;
  let pos = 0;
  while (pos < content.length && content[pos] === MULTIVAL_SEP) pos++;
  if (pos >= content.length) return undefined;
  let end = content.indexOf(MULTIVAL_SEP, pos);
  if (end === -1) end = content.length;
  if (noMatchSize + pos < end) {
    const next = new Boundaries(wordBoundaries(content)).following(noMatchSize + pos);
    end = next === -1 ? content.length : next;
  }
  return { start: pos, end, score: Number.NaN, matches: [] };
}

/** Lucene's DefaultEncoder and SimpleHTMLEncoder. */
function encode(s: string, encoder: 'default' | 'html'): string {
  if (encoder === 'default') return s;
  return s.replace(/[&<>"'/]/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case "'":
        return '&#x27;';
      default:
        return '&#x2F;';
    }
  });
}

/** Java's String.trim: every char up to U+0020 at either end. */
function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
  return s.slice(a, b);
}

/** CustomPassageFormatter.format for one passage. */
function formatPassage(p: Passage, content: string, o: PassageOptions): string {
  let sb = '';
  let pos = p.start;
  const ms = p.matches;
  for (let i = 0; i < ms.length; i++) {
    const start = ms[i]!.start;
    sb += encode(content.slice(pos, start), o.encoder);
    let end = ms[i]!.end;
    // Overlapping matches become one highlighted span.
    while (i + 1 < ms.length && ms[i + 1]!.start < end) end = Math.max(ms[++i]!.end, end);
    end = Math.min(end, p.end);
    sb += o.preTag + encode(content.slice(start, end), o.encoder) + o.postTag;
    pos = end;
  }
  sb += encode(content.slice(pos, Math.max(pos, p.end)), o.encoder);
  const last = sb[sb.length - 1];
  if (last === '\u2029' || last === MULTIVAL_SEP) sb = sb.slice(0, -1);
  return o.numberOfFragments === 0 ? sb : javaTrim(sb);
}

/** Strings.hasText: some character that is not whitespace. */
function hasText(s: string): boolean {
  return /\S/.test(s);
}

/**
 * The fragments of one field (DefaultHighlighter.highlight): `matches` sorted by start, then
 * end. Empty when nothing is to be shown.
 */
export function highlightPassages(
  content: string,
  matches: MatchSpan[],
  breaks: PassageBreaks,
  o: PassageOptions,
): string[] {
  if (content.length === 0) return [];
  let passages = matches.length > 0 ? selectPassages(content, matches, breaks, o.maxPassages) : [];
  if (passages.length === 0) {
    const p = noMatchPassage(content, o.noMatchSize);
    passages = p ? [p] : [];
  }
  const snippets = passages
    .map((p) => ({ text: formatPassage(p, content, o), score: p.score }))
    .filter((s) => hasText(s.text));
  if (o.scoreOrdered) snippets.sort((a, b) => b.score - a.score);
  return snippets.map((s) => s.text);
}
