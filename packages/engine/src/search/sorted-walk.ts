/**
 * Top-k for a sort of several keys whose first key is a doc-values field: each segment is
 * walked in the order of that first key (its cached sorted permutation), from the search_after
 * position on, feeding a bounded heap on all keys; a segment's walk stops as soon as the heap
 * is full and the walk reaches a first-key value worse than the heap's worst — no doc after it
 * can compete (the competitive skipping Lucene's TopFieldCollector does with its first
 * comparator). A doc is compared with the heap's worst key by key, each key read only while
 * the earlier ones tie.
 *
 * A long run of equal first keys (a keyword of a few values) is walked in the order of the
 * second key instead, when that key is a doc-values field too: the run's docs come up in sort
 * order, so the walk stops once the heap is full and the second key can no longer compete,
 * after about k / (the run's share of the segment) docs instead of the whole run. If that walk
 * goes on as long as the run, the rest of the run is walked directly.
 *
 * The docs the query matches are marked once per segment; the total comes from that marking
 * (or from the filter for match_all).
 */
import type { SortSpec, SortValue } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { passes } from './doc-filter.ts';
import { type Collected, candidateComparator, type QueryPlan } from './query-phase.ts';
import { docAt, valueAt } from './segment-merge.ts';
import { type ValueReader, valueReader } from './sort-doc-values.ts';
import type { SortKey } from './sort-keys.ts';
import { compareSortTuples, compareSortValues } from './sort-values.ts';
import { permutationKey, type SortedPermutation, sortedPermutation } from './sorted-permutation.ts';
import { type Candidate, TopK } from './top-k.ts';
import { walkFilter } from './walk-filter.ts';
import { type DocCheck, MatchAllWeight } from './weights.ts';

/** `shortRun`: a run of equal first keys at most this long is walked directly (tests lower it). */
export const walkTuning = { shortRun: 256 };
/** A first key of more values than this has short runs: their starts are not kept. */
const MAX_RUN_VALUES = 4096;

/** Whether a key can be walked in a segment's sorted permutation (what the fast paths take). */
export function walkableKey(key: SortKey): boolean {
  const fs = key.field;
  return (
    fs !== undefined &&
    fs.conversion === 'none' &&
    fs.kind !== 'ip' &&
    fs.source !== 'geo' &&
    (fs.mode === 'min' || fs.mode === 'max') &&
    key.spec.kind === 'field' &&
    (key.spec.missing === '_last' || key.spec.missing === '_first')
  );
}

/** One key's order in one segment. */
interface Order {
  perm: SortedPermutation;
  size: number;
  missingFirst: boolean;
  missing: SortValue;
  spec: SortSpec;
}

function orderOf(rs: ReaderSegment, key: SortKey): Order {
  const fs = key.field!;
  const perm = sortedPermutation(rs, fs, key.reverse, permutationKey(fs, key.reverse));
  return {
    perm,
    size: perm.order.length + perm.missing.length,
    missingFirst: key.spec.kind === 'field' && key.spec.missing === '_first',
    missing: fs.missing,
    spec: key.spec,
  };
}

function orderValue(o: Order, p: number): SortValue {
  return valueAt(o.perm, p, o.missingFirst, o.missing);
}

