/**
 * Where the unified highlighter may cut a field's text into passages, as Java's BreakIterators
 * for Locale.ROOT place their boundaries, and the three iterators Elasticsearch's unified
 * highlighter uses: BoundedBreakIteratorScanner (the default `sentence` scanner bounded by
 * `fragment_size`), a plain word iterator (`boundary_scanner: word`) and Lucene's
 * CustomSeparatorBreakIterator on the multi-value separator (`number_of_fragments: 0` and
 * untokenized fields). FieldHighlighter only ever calls `preceding(start + 1)` and then
 * `following(start)` for each new passage, with increasing offsets.
 */

/** Lucene's CustomUnifiedHighlighter.MULTIVAL_SEP_CHAR: joins the values of a field. */
export const MULTIVAL_SEP = '\u0000';

export interface PassageBreaks {
  preceding(offset: number): number;
  following(offset: number): number;
}

const CLOSERS = new Set(['"', "'", ')', ']', '}', '\u00bb', '\u2019', '\u201d']);
const TERMINATORS = new Set([
  '.',
  '?',
  '!',
  '\u3002',
  '\uff01',
  '\uff1f',
  '\u203c',
  '\u2047',
  '\u2048',
  '\u2049',
]);
const PARAGRAPH = new Set(['\n', '\r', '\u0085', '\u2028', '\u2029', MULTIVAL_SEP]);

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\f' || c === '\u000b' || c === '\u00a0' || /\s/.test(c);
}

function isLower(c: string): boolean {
  return c !== c.toUpperCase() && c === c.toLowerCase();
}

function isWordChar(c: string): boolean {
  return /[\p{L}\p{N}\p{M}_]/u.test(c);
}

/**
 * Sentence boundaries (0 and the text's length included): after a run of terminators and
 * closing punctuation followed by spaces, unless a full stop is followed by a lowercase
 * letter (an abbreviation), and after each paragraph separator (or value separator).
 */
export function sentenceBoundaries(text: string): number[] {
  const out = [0];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    if (PARAGRAPH.has(c)) {
      i++;
      if (c === '\r' && text[i] === '\n') i++;
      if (i < n && out[out.length - 1] !== i) out.push(i);
      continue;
    }
    if (!TERMINATORS.has(c)) {
      i++;
      continue;
    }
    let onlyPeriods = true;
    let j = i;
    while (j < n && (TERMINATORS.has(text[j]!) || CLOSERS.has(text[j]!))) {
      if (TERMINATORS.has(text[j]!) && text[j] !== '.') onlyPeriods = false;
      j++;
    }
    let k = j;
    while (k < n && !PARAGRAPH.has(text[k]!) && isSpace(text[k]!)) k++;
    if (k === n) break;
    if (PARAGRAPH.has(text[k]!)) {
      i = k;
      continue;
    }
    if (k > j && !(onlyPeriods && (isLower(text[k]!) || /\d/.test(text[k]!)))) out.push(k);
    i = k;
  }
  if (out[out.length - 1] !== n) out.push(n);
  return out;
}

/**
 * Word boundaries: around each run of letters and digits (an apostrophe or a full stop between
 * two of them stays inside), each run of spaces, and each other character.
 */
export function wordBoundaries(text: string): number[] {
  const out = [0];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i]!;
    let j = i + 1;
    if (isWordChar(c)) {
      while (j < n) {
        const d = text[j]!;
        if (isWordChar(d)) j++;
        else if ((d === "'" || d === '.' || d === '\u2019') && j + 1 < n && isWordChar(text[j + 1]!)) j += 2;
        else break;
      }
    } else if (isSpace(c) && !PARAGRAPH.has(c)) {
      while (j < n && isSpace(text[j]!) && !PARAGRAPH.has(text[j]!)) j++;
    }
    out.push(j);
    i = j;
  }
  if (out.length === 1) out.push(0);
  return out;
}

/** BreakIterator.preceding / following over sorted boundaries (-1 for DONE). */
export class Boundaries {
  constructor(readonly at: number[]) {}

  /** The last boundary before `offset`. */
  preceding(offset: number): number {
    let lo = 0;
    let hi = this.at.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid]! < offset) {
        found = this.at[mid]!;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** The first boundary after `offset`. */
  following(offset: number): number {
    let lo = 0;
    let hi = this.at.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid]! > offset) {
        found = this.at[mid]!;
        hi = mid - 1;
      } else lo = mid + 1;
    }
    return found;
  }
}

/** Elasticsearch's BoundedBreakIteratorScanner: sentences, re-split on words past `maxLen`. */
export class BoundedSentenceBreaks implements PassageBreaks {
  private windowStart = -1;
  private windowEnd = -1;
  private innerStart = -1;
  private innerEnd = 0;
  private readonly main: Boundaries;
  private readonly inner: Boundaries;

  constructor(
    private readonly textLength: number,
    text: string,
    private readonly maxLen: number,
  ) {
    this.main = new Boundaries(sentenceBoundaries(text));
    this.inner = new Boundaries(wordBoundaries(text));
  }

  preceding(offset: number): number {
    const { main, inner, maxLen } = this;
    if (offset > this.windowStart && offset < this.windowEnd) {
      this.innerStart = this.innerEnd;
      this.innerEnd = this.windowEnd;
    } else {
      this.innerStart = Math.max(main.preceding(offset), 0);
      const targetEnd = offset + Math.max(0, maxLen - (offset - this.innerStart));
      if (targetEnd + 1 > this.textLength) this.innerEnd = this.textLength;
      else this.innerEnd = main.preceding(targetEnd + 1);
      // No break up to maxLen: take the first one after it.
      if (this.innerStart === this.innerEnd) {
        const next = main.following(targetEnd);
        this.innerEnd = next === -1 ? this.textLength : next;
      }
      this.windowStart = this.innerStart;
      this.windowEnd = this.innerEnd;
    }
    if (this.innerEnd - this.innerStart > maxLen) {
      // Too long: cut on words, first to the left of the match, then to its right.
      if (offset - maxLen > this.innerStart) {
        this.innerStart = Math.max(this.innerStart, inner.preceding(offset - maxLen));
      }
      const remaining = Math.max(0, maxLen - (offset - this.innerStart));
      if (offset + remaining < this.windowEnd) {
        this.innerEnd = Math.min(this.windowEnd, inner.following(offset + remaining));
      }
    }
    return this.innerStart;
  }

  following(_offset: number): number {
    return this.innerEnd;
  }
}

/** A plain Java BreakIterator over boundaries (sentence without `fragment_size`, or word). */
export class PlainBreaks implements PassageBreaks {
  constructor(
    private readonly b: Boundaries,
    private readonly textLength: number,
  ) {}
  preceding(offset: number): number {
    return this.b.preceding(offset);
  }
  following(offset: number): number {
    const f = this.b.following(offset);
    return f === -1 ? this.textLength : f;
  }
}

/** Lucene's CustomSeparatorBreakIterator: a passage is one value, its separator included. */
export class SeparatorBreaks implements PassageBreaks {
  constructor(private readonly text: string) {}
  preceding(offset: number): number {
    const at = this.text.lastIndexOf(MULTIVAL_SEP, offset - 1);
    return at === -1 ? 0 : at + 1;
  }
  following(offset: number): number {
    const at = this.text.indexOf(MULTIVAL_SEP, offset + 1);
    return at === -1 ? this.text.length : at + 1;
  }
}
