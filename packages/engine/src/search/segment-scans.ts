/**
 * Segment-level doc collection for the constant-score queries: term-dictionary scans (ranges,
 * prefixes, patterns) unioned over their postings, and doc-values scans for numbers. All return
 * sorted segment-local doc ids, deleted docs included.
 */
import type { ReaderSegment } from '../index/shard-reader.ts';
import { lowerBound } from '../index/term-order.ts';
import { parseIp } from './ip.ts';
import { unionDocs } from './matches.ts';
import { pointRange, pointSetRuns, pointsIndex, runCount, runDocs } from './points.ts';
import { termPostings } from './term-stats.ts';

const EMPTY = new Int32Array(0);

export function termDocs(rs: ReaderSegment, field: string, term: string): Int32Array {
  const p = rs.segment.field(field)?.postings;
  const s = termPostings(p, term);
  return p && s ? p.docs.subarray(s.from, s.to) : EMPTY;
}

/** Union of the postings of every term `i` in [from, to) of the dictionary with accept(term). */
export function dictionaryDocs(
  rs: ReaderSegment,
  field: string,
  bounds: (terms: readonly string[]) => [number, number],
  accept?: (term: string) => boolean,
): Int32Array {
  const p = rs.segment.field(field)?.postings;
  if (!p) return EMPTY;
  const [from, to] = bounds(p.terms);
  const slices: Int32Array[] = [];
  for (let t = from; t < to; t++) {
    if (accept && !accept(p.terms[t]!)) continue;
    slices.push(p.docs.subarray(p.starts[t]!, p.starts[t + 1]!));
  }
  return unionDocs(slices, rs.segment.maxDoc);
}

export const allTerms = (terms: readonly string[]): [number, number] => [0, terms.length];

export function termRange(lo: string | undefined, loInc: boolean, hi: string | undefined, hiInc: boolean) {
  return (terms: readonly string[]): [number, number] => [
    lo === undefined ? 0 : lowerBound(terms, lo, !loInc),
    hi === undefined ? terms.length : lowerBound(terms, hi, hiInc),
  ];
}

export function prefixRange(prefix: string) {
  return (terms: readonly string[]): [number, number] => {
    const from = lowerBound(terms, prefix);
    let to = from;
    while (to < terms.length && terms[to]!.startsWith(prefix)) to++;
    return [from, to];
  };
}

/**
 * Docs with at least one value v in the range (bounds may mix number and bigint), from the
 * field's points index (points.ts): two binary searches, then the run's docs.
 */
export function numericRangeDocs(
  rs: ReaderSegment,
  field: string,
  lo: number | bigint | undefined,
  loInc: boolean,
  hi: number | bigint | undefined,
  hiInc: boolean,
): Int32Array {
  const p = pointsIndex(rs, field);
  if (!p) return EMPTY;
  return runDocs(p, [pointRange(p, lo, loInc, hi, hiInc)]);
}

/** How many docs have a value in the range, when the points index tells without visiting them; else -1. */
export function numericRangeCount(
  rs: ReaderSegment,
  field: string,
  lo: number | bigint | undefined,
  loInc: boolean,
  hi: number | bigint | undefined,
  hiInc: boolean,
): number {
  const p = pointsIndex(rs, field);
  if (!p) return 0;
  return runCount(p, [pointRange(p, lo, loInc, hi, hiInc)]);
}

/** Docs with at least one value in `set` (values already converted to the field's kind). */
export function numericSetDocs(
  rs: ReaderSegment,
  field: string,
  set: ReadonlySet<number | bigint>,
): Int32Array {
  const p = set.size === 0 ? null : pointsIndex(rs, field);
  if (!p) return EMPTY;
  return runDocs(p, pointSetRuns(p, set));
}

/** How many docs have a value in `set`, from the points index alone; -1 when it cannot tell. */
export function numericSetCount(rs: ReaderSegment, field: string, set: ReadonlySet<number | bigint>): number {
  const p = set.size === 0 ? null : pointsIndex(rs, field);
  if (!p) return 0;
  return runCount(p, pointSetRuns(p, set));
}

/** The segment's ip terms parsed to 128-bit integers (cached on the immutable segment). */
function ipValues(rs: ReaderSegment, field: string): (bigint | undefined)[] {
  return rs.segment.cached(`ip:${field}`, () => {
    const terms = rs.segment.field(field)?.postings?.terms ?? [];
    return terms.map((t) => parseIp(t));
  });
}

export function ipRangeDocs(rs: ReaderSegment, field: string, lo: bigint, hi: bigint): Int32Array {
  const values = ipValues(rs, field);
  const p = rs.segment.field(field)?.postings;
  if (!p) return EMPTY;
  const slices: Int32Array[] = [];
  for (let t = 0; t < values.length; t++) {
    const v = values[t];
    if (v !== undefined && v >= lo && v <= hi) slices.push(p.docs.subarray(p.starts[t]!, p.starts[t + 1]!));
  }
  return unionDocs(slices, rs.segment.maxDoc);
}

/** Docs holding any of several terms (`terms` query on keyword/text). */
export function termSetDocs(rs: ReaderSegment, field: string, terms: readonly string[]): Int32Array {
  const slices: Int32Array[] = [];
  for (const t of terms) {
    const d = termDocs(rs, field, t);
    if (d.length > 0) slices.push(d);
  }
  return unionDocs(slices, rs.segment.maxDoc);
}

/** A Lucene wildcard pattern (`*`, `?`, `\` escapes) as a RegExp; also its literal prefix. */
export function wildcardRegExp(pattern: string, caseInsensitive: boolean): { re: RegExp; prefix: string } {
  let src = '';
  let prefix = '';
  let literal = true;
  const cps = [...pattern];
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    if (c === '\\' && i + 1 < cps.length) {
      const next = cps[++i]!;
      src += escapeRegExp(next);
      if (literal) prefix += next;
    } else if (c === '*') {
      src += '.*';
      literal = false;
    } else if (c === '?') {
      src += '.';
      literal = false;
    } else {
      src += escapeRegExp(c);
      if (literal) prefix += c;
    }
  }
  return {
    re: new RegExp(`^${src}$`, caseInsensitive ? 'isu' : 'su'),
    prefix: caseInsensitive ? '' : prefix,
  };
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
