/**
 * The query phase on one shard: compile the query for the reader, then collect the top
 * `k` hits (sort values, score, reader doc id) and the total hit count. Fast paths (see
 * query-fast-paths.ts) serve match_all, doc-order and single-field sorts without visiting
 * every doc; everything else runs the query per segment and feeds a bounded heap.
 * Equal sort values are ordered by doc id ascending (the coordinator then breaks ties across
 * shards by shard index). Aggregations, when requested, are a pass of their own over every
 * matching doc (aggs/aggregate-shard.ts), so the hit paths stay unchanged.
 */

import { type QueryNode, type SortValue, taskCancelled } from '@shoal/protocol';
import { aggregateShard } from '../aggs/aggregate-shard.ts';
import { QueryDocs } from '../aggs/query-docs.ts';
import type {
  IndexMapping,
  QueryLimits,
  ScrollPosition,
  ShardHitRef,
  ShardQueryRequest,
  ShardQueryResult,
} from '../contract.ts';
import { ReaderSnapshot, type ShardReader } from '../index/shard-reader.ts';
import { withRuntimeFields } from '../runtime/runtime-view.ts';
import { checkCollapseField, collectCollapsed } from './collapse.ts';
import type { CompileEnv } from './compile-env.ts';
import { type DocFilter, liveDocsFilter } from './doc-filter.ts';
import type { ShardContext } from './field-values.ts';
import { countAll } from './hit-counter.ts';
import { MinScoreWeight } from './min-score.ts';
import { compileQuery } from './query-compiler.ts';
import { tryFastPath } from './query-fast-paths.ts';
import { rescoreHits } from './rescore.ts';
import { type ReadRestriction, restrictedReader } from './restricted-reader.ts';
import { convertSearchAfter, shardDocThreshold } from './search-after.ts';
import { sliceFilter } from './slice.ts';
import { valueReader } from './sort-doc-values.ts';
import { resolveSortKeys, type SortKey } from './sort-keys.ts';
import { compareSortTuples, compareSortValues, floatValue } from './sort-values.ts';
import { collectUntilLimit } from './terminate-after.ts';
import { type Candidate, TopK } from './top-k.ts';
import { topLevelFields } from './top-level-fields.ts';
import { collectTopScores } from './top-scores.ts';
import type { Weight } from './weights.ts';

export interface QueryContext extends ShardContext {
  shardId: number;
  isCancelled(): boolean;
  nowMillis: number;
}

/** Checks for cancellation every 4096 steps (and at every explicit `now()`). */
export class CancelCheck {
  private n = 0;
  constructor(private readonly ctx: Pick<QueryContext, 'isCancelled'>) {}
  step(): void {
    if ((++this.n & 4095) === 0) this.now();
  }
  now(): void {
    if (this.ctx.isCancelled()) throw taskCancelled('cancelled');
  }
}

export interface QueryPlan {
  reader: ShardReader;
  req: ShardQueryRequest;
  keys: SortKey[];
  /** search_after in comparable form; a `_shard_doc` value is a reader-doc threshold. */
  after?: SortValue[];
  /** With `after`, a doc equal on every key is behind the position unless its doc id is larger (scroll). */
  afterDoc?: number;
  weight: Weight;
  needsScores: boolean;
  cancel: CancelCheck;
  /** Live docs, narrowed to the request's slice. */
  filter: DocFilter;
  /** With aggregations and a post_filter: the query without the post_filter, which they see. */
  aggWeight?: Weight;
}

/** What a collector found, before it is turned into hits. */
export interface Collected {
  total: number;
  relation: 'eq' | 'gte';
  /** Raw maximum score (NaN or -Infinity when nothing was scored). */
  maxScore: number;
  /** Best first. */
  cands: Candidate[];
  /** With terminate_after: whether collection stopped before the last doc (terminate-after.ts). */
  terminatedEarly?: boolean;
}

