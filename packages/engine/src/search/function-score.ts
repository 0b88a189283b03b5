/**
 * The queries that rescore another query's docs: `function_score` (Elasticsearch's
 * FunctionScoreQuery with its FunctionFactorScorer, CombineFunction and MinScoreScorer) and
 * `boosting` (Lucene's FunctionScoreQuery.boostByQuery). Both keep the inner query's docs; only
 * the score changes, computed in double and rounded to float where the Java code casts. Neither
 * bounds its scores (Elasticsearch answers Float.MAX_VALUE, Lucene +Infinity), so top-k
 * collection does not prune below them.
 */
import { javaFloat, type QueryNode, ShoalError } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { CompileEnv } from './compile-env.ts';
import { markDocs } from './doc-bits.ts';
import { docs, type Matches, materialise } from './matches.ts';
import { type LeafFunction, type ScoreFunction, scoreFunction } from './score-functions.ts';
import { NO_MORE_DOCS, Scorer } from './scorer.ts';
import type { Weight } from './weights.ts';

const f = Math.fround;

type FunctionScoreNode = Extract<QueryNode, { type: 'function_score' }>;
export type ScoreMode = FunctionScoreNode['scoreMode'];
export type BoostMode = FunctionScoreNode['boostMode'];

type Compile = (node: QueryNode, env: CompileEnv, parentBoost: number, filter: boolean) => Weight;

/** BoostingQueryBuilder.doToQuery. Without scores it is its positive query (createWeight). */
export function boostingQuery(
  node: Extract<QueryNode, { type: 'boosting' }>,
  env: CompileEnv,
  boost: number,
  filter: boolean,
  compile: Compile,
): Weight {
  const positive = compile(node.positive, env, 1, filter);
  const negative = compile(node.negative, env, 1, true);
  return filter ? positive : new BoostingWeight(positive, negative, node.negativeBoost, boost);
}

/**
 * FunctionScoreQueryBuilder.doToQuery: the functions first (their errors come first), then the
 * query with the boost. A single function without a filter (a match_all filter counts as none)
 * is scored alone (score mode `first`); no function at all leaves the query's score as it is.
 */
export function functionScoreQuery(
  node: FunctionScoreNode,
  env: CompileEnv,
  boost: number,
  filter: boolean,
  compile: Compile,
): Weight {
  const functions = node.functions.map((spec) => ({
    fn: scoreFunction(spec, env),
    filter: spec.filter ? compile(spec.filter, env, 1, true) : null,
  }));
  if (filter && node.minScore === undefined) return compile(node.query, env, boost, true);
  const inner = compile(node.query, env, boost, false);
  if (functions.length === 0 && node.minScore === undefined) return inner;
  const single = functions.length === 1 && functions[0]!.filter === null;
  const opts: FunctionScoreOptions = {
    functions,
    scoreMode: single || functions.length === 0 ? 'first' : node.scoreMode,
    boostMode: functions.length === 0 ? 'multiply' : node.boostMode,
    maxBoost: node.maxBoost,
  };
  if (node.minScore !== undefined) opts.minScore = node.minScore;
  return new FunctionScoreWeight(inner, opts);
}

/** A function with its filter (null: every doc). */
export interface FilteredFunction {
  filter: Weight | null;
  fn: ScoreFunction;
}

/** CombineFunction.combine: the query's float score and the functions' double factor, to float. */
function combine(mode: BoostMode, q: number, factor: number, maxBoost: number): number {
  const fn = Math.min(factor, maxBoost);
  switch (mode) {
    case 'multiply':
      return f(q * fn);
    case 'replace':
      return f(fn);
    case 'sum':
      return f(q + fn);
    case 'avg':
      return f((fn + q) / 2.0);
    case 'min':
      return f(Math.min(q, fn));
    case 'max':
      return f(Math.max(q, fn));
  }
}

/** One segment's functions: their values and the docs their filters match. */
interface LeafFunctions {
  fns: LeafFunction[];
  /** Per function, a bit set of the filter's docs; null for an unfiltered function. */
  bits: (Uint32Array | null)[];
  weights: number[];
}

function has(bits: Uint32Array | null, doc: number): boolean {
  return bits === null || (bits[doc >>> 5]! & (1 << (doc & 31))) !== 0;
}

