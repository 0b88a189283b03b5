/**
 * Relevance-ordered collection (Lucene's TopScoreDocCollector): the best k docs by score,
 * ties by doc id, per segment from the weight's scorer.
 *
 * Hits are counted apart (hit-counter.ts), so the collector can always prune: once the heap
 * is full, its worst score is the scorer's minimum competitive score, and the scorer skips
 * whatever cannot beat it (block-max, MaxScore: see scorer.ts). Docs arrive in increasing
 * doc order, so a doc has to score strictly higher than the worst kept one to enter.
 */
import { HitCounter } from './hit-counter.ts';
import type { Collected, QueryPlan } from './query-phase.ts';
import { NO_MORE_DOCS } from './scorer.ts';
import { ScoreHeap } from './top-k.ts';

export function collectTopScores(plan: QueryPlan): Collected {
  const { reader, weight, cancel, filter } = plan;
  const k = plan.req.k;
  const counter = new HitCounter(weight, reader, filter, plan.req.trackTotalHitsUpTo, cancel);
  if (k <= 0) {
    // Nothing to rank (and, as in Elasticsearch, no max_score for size 0): only count.
    for (const rs of reader.segments) counter.countSegment(rs);
    return { total: counter.total, relation: counter.relation, maxScore: Number.NaN, cands: [] };
  }
  const heap = new ScoreHeap(k);
  let floor = Number.NEGATIVE_INFINITY;
  // Matches visited: a lower bound of the total too (the only one when tracking is disabled).
  let visited = 0;
  for (const rs of reader.segments) {
    counter.countSegment(rs);
    cancel.now();
    const scorer = weight.scorer(rs, true);
    if (!scorer) continue;
    const excluded = filter.excluded(rs);
    const base = rs.docBase;
    if (heap.full) scorer.setMinCompetitiveScore(floor);
    for (let doc = scorer.nextDoc(); doc !== NO_MORE_DOCS; doc = scorer.nextDoc()) {
      if (excluded !== null && (excluded[doc >>> 5]! & (1 << (doc & 31))) !== 0) continue;
      cancel.step();
      visited++;
      const score = scorer.score();
      if (heap.full) {
        if (score <= floor) continue;
        heap.replaceTop(base + doc, score);
      } else {
        heap.push(base + doc, score);
        if (!heap.full) continue;
      }
      floor = heap.floor;
      scorer.setMinCompetitiveScore(floor);
    }
  }
  const cands = heap.sorted();
  return {
    total: Math.max(counter.total, visited),
    relation: counter.relation,
    maxScore: cands.length > 0 ? cands[0]!.score : Number.NEGATIVE_INFINITY,
    cands,
  };
}