export function executeQuery(
  reader: ShardReader,
  mapping: IndexMapping,
  req: ShardQueryRequest,
  ctx: QueryContext,
): ShardQueryResult {
  return runQuery(reader, mapping, req, ctx).result;
}

/**
 * The query phase with each hit's position in comparable form, which a scroll keeps to resume
 * exactly after the last hit the coordinator consumed.
 */
export function queryShard(
  reader: ShardReader,
  mapping: IndexMapping,
  req: ShardQueryRequest,
  ctx: QueryContext,
): { result: ShardQueryResult; positions: ScrollPosition[] } {
  const { result, found } = runQuery(reader, mapping, req, ctx);
  return { result, positions: found.cands.map((c) => ({ values: c.values, doc: c.doc })) };
}

function runQuery(
  shardReader: ShardReader,
  shardMapping: IndexMapping,
  req: ShardQueryRequest,
  ctx: QueryContext,
): { result: ShardQueryResult; found: Collected } {
  const { reader, mapping } = withRuntimeFields(
    restrictedReader(shardReader, shardMapping, req, ctx),
    shardMapping,
    req.runtimeMappings,
    ctx.index,
  );
  const plan = planQuery(reader, mapping, req, ctx);
  const collapse = req.collapse === undefined ? undefined : collapsedOf(plan, mapping, req.collapse.field);
  const found: Collected = plan.filter.empty
    ? { total: 0, relation: 'eq', maxScore: Number.NaN, cands: [] }
    : (collapse ??
      (req.terminateAfter === undefined
        ? (tryFastPath(plan) ?? collectTopK(plan))
        : collectUntilLimit(plan, req.terminateAfter)));
  if (req.rescore !== undefined && found.cands.length > 0) {
    rescoreHits(found, req.rescore, plan.keys, reader, envOf(reader, mapping, ctx, req.limits), plan.cancel);
  }
  const scored = plan.needsScores;
  const result: ShardQueryResult = {
    totalHits: found.total,
    totalRelation: found.relation,
    maxScore: scored && found.total > 0 ? floatValue(found.maxScore) : Number.NaN,
    hits: toHits(found.cands, plan.keys, req.shardIndex, scored),
  };
  if (collapse) result.collapseValues = collapse.groups;
  if (found.terminatedEarly !== undefined) result.terminatedEarly = found.terminatedEarly;
  const floating = floatingKeys(plan.keys);
  if (floating !== 0) result.floatingKeys = floating;
  if (req.aggs !== undefined) {
    const docs = new QueryDocs(plan.aggWeight ?? plan.weight, plan.filter);
    result.aggregations = aggregateShard(reader, mapping, req.aggs, docs, ctx);
  }
  return { result, found };
}

/** Field collapsing (collapse.ts): the field is checked even when the shard has nothing to search. */
function collapsedOf(plan: QueryPlan, mapping: IndexMapping, field: string) {
  checkCollapseField(mapping, field);
  return plan.filter.empty ? undefined : collectCollapsed(plan, field);
}

/** The sort keys whose values are Java floats or doubles, as a bit mask (ShardQueryResult.floatingKeys). */
function floatingKeys(keys: readonly SortKey[]): number {
  let mask = 0;
  for (let i = 0; i < keys.length && i < 31; i++) {
    const k = keys[i]!;
    if (k.spec.kind === 'score' || (k.field?.kind === 'double' && k.field.display === undefined))
      mask |= 1 << i;
  }
  return mask;
}

/** `_count`: the number of live docs the query matches (with a score of at least `minScore`). */
export function countQuery(
  reader: ShardReader,
  mapping: IndexMapping,
  query: QueryNode,
  ctx: QueryContext,
  minScore?: number,
  limits?: QueryLimits,
  restriction: ReadRestriction = {},
): number {
  ({ reader, mapping } = withRuntimeFields(
    restrictedReader(reader, mapping, restriction, ctx),
    mapping,
    undefined,
    ctx.index,
  ));
  const cancel = new CancelCheck(ctx);
  const compiled = compileQuery(query, envOf(reader, mapping, ctx, limits));
  const weight = minScore === undefined ? compiled : new MinScoreWeight(compiled, minScore);
  return countAll(weight, reader, liveDocsFilter(reader), cancel);
}

