/**
 * Query-phase fast paths (no scoring loop, no visit of every doc):
 * - match_all by score: the first k live docs, total from the live-doc counts;
 * - match_all by `_doc` / `_shard_doc`: iterate in doc order from the search_after position;
 * - one doc-values field sort (min/max mode, `_last`/`_first`), optionally tie-broken by
 *   `_doc`/`_shard_doc` ascending: walk the segment's cached sorted permutation from the
 *   search_after position, skipping deleted and non-matching docs, then merge segments.
 */
import type { SortValue } from '@shoal/protocol';
import type { ShardQueryResult } from '../contract.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { candidateComparator, type QueryPlan, toHits } from './query-phase.ts';
import { compareSortValues, floatValue } from './sort-values.ts';
import { sortedPermutation } from './sorted-permutation.ts';
import type { Candidate } from './top-k.ts';
import { MatchAllWeight } from './weights.ts';

export function tryFastPath(plan: QueryPlan): ShardQueryResult | undefined {
  const { keys, weight } = plan;
  const matchAll = weight instanceof MatchAllWeight;
  const k0 = keys[0]!;
  if (matchAll && keys.length === 1 && k0.spec.kind === 'score' && k0.reverse && !plan.after)
    return firstLiveDocs(plan);
  if (matchAll && keys.length === 1 && (k0.spec.kind === 'doc' || k0.spec.kind === 'shard_doc'))
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

function isLive(rs: ReaderSegment, d: number): boolean {
  const del = rs.liveDocs.deletedBits;
  return del === null || (del[d >>> 5]! & (1 << (d & 31))) === 0;
}

function result(plan: QueryPlan, total: number, cands: Candidate[], score: number): ShardQueryResult {
  const scored = plan.needsScores;
  return {
    totalHits: total,
    totalRelation: 'eq',
    maxScore: scored && total > 0 ? floatValue(score) : Number.NaN,
    hits: toHits(cands, plan.keys, plan.req.shardIndex, scored),
  };
}

function firstLiveDocs(plan: QueryPlan): ShardQueryResult {
  const score = (plan.weight as MatchAllWeight).score;
  const k = plan.req.k;
  const out: Candidate[] = [];
  for (const rs of plan.reader.segments) {
    for (let d = 0; d < rs.segment.maxDoc && out.length < k; d++) {
      if (isLive(rs, d)) out.push({ doc: rs.docBase + d, score, values: [score] });
    }
    if (out.length >= k) break;
  }
  return result(plan, plan.reader.numDocs, out, score);
}

function docOrder(plan: QueryPlan): ShardQueryResult {
  const score = plan.needsScores ? (plan.weight as MatchAllWeight).score : Number.NaN;
  const k = plan.req.k;
  const reverse = plan.keys[0]!.reverse;
  const threshold = plan.after ? (plan.after[0] as number) : reverse ? Number.POSITIVE_INFINITY : -1;
  const out: Candidate[] = [];
  const segs = reverse ? [...plan.reader.segments].reverse() : plan.reader.segments;
  for (const rs of segs) {
    if (out.length >= k) break;
    plan.cancel.now();
    const base = rs.docBase;
    const max = rs.segment.maxDoc;
    if (!reverse) {
      for (let d = Math.max(0, Math.floor(threshold) - base + 1); d < max && out.length < k; d++) {
        if (isLive(rs, d)) out.push({ doc: base + d, score, values: [base + d] });
      }
    } else {
      for (let d = Math.min(max - 1, Math.ceil(threshold) - base - 1); d >= 0 && out.length < k; d--) {
        if (isLive(rs, d)) out.push({ doc: base + d, score, values: [base + d] });
      }
    }
  }
  return result(plan, plan.reader.numDocs, out, score);
}

function fieldOrder(plan: QueryPlan): ShardQueryResult {
  const { keys, after, weight, reader } = plan;
  const k = plan.req.k;
  const key = keys[0]!;
  const fs = key.field!;
  const spec = key.spec;
  const missingFirst = spec.kind === 'field' && spec.missing === '_first';
  const tiebreak = keys.length === 2;
  const matchAll = weight instanceof MatchAllWeight;
  const score = matchAll && plan.needsScores ? weight.score : Number.NaN;
  let total = matchAll ? reader.numDocs : 0;
  const cands: Candidate[] = [];
  for (const rs of reader.segments) {
    plan.cancel.now();
    let accept: Uint8Array | null = null;
    if (!matchAll) {
      const m = weight.matches(rs, false);
      if (m.kind === 'all') total += rs.liveDocs.numLive;
      else {
        accept = new Uint8Array(rs.segment.maxDoc);
        for (let i = 0; i < m.docs.length; i++) {
          const d = m.docs[i]!;
          if (isLive(rs, d)) {
            accept[d] = 1;
            total++;
          }
        }
      }
    }
    if (k === 0) continue;
    const perm = sortedPermutation(rs, fs, key.reverse);
    const n = perm.order.length;
    const m = perm.missing.length;
    const docAt = (p: number) =>
      missingFirst
        ? p < m
          ? perm.missing[p]!
          : perm.order[p - m]!
        : p < n
          ? perm.order[p]!
          : perm.missing[p - n]!;
    const valueAt = (p: number): SortValue =>
      missingFirst ? (p < m ? fs.missing : perm.value(p - m)) : p < n ? perm.value(p) : fs.missing;
    let p = 0;
    if (after) {
      const afterCmp = (q: number) => {
        const c = compareSortValues(valueAt(q), after[0]!, spec);
        if (c !== 0 || !tiebreak) return c;
        return compareSortValues(rs.docBase + docAt(q), after[1]!, keys[1]!.spec);
      };
      let lo = 0;
      let hi = n + m;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (afterCmp(mid) > 0) hi = mid;
        else lo = mid + 1;
      }
      p = lo;
    }
    let found = 0;
    for (; p < n + m && found < k; p++) {
      plan.cancel.step();
      const d = docAt(p);
      if (accept ? accept[d] !== 1 : !isLive(rs, d)) continue;
      const doc = rs.docBase + d;
      cands.push({ doc, score, values: tiebreak ? [valueAt(p), doc] : [valueAt(p)] });
      found++;
    }
  }
  cands.sort(candidateComparator(keys));
  return result(plan, total, cands.slice(0, k), score);
}
