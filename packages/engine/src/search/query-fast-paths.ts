/**
 * Query-phase fast paths (no scoring loop, no visit of every doc):
 * - match_all by score: the first k passing docs, total from the per-segment counts;
 * - a lone `_doc` / `_shard_doc` sort (the scroll and PIT export idiom), any query that needs
 *   no score: read the segments in doc order from the position after search_after, skipping
 *   whole segments behind it, and stop once k docs are found when the total is not tracked
 *   (or has passed `track_total_hits`); nothing is scored and nothing is sorted;
 * - one doc-values field sort (min/max mode, `_last`/`_first`), optionally tie-broken by
 *   `_doc`/`_shard_doc` ascending: walk the segment's cached sorted permutation from the
 *   search_after position, skipping excluded and non-matching docs, then merge segments;
 * - such a first key followed by any other keys: the same walk into a bounded heap, stopped
 *   once the first key can no longer compete (sorted-walk.ts).
 * Every path skips the docs the plan's filter excludes (deleted, or outside the slice).
 */

import { TRACK_TOTAL_HITS_DISABLED } from '@shoal/protocol';
import { type ReaderSegment, segmentOf } from '../index/shard-reader.ts';
import { passes } from './doc-filter.ts';
import { type Collected, candidateComparator, type QueryPlan } from './query-phase.ts';
import { type ReaderSortOrder, readerSortOrder } from './reader-sort-order.ts';
import { docAt, mergeStreams, SegmentStream, type StreamShape, valueAt } from './segment-merge.ts';
import { compareSortValues } from './sort-values.ts';
import { permutationKey, type SortedPermutation, sortedPermutation } from './sorted-permutation.ts';
import { collectSortedWalk } from './sorted-walk.ts';
import type { Candidate } from './top-k.ts';
import { walkFilter } from './walk-filter.ts';
import { type DocCheck, MatchAllWeight } from './weights.ts';

export function tryFastPath(plan: QueryPlan): Collected | undefined {
  const { keys, weight } = plan;
  const matchAll = weight instanceof MatchAllWeight;
  const k0 = keys[0]!;
  if (matchAll && keys.length === 1 && k0.spec.kind === 'score' && k0.reverse && !plan.after)
    return firstLiveDocs(plan);
  if (
    keys.length === 1 &&
    (k0.spec.kind === 'doc' || k0.spec.kind === 'shard_doc') &&
    (matchAll || !plan.needsScores)
  )
    return docOrder(plan);
  const fs = k0.field;
  if (
    fs &&
    fs.conversion === 'none' &&
    fs.kind !== 'ip' &&
    fs.source !== 'geo' &&
    fs.source !== 'script' &&
    (fs.mode === 'min' || fs.mode === 'max') &&
    k0.spec.kind === 'field' &&
    (k0.spec.missing === '_last' || k0.spec.missing === '_first') &&
    (matchAll || !plan.needsScores)
  ) {
    if (
      keys.length === 1 ||
      (keys.length === 2 &&
        (keys[1]!.spec.kind === 'doc' || keys[1]!.spec.kind === 'shard_doc') &&
        !keys[1]!.reverse)
    )
      return fieldOrder(plan);
    return collectSortedWalk(plan);
  }
  return undefined;
}

function firstLiveDocs(plan: QueryPlan): Collected {
  const score = (plan.weight as MatchAllWeight).score;
  const k = plan.req.k;
  const out: Candidate[] = [];
  for (const rs of plan.reader.segments) {
    const excluded = plan.filter.excluded(rs);
    for (let d = 0; d < rs.segment.maxDoc && out.length < k; d++) {
      if (passes(excluded, d)) out.push({ doc: rs.docBase + d, score, values: [score] });
    }
    if (out.length >= k) break;
  }
  return { total: plan.filter.total, relation: 'eq', maxScore: score, cands: out };
}

