/**
 * Lucene's interval algebra (org.apache.lucene.queries.intervals) over one segment: a source
 * gives the docs that may hold its intervals and, for one doc, an iterator over its minimal
 * intervals in Lucene's order. The combining iterators (disjunction, ordered, unordered,
 * block) follow Lucene's algorithms step by step, since which intervals they return (and so
 * the scores) depends on their minimisation; the filters are set tests against the reference
 * source's intervals in the same doc.
 */
import type { Postings, Segment } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { intersect, union } from './matches.ts';
import { termPostings } from './term-stats.ts';

export const NO_MORE = 0x7fffffff;
const EMPTY = new Int32Array(0);

export interface IntervalIterator {
  start: number;
  end: number;
  gaps(): number;
  /** Moves to the next interval; returns its start, or NO_MORE. */
  next(): number;
}

export interface IntervalSource {
  /** The narrowest interval the source can produce (IntervalsSource.minExtent). */
  readonly minExtent: number;
  /** The segment's docs that may hold intervals, ascending. */
  docs(rs: ReaderSegment): Int32Array;
  iterator(rs: ReaderSegment, doc: number): IntervalIterator;
  /** IntervalsSource.pullUpDisjunctions: the alternatives this source is a disjunction of. */
  pullUp(): IntervalSource[];
}

function width(it: IntervalIterator): number {
  return it.end - it.start + 1;
}

/** Intervals of single positions (a term, or the terms a pattern expands to). */
/** Sets an iterator's interval to NO_MORE and returns it. */
abstract class Positioned {
  start = -1;
  end = -1;
  protected exhaust(): number {
    this.start = NO_MORE;
    this.end = NO_MORE;
    return NO_MORE;
  }
}

class PositionsIterator extends Positioned implements IntervalIterator {
  private i = -1;
  constructor(private readonly positions: Int32Array) {
    super();
  }
  gaps(): number {
    return 0;
  }
  next(): number {
    const i = ++this.i;
    if (i >= this.positions.length) return this.exhaust();
    this.start = this.end = this.positions[i]!;
    return this.start;
  }
}

function positionsOf(p: Postings, from: number, to: number, doc: number): Int32Array | null {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (p.docs[mid]! < doc) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= to || p.docs[lo] !== doc) return null;
  return p.positions!.subarray(p.positionStarts![lo]!, p.positionStarts![lo + 1]!);
}

/** The postings of `field` with positions; throws Lucene's error when positions were not indexed. */
function positionalPostings(rs: ReaderSegment, field: string): Postings | undefined {
  const p = rs.segment.field(field)?.postings;
  if (p && (!p.positions || !p.positionStarts)) {
    throw new Error(
      `Cannot create an IntervalIterator over field ${field} because it has no indexed positions`,
    );
  }
  return p;
}

/** Intervals.term, or a multi-term source (prefix, wildcard, fuzzy, regexp, range) once expanded. */
export class TermsSource implements IntervalSource {
  readonly minExtent = 1;
  constructor(
    readonly field: string,
    /** The terms of the segment's dictionary to match (one for a term source). */
    private readonly expand: (p: Postings) => string[],
    readonly key: string,
  ) {}
  /** Per segment, the expanded terms' postings ranges (a pattern is expanded once). */
  private readonly bySegment = new Map<Segment, { p: Postings; ranges: [number, number][] } | null>();
  private slices(rs: ReaderSegment): { p: Postings; ranges: [number, number][] } | null {
    let s = this.bySegment.get(rs.segment);
    if (s === undefined) {
      s = this.expandIn(rs);
      this.bySegment.set(rs.segment, s);
    }
    return s;
  }
  private expandIn(rs: ReaderSegment): { p: Postings; ranges: [number, number][] } | null {
    const p = positionalPostings(rs, this.field);
    if (!p) return null;
    const ranges: [number, number][] = [];
    for (const t of this.expand(p)) {
      const s = termPostings(p, t);
      if (s) ranges.push([s.from, s.to]);
    }
    return { p, ranges };
  }
  docs(rs: ReaderSegment): Int32Array {
    const s = this.slices(rs);
    if (!s || s.ranges.length === 0) return EMPTY;
    if (s.ranges.length === 1) return s.p.docs.subarray(s.ranges[0]![0], s.ranges[0]![1]);
    return union(
      s.ranges.map(([a, b]) => ({ kind: 'docs' as const, docs: s.p.docs.subarray(a, b), scores: null })),
      rs.segment.maxDoc,
      false,
      false,
    ).docs;
  }
  iterator(rs: ReaderSegment, doc: number): IntervalIterator {
    const s = this.slices(rs);
    if (!s) return new PositionsIterator(EMPTY);
    const found: Int32Array[] = [];
    for (const [a, b] of s.ranges) {
      const pos = positionsOf(s.p, a, b, doc);
      if (pos) found.push(pos);
    }
    if (found.length <= 1) return new PositionsIterator(found[0] ?? EMPTY);
    const merged = [...new Set(found.flatMap((x) => [...x]))].sort((x, y) => x - y);
    return new PositionsIterator(Int32Array.from(merged));
  }
  pullUp(): IntervalSource[] {
    return [this];
  }
}