/** FunctionFactorScorer.computeScore. */
function factorOf(mode: ScoreMode, leaf: LeafFunctions, doc: number, sub: number): number {
  const { fns, bits } = leaf;
  let factor = 1;
  switch (mode) {
    case 'first':
      for (let i = 0; i < fns.length; i++) if (has(bits[i]!, doc)) return fns[i]!(doc, sub);
      return factor;
    case 'max': {
      let max = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < fns.length; i++) if (has(bits[i]!, doc)) max = Math.max(fns[i]!(doc, sub), max);
      return max !== Number.NEGATIVE_INFINITY ? max : factor;
    }
    case 'min': {
      let min = Number.POSITIVE_INFINITY;
      for (let i = 0; i < fns.length; i++) if (has(bits[i]!, doc)) min = Math.min(fns[i]!(doc, sub), min);
      return min !== Number.POSITIVE_INFINITY ? min : factor;
    }
    case 'multiply':
      for (let i = 0; i < fns.length; i++) if (has(bits[i]!, doc)) factor *= fns[i]!(doc, sub);
      return factor;
    case 'sum':
    case 'avg': {
      let total = 0;
      let weightSum = 0;
      for (let i = 0; i < fns.length; i++) {
        if (!has(bits[i]!, doc)) continue;
        total += fns[i]!(doc, sub);
        weightSum += leaf.weights[i]!;
      }
      if (weightSum === 0) return factor;
      return mode === 'avg' ? total / weightSum : total;
    }
  }
}

export interface FunctionScoreOptions {
  functions: FilteredFunction[];
  scoreMode: ScoreMode;
  boostMode: BoostMode;
  maxBoost: number;
  minScore?: number;
}

/** Elasticsearch's FunctionScoreQuery, compiled for one reader. */
export class FunctionScoreWeight implements Weight {
  /** The inner query's scores are only read when the boost mode combines them. */
  private readonly innerScores: boolean;

  constructor(
    readonly inner: Weight,
    readonly opts: FunctionScoreOptions,
  ) {
    // A script_score reading `_score` needs the inner scores even when they are replaced.
    this.innerScores = opts.boostMode !== 'replace' || opts.functions.some((x) => x.fn.needsScore === true);
  }

  /** Without scores and without min_score, the query is its inner query (createWeight). */
  private passThrough(needsScores: boolean): boolean {
    return !needsScores && this.opts.minScore === undefined;
  }

  private leaf(rs: ReaderSegment): LeafFunctions {
    const words = (rs.segment.maxDoc + 31) >>> 5;
    const fns: LeafFunction[] = [];
    const bits: (Uint32Array | null)[] = [];
    const weights: number[] = [];
    for (const { filter, fn } of this.opts.functions) {
      fns.push(fn.leaf(rs));
      weights.push(fn.weight);
      if (filter === null) bits.push(null);
      else {
        const b = new Uint32Array(words);
        filter.markDocs(rs, b);
        bits.push(b);
      }
    }
    return { fns, bits, weights };
  }

  scorer(rs: ReaderSegment, needsScores: boolean): Scorer | null {
    if (this.passThrough(needsScores)) return this.inner.scorer(rs, false);
    const inner = this.inner.scorer(rs, this.innerScores);
    if (!inner) return null;
    return new FunctionScoreScorer(inner, this.leaf(rs), this.opts, this.innerScores);
  }

  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    if (this.passThrough(needsScores)) return this.inner.matches(rs, false);
    return drain(this.scorer(rs, true), needsScores);
  }

  count(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    return this.opts.minScore === undefined ? this.inner.count(rs, excluded, passing) : -1;
  }

  minCount(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    return this.opts.minScore === undefined ? this.inner.minCount(rs, excluded, passing) : 0;
  }

  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    if (this.opts.minScore === undefined) {
      this.inner.markDocs(rs, bits);
      return;
    }
    markDocs(drain(this.scorer(rs, true), false).docs, bits);
  }
}

/** Every doc (and score) a scorer returns. */
function drain(s: Scorer | null, needsScores: boolean) {
  const out: number[] = [];
  const scores: number[] = [];
  if (s) {
    for (let d = s.nextDoc(); d !== NO_MORE_DOCS; d = s.nextDoc()) {
      if (needsScores) scores.push(s.score());
      out.push(d);
    }
  }
  return docs(Int32Array.from(out), needsScores ? Float64Array.from(scores) : null);
}

/** FunctionFactorScorer, with MinScoreScorer folded in when there is a min_score. */
class FunctionScoreScorer extends Scorer {
  readonly cost: number;
  private current = Number.NaN;