/** First index in the ascending `docs` whose value is > `t` (binary search). */
function firstAbove(docs: Int32Array, t: number): number {
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! > t) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function docOrder(plan: QueryPlan): Collected {
  const { filter, weight, cancel } = plan;
  const matchAll = weight instanceof MatchAllWeight;
  const score = matchAll && plan.needsScores ? weight.score : Number.NaN;
  const k = plan.req.k;
  const upTo = plan.req.trackTotalHitsUpTo;
  const reverse = plan.keys[0]!.reverse;
  // Reader doc ids: the position after search_after (a `_shard_doc` value is already a threshold).
  const threshold = plan.after ? (plan.after[0] as number) : reverse ? Number.POSITIVE_INFINITY : -1;
  const out: Candidate[] = [];
  let total = matchAll ? filter.total : 0;
  let relation: 'eq' | 'gte' = 'eq';
  const segs = reverse ? [...plan.reader.segments].reverse() : plan.reader.segments;
  for (const rs of segs) {
    const base = rs.docBase;
    const max = rs.segment.maxDoc;
    const behind = reverse ? base >= threshold : base + max - 1 <= threshold;
    if (!matchAll && out.length >= k) {
      // Enough hits: go on only to count, and only as far as track_total_hits asks.
      if (upTo === TRACK_TOTAL_HITS_DISABLED) break;
      if (total > upTo) {
        relation = 'gte';
        break;
      }
    }
    if (matchAll && (out.length >= k || behind)) continue;
    if (!matchAll && behind && upTo === TRACK_TOTAL_HITS_DISABLED) continue;
    cancel.now();
    const excluded = filter.excluded(rs);
    const m = matchAll ? undefined : weight.matches(rs, false);
    if (m && m.kind === 'docs') {
      const docs = m.docs;
      if (upTo !== TRACK_TOTAL_HITS_DISABLED) {
        if (excluded === null) total += docs.length;
        else for (let i = 0; i < docs.length; i++) if (passes(excluded, docs[i]!)) total++;
      }
      if (behind || out.length >= k) continue;
      const t = threshold - base;
      if (!reverse) {
        for (let i = firstAbove(docs, t); i < docs.length && out.length < k; i++) {
          const d = docs[i]!;
          if (passes(excluded, d)) out.push({ doc: base + d, score, values: [base + d] });
        }
      } else {
        for (let i = firstAbove(docs, Math.ceil(t) - 1) - 1; i >= 0 && out.length < k; i--) {
          const d = docs[i]!;
          if (passes(excluded, d)) out.push({ doc: base + d, score, values: [base + d] });
        }
      }
      continue;
    }
    // Every doc of the segment matches.
    if (m) total += filter.count(rs);
    if (behind || out.length >= k) continue;
    if (!reverse) {
      for (let d = Math.max(0, Math.floor(threshold) - base + 1); d < max && out.length < k; d++) {
        if (passes(excluded, d)) out.push({ doc: base + d, score, values: [base + d] });
      }
    } else {
      for (let d = Math.min(max - 1, Math.ceil(threshold) - base - 1); d >= 0 && out.length < k; d--) {
        if (passes(excluded, d)) out.push({ doc: base + d, score, values: [base + d] });
      }
    }
  }
  return { total, relation, maxScore: score, cands: out };
}

/** How position q compares with `search_after` (a scroll resumes after its last doc). */
function compareToAfter(
  plan: QueryPlan,
  rs: ReaderSegment,
  perm: SortedPermutation,
  q: number,
  missingFirst: boolean,
): number {
  const { keys, after, afterDoc } = plan;
  const key = keys[0]!;
  const c = compareSortValues(valueAt(perm, q, missingFirst, key.field!.missing), after![0]!, key.spec);
  if (c !== 0) return c;
  const doc = rs.docBase + docAt(perm, q, missingFirst);
  if (keys.length === 2) return compareSortValues(doc, after![1]!, keys[1]!.spec);
  // Equal values come in doc order.
  return afterDoc === undefined ? 0 : doc - afterDoc;
}

function fieldOrder(plan: QueryPlan): Collected {
  const { keys, after, weight, reader, filter } = plan;
  const k = plan.req.k;
  const key = keys[0]!;
  const fs = key.field!;
  const spec = key.spec;
  const missingFirst = spec.kind === 'field' && spec.missing === '_first';
  const matchAll = weight instanceof MatchAllWeight;
  const score = matchAll && plan.needsScores ? weight.score : Number.NaN;
  const shape: StreamShape = {
    missingFirst,
    missing: fs.missing,
    score,
    tiebreak: keys.length === 2,
    // The plan's own check, not a closure over it: a closure is made (and named) per task.
    cancel: plan.cancel,
  };
  let total = matchAll ? filter.total : 0;
  if (matchAll && !after && k > 0 && fs.source === 'numeric') {
    const order = readerSortOrder(reader, key, missingFirst);
    if (order) return { total, relation: 'eq', maxScore: score, cands: firstInOrder(plan, order, shape, k) };
  }
  const permKey = permutationKey(fs, key.reverse);
  const streams: SegmentStream[] = [];
  for (const rs of reader.segments) {
    plan.cancel.now();
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
    const perm = sortedPermutation(rs, fs, key.reverse, permKey);
    let p = 0;
    if (after) {
      let lo = 0;
      let hi = perm.order.length + perm.missing.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareToAfter(plan, rs, perm, mid, missingFirst) > 0) hi = mid;
        else lo = mid + 1;
      }
      p = lo;
    }
    streams.push(new SegmentStream(rs, perm, p, accept, excluded, shape, check));
  }
  // Each segment is walked in sort order: the page is a merge of their heads.
  const cands = k === 0 ? [] : mergeStreams(streams, candidateComparator(keys), k);
  return { total, relation: 'eq', maxScore: score, cands };
}

/** The first k docs of a reader's merged sort order that the reader does not exclude. */
function firstInOrder(plan: QueryPlan, order: ReaderSortOrder, shape: StreamShape, k: number): Candidate[] {
  const { docs, values } = order;
  const out: Candidate[] = [];
  for (let i = 0; i < docs.length && out.length < k; i++) {
    shape.cancel.step();
    const doc = docs[i]!;
    const rs = segmentOf(plan.reader, doc);
    if (!passes(plan.filter.excluded(rs), doc - rs.docBase)) continue;
    const value = values[i]!;
    out.push({ doc, score: shape.score, values: shape.tiebreak ? [value, doc] : [value] });
  }
  return out;
}