/**
 * Builds a query against a mapping, on no documents, without running it: what
 * AliasValidator.validateAliasFilter does with an alias filter before the alias is added.
 * Throws what building it on a shard's search would.
 */
export function checkQuery(
  mapping: IndexMapping,
  query: QueryNode,
  ctx: Pick<QueryContext, 'index' | 'indexUuid' | 'nowMillis'>,
): void {
  const snapshot = new ReaderSnapshot(0, []);
  const reader = snapshot.acquire();
  try {
    compileQuery(query, envOf(reader, mapping, { ...ctx, shardId: 0, isCancelled: () => false }));
  } finally {
    reader.release();
    snapshot.decRef();
  }
}

function envOf(
  reader: ShardReader,
  mapping: IndexMapping,
  ctx: QueryContext,
  limits?: QueryLimits,
): CompileEnv {
  const env: CompileEnv = {
    reader,
    mapping: topLevelFields(mapping),
    index: ctx.index,
    indexUuid: ctx.indexUuid,
    nowMillis: ctx.nowMillis,
    shardId: ctx.shardId,
  };
  if (limits) env.limits = limits;
  return env;
}

function planQuery(
  reader: ShardReader,
  mapping: IndexMapping,
  req: ShardQueryRequest,
  ctx: QueryContext,
): QueryPlan {
  const cancel = new CancelCheck(ctx);
  cancel.now();
  const sort = req.sort.length > 0 ? req.sort : [{ kind: 'score' as const, order: 'desc' as const }];
  const keys = resolveSortKeys(sort, mapping, ctx);
  let after: SortValue[] | undefined;
  let afterDoc: number | undefined;
  if (req.resumeAfter) {
    after = req.resumeAfter.values;
    afterDoc = req.resumeAfter.doc;
  } else if (req.searchAfter) {
    after = convertSearchAfter(req.searchAfter, keys);
    keys.forEach((k, i) => {
      if (k.spec.kind === 'shard_doc') after![i] = shardDocThreshold(after![i]!, req.shardIndex);
    });
  }
  const filter = req.slice ? sliceFilter(reader, mapping, req.slice) : liveDocsFilter(reader);
  const env = envOf(reader, mapping, ctx, req.limits);
  if (req.k > 0) env.knnDefaultK = req.k;
  const post = req.postFilter;
  const weight = withMinScore(
    compileQuery(post === undefined ? req.query : withPostFilter(req.query, post), env),
    req.minScore,
  );
  const needsScores = req.trackScores || keys.some((k) => k.spec.kind === 'score');
  const plan: QueryPlan = {
    reader,
    req: { ...req, sort },
    keys,
    after,
    afterDoc,
    weight,
    needsScores,
    cancel,
    filter,
  };
  if (post !== undefined && req.aggs !== undefined)
    plan.aggWeight = withMinScore(compileQuery(req.query, env), req.minScore);
  return plan;
}

/**
 * The weight narrowed to `min_score`. A module function, not a closure in planQuery: a closure
 * is made (and, under tsx, named with a defineProperty) on every query task.
 */
function withMinScore(w: Weight, minScore: number | undefined): Weight {
  return minScore === undefined ? w : new MinScoreWeight(w, minScore);
}

/** The hits' query: the query's matches (and scores) narrowed by the post_filter. */
function withPostFilter(query: QueryNode, postFilter: QueryNode): QueryNode {
  return { type: 'bool', must: [query], filter: [postFilter], should: [], mustNot: [], boost: 1 };
}

