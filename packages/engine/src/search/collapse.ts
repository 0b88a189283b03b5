/**
 * Field collapsing on one shard, as Elasticsearch's CollapsingTopDocsCollector (a single-pass
 * Lucene FirstPassGroupingCollector) does it: every matching doc is counted, each distinct
 * value of the collapse field keeps its best doc by the sort (ties: the lower doc), docs
 * without a value form one group of their own, and the top `k` groups come back ordered by
 * their heads. The coordinator then keeps one hit per value across shards (merge order).
 */
import { illegalArgument, illegalState, notImplemented, type SortValue } from '@shoal/protocol';
import type { IndexMapping } from '../contract.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { CancelCheck, Collected, QueryPlan } from './query-phase.ts';
import { valueReader } from './sort-doc-values.ts';
import type { SortKey } from './sort-keys.ts';
import { compareSortTuples } from './sort-values.ts';
import type { Candidate } from './top-k.ts';

/** Elasticsearch's CollapseType.NUMERIC types whose values Shoal renders exactly. */
const INTEGRAL = new Set(['long', 'integer', 'short', 'byte']);
/** Numeric types Elasticsearch collapses on but whose group values Shoal does not reproduce. */
const FLOATING = new Set(['double', 'float', 'half_float', 'unsigned_long']);

/** CollapseBuilder.build: the field must be mapped, a keyword or a number, with doc values. */
export function checkCollapseField(mapping: IndexMapping, field: string): 'keyword' | 'numeric' {
  const f = mapping.field(field);
  if (!f) throw illegalArgument(`no mapping found for \`${field}\` in order to collapse on`);
  if (FLOATING.has(f.type)) throw notImplemented(`collapse on a [${f.type}] field`);
  if (f.type !== 'keyword' && !INTEGRAL.has(f.type))
    throw illegalArgument(`collapse is not supported for the field [${f.path}] of the type [${f.type}]`);
  if (!f.docValues) throw illegalArgument(`cannot collapse on field \`${field}\` without \`doc_values\``);
  return f.type === 'keyword' ? 'keyword' : 'numeric';
}

type GroupReader = (doc: number) => SortValue;

/** The collapse value of a segment's doc (null: no value); more than one fails the shard. */
function groupReader(rs: ReaderSegment, field: string): GroupReader {
  const sf = rs.segment.field(field);
  const fail = (doc: number) =>
    illegalState(`failed to collapse ${doc}, the collapse field must be single valued`);
  const n = sf?.numeric;
  if (n) {
    return (doc) => {
      const s = n.starts[doc]!;
      const e = n.starts[doc + 1]!;
      if (s === e) return null;
      if (e - s > 1) throw fail(doc);
      const v = n.values[s]!;
      return typeof v === 'bigint' && v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v;
    };
  }
  const ss = sf?.sortedSet;
  if (ss) {
    return (doc) => {
      const s = ss.starts[doc]!;
      const e = ss.starts[doc + 1]!;
      if (s === e) return null;
      if (e - s > 1) throw fail(doc);
      return ss.terms[ss.ords[s]!]!;
    };
  }
  return () => null;
}

export interface CollapsedGroups extends Collected {
  /** The collapse value of each candidate, aligned with `cands`. */
  groups: SortValue[];
}

/** A group's key in the map: a value's type is part of it, and null is a group. */
function keyOf(v: SortValue): SortValue | undefined {
  return v === null ? undefined : v;
}

export function collectCollapsed(plan: QueryPlan, field: string): CollapsedGroups {
  const { reader, keys, weight, needsScores, filter, after } = plan;
  const cancel: CancelCheck = plan.cancel;
  const specs = keys.map((x: SortKey) => x.spec);
  const better = (a: Candidate, b: Candidate) =>
    compareSortTuples(a.values, b.values, specs) || a.doc - b.doc;
  const heads = new Map<SortValue | undefined, { cand: Candidate; group: SortValue }>();
  let total = 0;
  let maxScore = Number.NEGATIVE_INFINITY;
  for (const rs of reader.segments) {
    cancel.now();
    const m = weight.matches(rs, needsScores);
    const readers = keys.map((key) => valueReader(key, rs));
    const group = groupReader(rs, field);
    const deleted = filter.excluded(rs);
    const all = m.kind === 'all';
    const n = all ? rs.segment.maxDoc : m.docs.length;
    for (let i = 0; i < n; i++) {
      const d = all ? i : m.docs[i]!;
      if (deleted && (deleted[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      total++;
      cancel.step();
      const score = needsScores ? (all ? m.score : m.scores![i]!) : Number.NaN;
      if (score > maxScore) maxScore = score;
      if (plan.req.k === 0) continue;
      const g = group(d);
      const cand: Candidate = { doc: rs.docBase + d, score, values: readers.map((r) => r(d, score)) };
      // search_after with collapse sorts on the collapse field alone: a value at or before the
      // position is a group already given.
      if (after && compareSortTuples(cand.values, after, specs) <= 0) continue;
      const key = keyOf(g);
      const head = heads.get(key);
      if (!head) heads.set(key, { cand, group: g });
      else if (better(cand, head.cand) < 0) head.cand = cand;
    }
  }
  const top = [...heads.values()].sort((a, b) => better(a.cand, b.cand)).slice(0, plan.req.k);
  return {
    total,
    relation: 'eq',
    maxScore,
    cands: top.map((h) => h.cand),
    groups: top.map((h) => h.group),
  };
}
