/**
 * The rescore phase of one shard (Elasticsearch's RescorePhase with QueryRescorer), run on the
 * query phase's top hits before the coordinator merges them. Each rescorer in turn takes the
 * first `window_size` hits, scores them with its query (Lucene's QueryRescorer: docs visited in
 * doc order, one scorer per segment), combines first × query_weight with second ×
 * rescore_query_weight by the score mode (a hit the query does not match keeps first ×
 * query_weight), and puts them best first, ties by doc. Hits beyond the window are scaled by
 * query_weight, and all hits are sorted again (QueryRescorer.combine). The max score is then
 * the first hit's.
 */
import type { RescoreScoreMode, RescoreSpec } from '@shoal/protocol';
import type { ShardReader } from '../index/shard-reader.ts';
import type { CompileEnv } from './compile-env.ts';
import { compileQuery } from './query-compiler.ts';
import type { CancelCheck, Collected } from './query-phase.ts';
import type { Scorer } from './scorer.ts';
import type { SortKey } from './sort-keys.ts';
import type { Candidate } from './top-k.ts';

const f = Math.fround;

const COMBINE: Record<RescoreScoreMode, (a: number, b: number) => number> = {
  total: (a, b) => f(a + b),
  multiply: (a, b) => f(a * b),
  avg: (a, b) => f(f(a + b) / 2),
  max: (a, b) => Math.max(a, b),
  min: (a, b) => Math.min(a, b),
};

/** QueryRescorer's order: score descending, then doc ascending. */
function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || a.doc - b.doc;
}

export function rescoreHits(
  found: Collected,
  rescorers: readonly RescoreSpec[],
  keys: readonly SortKey[],
  reader: ShardReader,
  env: CompileEnv,
  cancel: CancelCheck,
): void {
  // Rescoring runs only with the score sort (the coordinator refuses any other): first-pass
  // scores are the floats a hit reports.
  let hits = found.cands.map((c) => ({ ...c, score: f(c.score) }));
  for (const r of rescorers) {
    cancel.now();
    const window = Math.max(0, r.windowSize);
    const top = hits.slice(0, window);
    const rest = hits.slice(window);
    rescoreWindow(top, r, reader, env);
    top.sort(byScore);
    if (rest.length > 0) {
      for (const c of rest) c.score = f(c.score * r.queryWeight);
      hits = [...top, ...rest].sort(byScore);
    } else hits = top;
  }
  for (const c of hits) c.values = keys.map((k, i) => (k.spec.kind === 'score' ? c.score : c.values[i]!));
  found.cands = hits;
  if (hits.length > 0) found.maxScore = hits[0]!.score;
}

/** Lucene's QueryRescorer.rescore over the window's hits, in place. */
function rescoreWindow(top: Candidate[], r: RescoreSpec, reader: ShardReader, env: CompileEnv): void {
  const weight = compileQuery(r.query, env);
  const combine = COMBINE[r.scoreMode];
  const inDocOrder = [...top].sort((a, b) => a.doc - b.doc);
  const segments = reader.segments;
  let seg = -1;
  let scorer: Scorer | null = null;
  for (const c of inDocOrder) {
    while (seg + 1 < segments.length && c.doc >= segments[seg + 1]!.docBase) {
      seg++;
      scorer = weight.scorer(segments[seg]!, true);
    }
    const rs = segments[seg]!;
    const target = c.doc - rs.docBase;
    let at = scorer ? scorer.doc : -1;
    if (scorer && at < target) at = scorer.advance(target);
    const first = f(c.score * r.queryWeight);
    c.score = scorer && at === target ? combine(first, f(f(scorer.score()) * r.rescoreQueryWeight)) : first;
  }
}