/** The first position from `from` whose value is not before `v` (`after`: after `v`). */
function seek(o: Order, from: number, v: SortValue, after: boolean): number {
  let lo = from;
  let hi = o.size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareSortValues(orderValue(o, mid), v, o.spec);
    if (after ? c <= 0 : c < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The state of one search's walk through one segment. */
class SegmentWalk {
  private readonly readers: (ValueReader | null)[];
  private readonly scratch: SortValue[];

  constructor(
    private readonly plan: QueryPlan,
    private readonly rs: ReaderSegment,
    private readonly top: TopK,
    private readonly specs: SortSpec[],
    private readonly accept: Uint8Array | null,
    private readonly excluded: Uint32Array | null,
    private readonly score: number,
    /** Or the query's check per doc, when its docs were not collected. */
    private readonly check: DocCheck | null,
  ) {
    this.readers = plan.keys.map((x) => valueReader(x, rs));
    this.scratch = plan.keys.map(() => null);
  }

  /**
   * Per value of the first key, the earliest second-key value (in the second key's sort order)
   * of the segment's docs having it: where a run's walk in the second order can start. Computed
   * once per segment and pair of keys; runs are long only when the first key has few values.
   */
  private runFirsts(o1: Order): Map<SortValue, SortValue> {
    const [k0, k1] = this.plan.keys as [SortKey, SortKey];
    const id = (key: SortKey) => `${permutationKey(key.field!, key.reverse)}:${String(key.field!.missing)}`;
    return this.rs.segment.cached(`runfirst:${id(k0)}|${id(k1)}`, () => {
      const firsts = new Map<SortValue, SortValue>();
      const read0 = this.readers[0]!;
      const read1 = this.readers[1]!;
      for (let d = 0; d < this.rs.segment.maxDoc; d++) {
        const v0 = read0(d, 0);
        const v1 = read1(d, 0);
        const known = firsts.get(v0);
        if (known === undefined || compareSortValues(v1, known, o1.spec) < 0) firsts.set(v0, v1);
        if (firsts.size > MAX_RUN_VALUES) return new Map();
      }
      return firsts;
    });
  }

  passes(d: number): boolean {
    if (this.accept) return this.accept[d] === 1;
    return passes(this.excluded, d) && (this.check === null || this.check(d));
  }

  /**
   * Offers doc `d` whose first `known` keys are in scratch. Returns false when the doc loses
   * to the heap's worst on a key before the last (every later doc of the walk loses too,
   * `stopAt` being the number of leading keys the walk is ordered by).
   */
  offer(d: number, known: number, stopAt: number): boolean {
    const { top, readers, scratch, specs, plan } = this;
    const doc = this.rs.docBase + d;
    let read = known;
    if (top.full) {
      const worst = top.worst()!;
      let c = 0;
      let j = 0;
      for (; c === 0 && j < readers.length; j++) {
        if (j >= read) {
          scratch[j] = readers[j]!(d, this.score);
          read = j + 1;
        }
        c = compareSortValues(scratch[j]!, worst.values[j]!, specs[j]!);
      }
      // Worse on a key the walk is ordered by, with the keys before it equal: so is the rest.
      if (c > 0 && j <= stopAt) return false;
      // Equal on every key: the later doc loses.
      if (c > 0 || (c === 0 && doc > worst.doc)) return true;
    }
    const values: SortValue[] = new Array(readers.length);
    for (let j = 0; j < readers.length; j++) values[j] = j < read ? scratch[j]! : readers[j]!(d, this.score);
    const after = plan.after;
    if (after) {
      const c = compareSortTuples(values, after, specs);
      if (c < 0 || (c === 0 && (plan.afterDoc === undefined || doc <= plan.afterDoc))) return true;
    }
    const cand: Candidate = { doc, score: this.score, values };
    top.offer(cand);
    return true;
  }

  /** Positions [from, to) of the first order, directly; `skip` leaves out docs already seen. */
  walkRun(o0: Order, from: number, to: number, skip?: (d: number) => boolean): boolean {
    for (let p = from; p < to; p++) {
      this.plan.cancel.step();
      const d = docAt(o0.perm, p, o0.missingFirst);
      if (!this.passes(d) || skip?.(d)) continue;
      this.scratch[0] = orderValue(o0, p);
      if (!this.offer(d, 1, 1)) return false;
    }
    return true;
  }

  /**
   * The run of first key `g` ([from, to) in the first order) walked in the second key's order.
   * False when the heap filled with better docs (the segment's walk is over).
   */
  walkRunBySecond(o0: Order, o1: Order, g: SortValue, from: number, to: number): boolean {
    const { plan, scratch } = this;
    const after = plan.after;
    const read0 = this.readers[0]!;
    // Start where the run's first doc in the second order can be at the earliest.
    const first = this.runFirsts(o1).get(g);
    let q = first === undefined ? 0 : seek(o1, 0, first, false);
    if (after && compareSortValues(g, after[0]!, o0.spec) === 0)
      q = Math.max(q, seek(o1, 0, after[1]!, false));
    let budget = to - from;
    for (; q < o1.size; q++) {
      plan.cancel.step();
      if (--budget < 0) {
        // As long as the run itself: walk the rest of the run directly, leaving out the docs
        // before position q of the second order (those were seen).
        const vq = orderValue(o1, q);
        const dq = docAt(o1.perm, q, o1.missingFirst);
        const read1 = this.readers[1]!;
        return this.walkRun(o0, from, to, (d) => {
          const c = compareSortValues(read1(d, this.score), vq, o1.spec);
          return c < 0 || (c === 0 && d < dq);
        });
      }
      const d = docAt(o1.perm, q, o1.missingFirst);
      if (!this.passes(d)) continue;
      const v0 = read0(d, this.score);
      if (compareSortValues(v0, g, o0.spec) !== 0) continue;
      scratch[0] = v0;
      scratch[1] = orderValue(o1, q);
      if (!this.offer(d, 2, 2)) return true;
    }
    return true;
  }
}

export function collectSortedWalk(plan: QueryPlan): Collected {
  const { keys, after, weight, reader, filter, cancel } = plan;
  const k = plan.req.k;
  const specs = keys.map((x) => x.spec);
  const matchAll = weight instanceof MatchAllWeight;
  const score = matchAll && plan.needsScores ? weight.score : Number.NaN;
  const top = new TopK(k, candidateComparator(keys));
  const bySecond = keys.length >= 2 && walkableKey(keys[1]!);
  let total = matchAll ? filter.total : 0;
  for (const rs of reader.segments) {
    cancel.now();
    const excluded = filter.excluded(rs);
    let accept: Uint8Array | null = null;
    let check: DocCheck | null = null;
    if (!matchAll) {
      const wf = walkFilter(weight, rs, excluded, filter, k);
      total += wf.total;
      if (wf.total === 0) continue;
      accept = wf.accept;
      check = wf.check;
    }
    if (k === 0) continue;
    const o0 = orderOf(rs, keys[0]!);
    const o1 = bySecond ? orderOf(rs, keys[1]!) : null;
    const walk = new SegmentWalk(plan, rs, top, specs, accept, excluded, score, check);
    let p = after ? seek(o0, 0, after[0]!, false) : 0;
    while (p < o0.size) {
      const g = orderValue(o0, p);
      if (top.full && compareSortValues(g, top.worst()!.values[0]!, o0.spec) > 0) break;
      const end = o1 === null ? o0.size : seek(o0, p + 1, g, true);
      const more =
        o1 === null || end - p <= walkTuning.shortRun
          ? walk.walkRun(o0, p, end)
          : walk.walkRunBySecond(o0, o1, g, p, end);
      if (!more) break;
      p = end;
    }
  }
  return { total, relation: 'eq', maxScore: score, cands: top.sorted() };
}