/** A source with no intervals (an analysed text without tokens). */
export const NO_INTERVALS: IntervalSource = {
  minExtent: 0,
  docs: () => EMPTY,
  iterator: () => new PositionsIterator(EMPTY),
  pullUp() {
    return [this];
  },
};

function unionDocs(sources: IntervalSource[], rs: ReaderSegment): Int32Array {
  const parts = sources.map((s) => ({ kind: 'docs' as const, docs: s.docs(rs), scores: null }));
  if (parts.length === 1) return parts[0]!.docs;
  return union(parts, rs.segment.maxDoc, false, false).docs;
}

function intersectDocs(sources: IntervalSource[], rs: ReaderSegment): Int32Array {
  let out = sources[0]!.docs(rs);
  for (let i = 1; i < sources.length && out.length > 0; i++) {
    const m = intersect(
      { kind: 'docs', docs: out, scores: null },
      { kind: 'docs', docs: sources[i]!.docs(rs), scores: null },
      false,
    );
    out = m.kind === 'docs' ? m.docs : out;
  }
  return out;
}

/** Intervals.or: the sub-sources' intervals by end, dropping those that contain the last one. */
export class DisjunctionSource implements IntervalSource {
  readonly minExtent: number;
  constructor(
    readonly subs: IntervalSource[],
    private readonly pullUpSubs = true,
  ) {
    this.minExtent = Math.min(...subs.map((s) => s.minExtent));
  }
  docs(rs: ReaderSegment): Int32Array {
    return unionDocs(this.subs, rs);
  }
  iterator(rs: ReaderSegment, doc: number): IntervalIterator {
    return new DisjunctionIterator(this.subs.map((s) => s.iterator(rs, doc)));
  }
  pullUp(): IntervalSource[] {
    return this.pullUpSubs ? this.subs : [this];
  }
}

export function or(sources: IntervalSource[]): IntervalSource {
  return sources.length === 1 ? sources[0]! : new DisjunctionSource(sources);
}

class DisjunctionIterator implements IntervalIterator {
  private queue: IntervalIterator[] = [];
  private current: IntervalIterator | null = null;
  private started = false;
  constructor(subs: IntervalIterator[]) {
    for (const it of subs) {
      it.next();
      this.queue.push(it);
    }
  }
  get start(): number {
    return this.current ? this.current.start : this.started ? NO_MORE : -1;
  }
  get end(): number {
    return this.current ? this.current.end : this.started ? NO_MORE : -1;
  }
  gaps(): number {
    return this.current ? this.current.gaps() : 0;
  }
  /** The queue's least: by end, then the narrower (larger start) first. */
  private top(): IntervalIterator | undefined {
    let best: IntervalIterator | undefined;
    for (const it of this.queue) {
      if (!best || it.end < best.end || (it.end === best.end && it.start >= best.start)) best = it;
    }
    return best;
  }
  next(): number {
    if (!this.started) {
      this.started = true;
      const t = this.top();
      this.current = t && t.start !== NO_MORE ? t : null;
      return this.start;
    }
    if (!this.current) return NO_MORE;
    const { start, end } = this.current;
    for (;;) {
      const t = this.top();
      if (!t || !(start >= t.start && start <= t.end && end >= t.start && end <= t.end)) break;
      this.queue.splice(this.queue.indexOf(t), 1);
      if (t.next() !== NO_MORE) this.queue.push(t);
    }
    const t = this.top();
    this.current = t && t.start !== NO_MORE ? t : null;
    return this.start;
  }
}

/** Ordered, unordered and block sources: a conjunction of sub-sources. */
abstract class ConjunctionSource implements IntervalSource {
  readonly minExtent: number;
  constructor(readonly subs: IntervalSource[]) {
    this.minExtent = subs.reduce((a, s) => a + s.minExtent, 0);
  }
  docs(rs: ReaderSegment): Int32Array {
    return intersectDocs(this.subs, rs);
  }
  abstract iterator(rs: ReaderSegment, doc: number): IntervalIterator;
  abstract rebuild(subs: IntervalSource[]): IntervalSource;
  /** Disjunctions.pullUp: one source per combination of the sub-sources' alternatives. */
  pullUp(): IntervalSource[] {
    let combos: IntervalSource[][] = [[]];
    for (const s of this.subs) {
      const alts = s.pullUp();
      if (combos.length * alts.length > 1024) throw new Error('Too many disjunctions to expand');
      combos = combos.flatMap((c) => alts.map((a) => [...c, a]));
    }
    return combos.map((c) => this.rebuild(c));
  }
}

