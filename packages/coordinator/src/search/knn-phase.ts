/**
 * A search with a top-level `knn` (Elasticsearch's DFS phase for knn): first each knn search
 * on its own — every shard's `k` nearest neighbours, merged into the global `k` — then the
 * search itself, whose query becomes a disjunction of the user's query (if any) and, per knn
 * search, its neighbours scoring their similarity (times its boost). A neighbour that also
 * matches the query scores the sum, as in Elasticsearch.
 */
import {
  type KnnQuery,
  type QueryNode,
  RawJson,
  type SearchRequest,
  TRACK_TOTAL_HITS_DISABLED,
} from '@shoal/protocol';
import type { CancelToken } from '@shoal/shard';
import type { SearchBody } from './search-response.ts';
import type { ShardTarget } from './shard-targets.ts';

type Docs = Extract<QueryNode, { type: 'knn_score_docs' }>['docs'];

/** Runs one search on the latest readers of `targets` (the search action's own path). */
export type LatestSearch = (
  search: SearchRequest,
  targets: ShardTarget[],
  cancel: CancelToken,
) => Promise<SearchBody>;

/** The search with its knn searches resolved into its query. */
export async function withKnnNeighbours(
  search: SearchRequest,
  knn: readonly KnnQuery[],
  targets: ShardTarget[],
  cancel: CancelToken,
  run: LatestSearch,
): Promise<SearchRequest> {
  const found = await Promise.all(knn.map((k) => nearest(k, search, targets, cancel, run)));
  const clauses: QueryNode[] = found.map((docs, i) => ({
    type: 'knn_score_docs',
    docs,
    boost: knn[i]!.boost,
  }));
  const should = search.query.type === 'match_none' ? clauses : [search.query, ...clauses];
  const query: QueryNode =
    should.length === 1 ? should[0]! : { type: 'bool', must: [], filter: [], should, mustNot: [], boost: 1 };
  const out: SearchRequest = { ...search, query };
  delete out.knn;
  return out;
}

async function nearest(
  knn: KnnQuery,
  search: SearchRequest,
  targets: ShardTarget[],
  cancel: CancelToken,
  run: LatestSearch,
): Promise<Docs> {
  const k = knn.k!;
  const first: SearchRequest = {
    // The boost applies in the second phase, once.
    query: { ...knn, boost: 1 },
    from: 0,
    size: k,
    sort: undefined,
    trackTotalHits: TRACK_TOTAL_HITS_DISABLED,
    trackScores: false,
    source: { enabled: false, includes: [], excludes: [] },
    version: false,
    seqNoPrimaryTerm: false,
    restTotalHitsAsInt: false,
  };
  if (search.runtimeMappings) first.runtimeMappings = search.runtimeMappings;
  if (search.timeoutMs !== undefined) first.timeoutMs = search.timeoutMs;
  const body = (await run(first, targets, cancel)) as { hits?: { hits?: Record<string, unknown>[] } };
  return (body.hits?.hits ?? []).map((h) => ({
    index: h._index as string,
    id: h._id as string,
    score: scoreOf(h._score),
  }));
}

/** A hit's `_score`: a number, or its Java float text (RawJson) as the response writes it. */
function scoreOf(v: unknown): number {
  return v instanceof RawJson ? Number(v.text) : (v as number);
}
