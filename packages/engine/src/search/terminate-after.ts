/**
 * `terminate_after` on a search, as Elasticsearch 8's QueryPhaseCollector applies it: docs are
 * collected in index order, and only the docs that pass both the post_filter and min_score
 * count towards the limit. When one more such doc arrives after `limit`, collection stops: that
 * doc is not collected, and the shard reports `terminated_early`. The same happens when a
 * segment starts after exactly `limit` docs were collected (the check in getLeafCollector).
 * The hits are then the best of the docs collected, so no fast path or pruning applies here.
 *
 * The total is what Lucene's collectors make of those docs:
 * - with hits (k > 0) it is the number collected, `gte` once more than track_total_hits were
 *   collected (TopFieldCollector), and for a lone score sort only once the top k is also full
 *   (TopScoreDocCollector); without a post_filter or min_score, when every segment's count is
 *   known from the index, that count instead (QueryPhaseCollectorManager.shortcutTotalHitCount);
 * - without hits (k = 0) it is PartialHitCountCollector's: a segment whose count is known
 *   (Weight#count, no post_filter or min_score) is counted whole and terminate_after does not
 *   apply to it; otherwise docs are counted one by one until track_total_hits is passed (then
 *   `gte`, and without aggregations the segment's counting stops).
 * Aggregations see every doc within min_score (post_filter or not) that comes before the point
 * where collection stopped.
 */
import type { ReaderSegment } from '../index/shard-reader.ts';
import { type DocFilter, passes } from './doc-filter.ts';
import { TRACK_DISABLED } from './hit-counter.ts';
import { type Collected, candidateComparator, type QueryPlan } from './query-phase.ts';
import { valueReader } from './sort-doc-values.ts';
import { compareSortTuples } from './sort-values.ts';
import { TopK } from './top-k.ts';

/** What the limited collection found, and whether it stopped before the end. */
export interface LimitedCollected extends Collected {
  terminatedEarly: boolean;
}

export function collectUntilLimit(plan: QueryPlan, limit: number): LimitedCollected {
  const { reader, keys, after, afterDoc, weight, needsScores, cancel, filter, req } = plan;
  const k = req.k;
  const upTo = req.trackTotalHitsUpTo;
  const hasAggs = req.aggs !== undefined;
  // Elasticsearch keeps the post_filter and min_score out of its hit-count shortcuts.
  const filtering = req.postFilter !== undefined || req.minScore !== undefined;
  const specs = keys.map((x) => x.spec);
  const top = new TopK(k, candidateComparator(keys));
  // Docs that passed the post_filter and min_score so far (GlobalTerminateAfterChecker).
  let qualified = 0;
  // k > 0: docs handed to the top docs collector; k = 0: PartialHitCountCollector's count.
  let collected = 0;
  let counted = 0;
  let countGte = false;
  let maxScore = Number.NEGATIVE_INFINITY;
  let stopDoc = -1;
  const countThreshold = upTo === TRACK_DISABLED ? 0 : upTo;
  segments: for (const rs of reader.segments) {
    if (qualified >= limit) {
      stopDoc = rs.docBase;
      break;
    }
    cancel.now();
    const excluded = filter.excluded(rs);
    let hitsActive = true;
    if (k === 0) {
      if (collected >= countThreshold) {
        countGte = true;
        hitsActive = false;
      } else if (!filtering) {
        const known = weight.count(rs, excluded, filter.count(rs));
        if (known >= 0) {
          counted += known;
          hitsActive = false;
        }
      }
      // Without hits to collect here, only aggregations with min_score keep counting the limit.
      if (!hitsActive && !(hasAggs && req.minScore !== undefined)) continue;
    }
    const m = weight.matches(rs, needsScores);
    const all = m.kind === 'all';
    const n = all ? rs.segment.maxDoc : m.docs.length;
    const docs = all ? null : m.docs;
    const scores = all ? null : m.scores;
    const constant = all ? m.score : 0;
    const readers = k > 0 ? keys.map((key) => valueReader(key, rs)) : [];
    for (let i = 0; i < n; i++) {
      const d = docs ? docs[i]! : i;
      if (!passes(excluded, d)) continue;
      cancel.step();
      if (++qualified > limit) {
        stopDoc = rs.docBase + d;
        break segments;
      }
      if (!hitsActive) continue;
      if (k === 0) {
        if (++collected > countThreshold) {
          countGte = true;
          hitsActive = false;
          if (!hasAggs) continue segments;
          continue;
        }
        counted++;
        continue;
      }
      collected++;
      const score = needsScores ? (scores ? scores[i]! : constant) : Number.NaN;
      if (score > maxScore) maxScore = score;
      const values = readers.map((read) => read(d, score));
      if (after) {
        const c = compareSortTuples(values, after, specs);
        if (c < 0 || (c === 0 && (afterDoc === undefined || rs.docBase + d <= afterDoc))) continue;
      }
      top.offer({ doc: rs.docBase + d, score, values });
    }
  }
  if (hasAggs && stopDoc >= 0) plan.filter = docsBefore(filter, stopDoc);
  const terminatedEarly = stopDoc >= 0;
  if (k === 0) {
    return {
      total: counted,
      relation: countGte ? 'gte' : 'eq',
      maxScore: Number.NaN,
      cands: [],
      terminatedEarly,
    };
  }
  const cands = top.sorted();
  const loneScore = keys.length === 1 && keys[0]!.spec.kind === 'score' && keys[0]!.reverse;
  let total = collected;
  let relation: 'eq' | 'gte' = collected > upTo && (!loneScore || collected >= k) ? 'gte' : 'eq';
  if (upTo === TRACK_DISABLED) {
    // Not reported (the coordinator leaves the total out); kept positive so max_score is.
    relation = 'gte';
  } else if (!filtering) {
    const known = knownTotal(plan, filter);
    if (known >= 0) {
      total = known;
      relation = 'eq';
    }
  }
  return { total, relation, maxScore, cands, terminatedEarly };
}

/** The query's count over the reader when every segment's is known without visiting it; else -1. */
function knownTotal(plan: QueryPlan, filter: DocFilter): number {
  let total = 0;
  for (const rs of plan.reader.segments) {
    const n = plan.weight.count(rs, filter.excluded(rs), filter.count(rs));
    if (n < 0) return -1;
    total += n;
  }
  return total;
}

/** `filter` narrowed to the reader docs before `stop`: what the aggregations saw. */
function docsBefore(filter: DocFilter, stop: number): DocFilter {
  const bits = new Map<number, Uint32Array>();
  const narrowed = (rs: ReaderSegment): Uint32Array | null => {
    const base = filter.excluded(rs);
    const max = rs.segment.maxDoc;
    if (rs.docBase + max <= stop) return base;
    let out = bits.get(rs.ord);
    if (out) return out;
    out = base ? base.slice() : new Uint32Array((max + 31) >>> 5);
    for (let d = Math.max(0, stop - rs.docBase); d < max; d++) out[d >>> 5]! |= 1 << (d & 31);
    bits.set(rs.ord, out);
    return out;
  };
  return {
    excluded: narrowed,
    count: (rs) => {
      const ex = narrowed(rs);
      let n = 0;
      for (let d = 0; d < rs.segment.maxDoc; d++) if (passes(ex, d)) n++;
      return n;
    },
    total: filter.total,
    empty: filter.empty,
  };
}