export class OrderedSource extends ConjunctionSource {
  iterator(rs: ReaderSegment, doc: number): IntervalIterator {
    return new OrderedIterator(this.subs.map((s) => s.iterator(rs, doc)));
  }
  rebuild(subs: IntervalSource[]): IntervalSource {
    return new OrderedSource(subs);
  }
}

class OrderedIterator implements IntervalIterator {
  start = -1;
  end = -1;
  private slop = -1;
  constructor(private readonly subs: IntervalIterator[]) {
    subs[0]!.next();
  }
  gaps(): number {
    return this.slop;
  }
  next(): number {
    const subs = this.subs;
    this.start = this.end = this.slop = NO_MORE;
    let lastStart = NO_MORE;
    let minimizing = false;
    let i = 1;
    for (;;) {
      for (;;) {
        if (subs[i - 1]!.end >= lastStart) return this.start;
        if (i === subs.length || (minimizing && subs[i]!.start > subs[i - 1]!.end)) break;
        do {
          if (subs[i]!.end >= lastStart || subs[i]!.next() === NO_MORE) return this.start;
        } while (subs[i]!.start <= subs[i - 1]!.end);
        i++;
      }
      this.start = subs[0]!.start;
      if (this.start === NO_MORE) {
        this.end = NO_MORE;
        return NO_MORE;
      }
      this.end = subs[subs.length - 1]!.end;
      let slop = this.end - this.start + 1;
      for (const s of subs) slop -= width(s);
      this.slop = slop;
      lastStart = subs[subs.length - 1]!.start;
      i = 1;
      if (subs[0]!.next() === NO_MORE) return this.start;
      minimizing = true;
    }
  }
}

export class UnorderedSource extends ConjunctionSource {
  iterator(rs: ReaderSegment, doc: number): IntervalIterator {
    return new UnorderedIterator(this.subs.map((s) => s.iterator(rs, doc)));
  }
  rebuild(subs: IntervalSource[]): IntervalSource {
    return new UnorderedSource(subs);
  }
}

class UnorderedIterator extends Positioned implements IntervalIterator {
  private slop = 0;
  private queueEnd = -1;
  private queue: IntervalIterator[] = [];
  constructor(private readonly subs: IntervalIterator[]) {
    super();
    for (const it of subs) {
      if (it.next() === NO_MORE) break;
      this.queue.push(it);
      this.updateRight(it);
    }
  }
  gaps(): number {
    return this.slop;
  }
  private updateRight(it: IntervalIterator): void {
    if (it.end > this.queueEnd) this.queueEnd = it.end;
  }
  /** The queue's least: by start, then the wider first. */
  private top(): IntervalIterator {
    let best = this.queue[0]!;
    for (const it of this.queue) {
      if (it.start < best.start || (it.start === best.start && it.end > best.end)) best = it;
    }
    return best;
  }
  private pop(): IntervalIterator {
    const t = this.top();
    this.queue.splice(this.queue.indexOf(t), 1);
    return t;
  }
  next(): number {
    const n = this.subs.length;
    while (this.queue.length === n && this.top().start === this.start) {
      const it = this.pop();
      if (it.next() !== NO_MORE) {
        this.queue.push(it);
        this.updateRight(it);
      }
    }
    if (this.queue.length < n) return this.exhaust();
    do {
      this.start = this.top().start;
      this.end = this.queueEnd;
      let slop = this.end - this.start + 1;
      for (const it of this.subs) slop -= width(it);
      this.slop = slop;
      if (this.top().end === this.end) return this.start;
      const it = this.pop();
      if (it.next() !== NO_MORE) {
        this.queue.push(it);
        this.updateRight(it);
      }
    } while (this.queue.length === n && this.end === this.queueEnd);
    return this.start;
  }
}

/** Intervals.phrase: each sub-interval starting right after the previous one ends. */
export class BlockSource extends ConjunctionSource {
  iterator(rs: ReaderSegment, doc: number): IntervalIterator {
    return new BlockIterator(this.subs.map((s) => s.iterator(rs, doc)));
  }
  rebuild(subs: IntervalSource[]): IntervalSource {
    return new BlockSource(subs);
  }
}