export function candidateComparator(keys: readonly SortKey[]): (a: Candidate, b: Candidate) => number {
  const specs = keys.map((k) => k.spec);
  return (a, b) => compareSortTuples(a.values, b.values, specs) || a.doc - b.doc;
}

function collectTopK(plan: QueryPlan): Collected {
  const k0 = plan.keys[0]!;
  if (plan.keys.length === 1 && k0.spec.kind === 'score' && k0.reverse && !plan.after)
    return collectTopScores(plan);
  const { reader, keys, after, afterDoc, weight, needsScores, cancel, filter } = plan;
  const k = plan.req.k;
  const specs = keys.map((x) => x.spec);
  const spec0 = specs[0]!;
  const single = keys.length === 1;
  const top = new TopK(k, candidateComparator(keys));
  let total = 0;
  let maxScore = Number.NEGATIVE_INFINITY;
  for (const rs of reader.segments) {
    cancel.now();
    const m = weight.matches(rs, needsScores);
    const readers = keys.map((key) => valueReader(key, rs));
    const read0 = readers[0]!;
    const deleted = filter.excluded(rs);
    const all = m.kind === 'all';
    const n = all ? rs.segment.maxDoc : m.docs.length;
    const docs = all ? null : m.docs;
    const scores = all ? null : m.scores;
    const constant = all ? m.score : 0;
    for (let i = 0; i < n; i++) {
      const d = docs ? docs[i]! : i;
      if (deleted && (deleted[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      total++;
      if (k === 0 && !needsScores) continue;
      cancel.step();
      const score = needsScores ? (scores ? scores[i]! : constant) : Number.NaN;
      if (score > maxScore) maxScore = score;
      if (k === 0) continue;
      const v0 = read0(d, score);
      if (after && compareSortValues(v0, after[0]!, spec0) < 0) continue;
      const worst = top.full ? top.worst() : undefined;
      if (worst) {
        const c = compareSortValues(v0, worst.values[0]!, spec0);
        // Docs arrive in increasing reader order, so a tie on a lone key loses to the kept doc.
        if (c > 0 || (c === 0 && single)) continue;
      }
      const values: SortValue[] = [v0];
      for (let j = 1; j < readers.length; j++) values.push(readers[j]!(d, score));
      if (after) {
        const c = compareSortTuples(values, after, specs);
        if (c < 0 || (c === 0 && (afterDoc === undefined || rs.docBase + d <= afterDoc))) continue;
      }
      top.offer({ doc: rs.docBase + d, score, values });
    }
  }
  return { total, relation: 'eq', maxScore, cands: top.sorted() };
}

/** Comparable values → the values a hit carries (`_shard_doc` packed, floats printed as floats). */
export function toHits(
  cands: readonly Candidate[],
  keys: readonly SortKey[],
  shardIndex: number,
  scored: boolean,
): ShardHitRef[] {
  const hasDisplay = keys.some((k) => k.field?.display);
  const shardBits = BigInt(shardIndex) << 32n;
  return cands.map((c) => {
    const sort = keys.map((k, i) => {
      const v = c.values[i] ?? null;
      if (k.spec.kind === 'score') return floatValue(v as number);
      if (k.spec.kind === 'shard_doc') return shardBits | BigInt(v as number);
      if (k.field?.target.float && typeof v === 'number') return floatValue(v);
      return v;
    });
    // floatValue is costly (shortest decimal search): reuse the score key's when it is the score.
    const score = !scored
      ? Number.NaN
      : keys[0]?.spec.kind === 'score' && c.values[0] === c.score
        ? (sort[0] as number)
        : floatValue(c.score);
    const hit: ShardHitRef = { doc: c.doc, score, sort };
    if (hasDisplay)
      hit.display = keys.map((k, i) => (k.field?.display ? k.field.display(c.values[i] ?? null) : sort[i]!));
    return hit;
  });
}
