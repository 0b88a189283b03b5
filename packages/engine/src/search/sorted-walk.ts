/**
 * Top-k for a sort of several keys whose first key is a doc-values field: each segment is
 * walked in the order of that first key (its cached sorted permutation), from the search_after
 * position on, feeding a bounded heap on all keys; a segment's walk stops as soon as the heap
 * is full and the walk reaches a first-key value worse than the heap's worst — no doc after it
 * can compete (the competitive skipping Lucene's TopFieldCollector does with its first
 * comparator). The docs the query matches are marked once per segment; the total comes from
 * that marking (or from the filter for match_all).
 */
import type { SortValue } from '@shoal/protocol';
import { passes } from './doc-filter.ts';
import { type Collected, candidateComparator, type QueryPlan } from './query-phase.ts';
import { docAt, valueAt } from './segment-merge.ts';
import { type ValueReader, valueReader } from './sort-doc-values.ts';
import { compareSortTuples, compareSortValues } from './sort-values.ts';
import { permutationKey, sortedPermutation } from './sorted-permutation.ts';
import { TopK } from './top-k.ts';
import { MatchAllWeight } from './weights.ts';

export function collectSortedWalk(plan: QueryPlan): Collected {
  const { keys, after, afterDoc, weight, reader, filter, cancel } = plan;
  const k = plan.req.k;
  const key = keys[0]!;
  const fs = key.field!;
  const spec0 = key.spec;
  const specs = keys.map((x) => x.spec);
  const missingFirst = spec0.kind === 'field' && spec0.missing === '_first';
  const matchAll = weight instanceof MatchAllWeight;
  const score = matchAll && plan.needsScores ? weight.score : Number.NaN;
  const top = new TopK(k, candidateComparator(keys));
  const permKey = permutationKey(fs, key.reverse);
  let total = matchAll ? filter.total : 0;
  for (const rs of reader.segments) {
    cancel.now();
    const excluded = filter.excluded(rs);
    let accept: Uint8Array | null = null;
    if (!matchAll) {
      const m = weight.matches(rs, false);
      if (m.kind === 'all') total += filter.count(rs);
      else {
        if (m.docs.length === 0) continue;
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
      // The first position not before search_after's first value.
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compareSortValues(valueAt(perm, mid, missingFirst, fs.missing), after[0]!, spec0) >= 0) hi = mid;
        else lo = mid + 1;
      }
      p = lo;
    }
    const readers: (ValueReader | null)[] = keys.map((x, i) => (i === 0 ? null : valueReader(x, rs)));
    for (; p < n; p++) {
      cancel.step();
      const d = docAt(perm, p, missingFirst);
      if (accept ? accept[d] !== 1 : !passes(excluded, d)) continue;
      const v0 = valueAt(perm, p, missingFirst, fs.missing);
      if (top.full && compareSortValues(v0, top.worst()!.values[0]!, spec0) > 0) break;
      const values: SortValue[] = [v0];
      for (let j = 1; j < readers.length; j++) values.push(readers[j]!(d, score));
      const doc = rs.docBase + d;
      if (after) {
        const c = compareSortTuples(values, after, specs);
        if (c < 0 || (c === 0 && (afterDoc === undefined || doc <= afterDoc))) continue;
      }
      top.offer({ doc, score, values });
    }
  }
  return { total, relation: 'eq', maxScore: score, cands: top.sorted() };
}