class BlockIterator extends Positioned implements IntervalIterator {
  constructor(private readonly subs: IntervalIterator[]) {
    super();
  }
  gaps(): number {
    return 0;
  }
  next(): number {
    const subs = this.subs;
    if (subs[0]!.next() === NO_MORE) return this.exhaust();
    let i = 1;
    while (i < subs.length) {
      while (subs[i]!.start <= subs[i - 1]!.end) {
        if (subs[i]!.next() === NO_MORE) return this.exhaust();
      }
      if (subs[i]!.start === subs[i - 1]!.end + 1) i++;
      else {
        if (subs[0]!.next() === NO_MORE) return this.exhaust();
        i = 1;
      }
    }
    this.start = subs[0]!.start;
    this.end = subs[subs.length - 1]!.end;
    return this.start;
  }
}

/** Intervals.phrase, with its disjunctions pulled up (BlockIntervalsSource.build). */
export function block(subs: IntervalSource[]): IntervalSource {
  if (subs.length === 1) return subs[0]!;
  return or(new BlockSource(subs).pullUp());
}

/** Intervals.maxgaps: the intervals with at most `max` gaps, disjunctions pulled up first. */
export function maxGaps(source: IntervalSource, max: number): IntervalSource {
  return or(source.pullUp().map((s) => new MaxGapsSource(s, max)));
}

class MaxGapsSource implements IntervalSource {
  readonly minExtent: number;
  constructor(
    private readonly inner: IntervalSource,
    private readonly max: number,
  ) {
    this.minExtent = inner.minExtent;
  }
  docs(rs: ReaderSegment): Int32Array {
    return this.inner.docs(rs);
  }
  iterator(rs: ReaderSegment, doc: number): IntervalIterator {
    const inner = this.inner.iterator(rs, doc);
    const max = this.max;
    return {
      get start() {
        return inner.start;
      },
      get end() {
        return inner.end;
      },
      gaps: () => inner.gaps(),
      next(): number {
        while (inner.next() !== NO_MORE) if (inner.gaps() <= max) return inner.start;
        return NO_MORE;
      },
    };
  }
  pullUp(): IntervalSource[] {
    return [this];
  }
}

export type FilterTest = (a: [number, number], refs: [number, number][]) => boolean;

/** The relations of the interval filters, as a test of a minuend interval against the reference's. */
export const FILTER_TESTS: Record<string, { test: FilterTest; keep: boolean; needsRef: boolean }> = {
  containing: { test: (a, rs) => rs.some((b) => a[0] <= b[0] && b[1] <= a[1]), keep: true, needsRef: true },
  not_containing: {
    test: (a, rs) => rs.some((b) => a[0] <= b[0] && b[1] <= a[1]),
    keep: false,
    needsRef: false,
  },
  contained_by: { test: (a, rs) => rs.some((b) => b[0] <= a[0] && a[1] <= b[1]), keep: true, needsRef: true },
  not_contained_by: {
    test: (a, rs) => rs.some((b) => b[0] <= a[0] && a[1] <= b[1]),
    keep: false,
    needsRef: false,
  },
  overlapping: { test: (a, rs) => rs.some((b) => b[0] <= a[1] && a[0] <= b[1]), keep: true, needsRef: true },
  not_overlapping: {
    test: (a, rs) => rs.some((b) => b[0] <= a[1] && a[0] <= b[1]),
    keep: false,
    needsRef: false,
  },
  before: { test: (a, rs) => rs.some((b) => a[1] < b[0]), keep: true, needsRef: true },
  after: { test: (a, rs) => rs.some((b) => a[0] > b[1]), keep: true, needsRef: true },
};

/** The minuend's intervals that stand (or, for the `not_` filters, do not) in the relation to the reference's. */
export class FilteredSource implements IntervalSource {
  readonly minExtent: number;
  constructor(
    private readonly source: IntervalSource,
    private readonly reference: IntervalSource,
    private readonly kind: string,
  ) {
    this.minExtent = source.minExtent;
  }
  docs(rs: ReaderSegment): Int32Array {
    return FILTER_TESTS[this.kind]!.needsRef
      ? intersectDocs([this.source, this.reference], rs)
      : this.source.docs(rs);
  }
  iterator(rs: ReaderSegment, doc: number): IntervalIterator {
    const refs: [number, number][] = [];
    const r = this.reference.iterator(rs, doc);
    while (r.next() !== NO_MORE) refs.push([r.start, r.end]);
    const { test, keep } = FILTER_TESTS[this.kind]!;
    const inner = this.source.iterator(rs, doc);
    return {
      get start() {
        return inner.start;
      },
      get end() {
        return inner.end;
      },
      gaps: () => inner.gaps(),
      next(): number {
        while (inner.next() !== NO_MORE)
          if (test([inner.start, inner.end], refs) === keep) return inner.start;
        return NO_MORE;
      },
    };
  }
  pullUp(): IntervalSource[] {
    return [this];
  }
}