  constructor(
    private readonly inner: Scorer,
    private readonly leaf: LeafFunctions,
    private readonly opts: FunctionScoreOptions,
    private readonly innerScores: boolean,
  ) {
    super();
    this.cost = inner.cost;
  }

  nextDoc(): number {
    return this.settle(this.inner.nextDoc());
  }

  advance(target: number): number {
    return this.settle(this.inner.advance(target));
  }

  /** Moves on from `doc` to the first doc at or above min_score. */
  private settle(doc: number): number {
    const min = this.opts.minScore;
    this.current = Number.NaN;
    if (min === undefined) return this.at(doc);
    while (doc !== NO_MORE_DOCS) {
      this.doc = doc;
      const s = this.compute(doc);
      if (s >= min) {
        this.current = s;
        return this.at(doc);
      }
      doc = this.inner.nextDoc();
    }
    return this.at(NO_MORE_DOCS);
  }

  score(): number {
    if (Number.isNaN(this.current)) this.current = this.compute(this.doc);
    return this.current;
  }

  private compute(doc: number): number {
    const sub = this.innerScores ? f(this.inner.score()) : 0;
    if (this.leaf.fns.length === 0) return sub;
    const factor = factorOf(this.opts.scoreMode, this.leaf, doc, sub);
    const score = combine(this.opts.boostMode, sub, factor, this.opts.maxBoost);
    if (score < 0 || Number.isNaN(score)) {
      // These scores are invalid for score-ordered collection (TopScoreDocCollector).
      throw new ShoalError(
        'exception',
        `function score query returned an invalid score: ${javaFloat(score)} for doc: ${doc}`,
        500,
      );
    }
    return score;
  }

  maxScore(): number {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * Lucene's FunctionScoreQuery.boostByQuery: the positive query's docs, each scored
 * (float)(score × (matches negative ? negative_boost : 1) × boost); a negative or NaN product
 * scores 0. The negative query only decides membership.
 */
export class BoostingWeight implements Weight {
  constructor(
    readonly positive: Weight,
    readonly negative: Weight,
    readonly negativeBoost: number,
    readonly boost: number,
  ) {}

  private negativeBits(rs: ReaderSegment): Uint32Array {
    const bits = new Uint32Array((rs.segment.maxDoc + 31) >>> 5);
    this.negative.markDocs(rs, bits);
    return bits;
  }

  scoreOf(score: number, negative: boolean): number {
    const factor = score * (negative ? this.negativeBoost : 1);
    return factor >= 0 ? f(factor * this.boost) : 0;
  }

  scorer(rs: ReaderSegment, needsScores: boolean): Scorer | null {
    const inner = this.positive.scorer(rs, needsScores);
    if (!inner || !needsScores) return inner;
    return new BoostingScorer(inner, this.negativeBits(rs), this);
  }

  matches(rs: ReaderSegment, needsScores: boolean): Matches {
    const m = this.positive.matches(rs, needsScores);
    if (!needsScores) return m;
    const all = materialise(m, rs.segment.maxDoc, true);
    const bits = this.negativeBits(rs);
    const scores = new Float64Array(all.docs.length);
    for (let i = 0; i < scores.length; i++) {
      const d = all.docs[i]!;
      scores[i] = this.scoreOf(all.scores?.[i] ?? 0, (bits[d >>> 5]! & (1 << (d & 31))) !== 0);
    }
    return docs(all.docs, scores);
  }

  count(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    return this.positive.count(rs, excluded, passing);
  }

  minCount(rs: ReaderSegment, excluded: Uint32Array | null, passing: number): number {
    return this.positive.minCount(rs, excluded, passing);
  }

  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    this.positive.markDocs(rs, bits);
  }
}

class BoostingScorer extends Scorer {
  readonly cost: number;

  constructor(
    private readonly inner: Scorer,
    private readonly negative: Uint32Array,
    private readonly weight: BoostingWeight,
  ) {
    super();
    this.cost = inner.cost;
  }

  nextDoc(): number {
    return this.at(this.inner.nextDoc());
  }

  advance(target: number): number {
    return this.at(this.inner.advance(target));
  }

  score(): number {
    const d = this.doc;
    return this.weight.scoreOf(f(this.inner.score()), (this.negative[d >>> 5]! & (1 << (d & 31))) !== 0);
  }

  maxScore(): number {
    return Number.POSITIVE_INFINITY;
  }
}
