/**
 * Query-phase fast paths (no scoring loop, no visit of every doc):
 * - match_all by score: the first k passing docs, total from the per-segment counts;
 * - a lone `_doc` / `_shard_doc` sort (the scroll and PIT export idiom), any query that needs
 *   no score: read the segments in doc order from the position after search_after, skipping
 *   whole segments behind it, and stop once k docs are found when the total is not tracked
 *   (or has passed `track_total_hits`); nothing is scored and nothing is sorted;
 * - one doc-values field sort (min/max mode, `_last`/`_first`), optionally tie-broken by
 *   `_doc`/`_shard_doc` ascending: walk the segment's cached sorted permutation from the
 *   search_after position, skipping excluded and non-matching docs, then merge segments.
 * Every path skips the docs the plan's filter excludes (deleted, or outside the slice).
 */

import type { SortValue } from '@shoal/protocol';
import { TRACK_TOTAL_HITS_DISABLED } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { passes } from './doc-filter.ts';
import { type Collected, candidateComparator, type QueryPlan } from './query-phase.ts';
import { compareSortValues } from './sort-values.ts';
import { permutationKey, type SortedPermutation, sortedPermutation } from './sorted-permutation.ts';
import type { Candidate } from './top-k.ts';
import { MatchAllWeight } from './weights.ts';

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
    (fs.mode === 'min' || fs.mode === 'max') &&
    k0.spec.kind === 'field' &&
    (k0.spec.missing === '_last' || k0.spec.missing === '_first') &&
    (keys.length === 1 ||
      (keys.length === 2 &&
        (keys[1]!.spec.kind === 'doc' || keys[1]!.spec.kind === 'shard_doc') &&
        !keys[1]!.reverse)) &&
    (matchAll || !plan.needsScores)
  ) {
    return fieldOrder(plan);
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

/** The doc at position p of a segment's sort order (missing docs first or last). */
function docAt(perm: SortedPermutation, p: number, missingFirst: boolean): number {
  const m = perm.missing.length;
  if (missingFirst) return p < m ? perm.missing[p]! : perm.order[p - m]!;
  const n = perm.order.length;
  return p < n ? perm.order[p]! : perm.missing[p - n]!;
}

/** The sort value at position p (the field's `missing` substitute for docs without one). */
function valueAt(perm: SortedPermutation, p: number, missingFirst: boolean, missing: SortValue): SortValue {
  if (missingFirst) {
    const m = perm.missing.length;
    return p < m ? missing : perm.value(p - m);
  }
  return p < perm.order.length ? perm.value(p) : missing;
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
  const tiebreak = keys.length === 2;
  const matchAll = weight instanceof MatchAllWeight;
  const score = matchAll && plan.needsScores ? weight.score : Number.NaN;
  let total = matchAll ? filter.total : 0;
  const cands: Candidate[] = [];
  const cmp = candidateComparator(keys);
  const permKey = permutationKey(fs, key.reverse);
  /** The k-th best candidate so far, once there are k. */
  let worst: Candidate | undefined;
  for (const rs of reader.segments) {
    plan.cancel.now();
    const excluded = filter.excluded(rs);
    let accept: Uint8Array | null = null;
    if (!matchAll) {
      const m = weight.matches(rs, false);
      if (m.kind === 'all') total += filter.count(rs);
      else {
        accept = new Uint8Array(rs.segment.maxDoc);
        for (let i = 0; i < m.docs.length; i++) {
          const d = m.docs[i]!;
          if (passes(excluded, d)) {
            accept[d] = 1;
            total++;
          }
        }
      }
    }
    if (k === 0) continue;
    const perm = sortedPermutation(rs, fs, key.reverse, permKey);
    const n = perm.order.length + perm.missing.length;
    let p = 0;
    if (after) {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareToAfter(plan, rs, perm, mid, missingFirst) > 0) hi = mid;
        else lo = mid + 1;
      }
      p = lo;
    }
    let found = 0;
    for (; p < n && found < k; p++) {
      plan.cancel.step();
      const d = docAt(perm, p, missingFirst);
      if (accept ? accept[d] !== 1 : !passes(excluded, d)) continue;
      const doc = rs.docBase + d;
      const value = valueAt(perm, p, missingFirst, fs.missing);
      const cand: Candidate = { doc, score, values: tiebreak ? [value, doc] : [value] };
      // The segment is walked in sort order: once a doc cannot beat the k-th best of the
      // segments before, none after it in this segment can.
      if (worst && cmp(cand, worst) >= 0) break;
      cands.push(cand);
      found++;
    }
    if (cands.length >= k && k > 0) {
      cands.sort(cmp);
      cands.length = k;
      worst = cands[k - 1];
    }
  }
  cands.sort(cmp);
  return { total, relation: 'eq', maxScore: score, cands: cands.slice(0, k) };
}
