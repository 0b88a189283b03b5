/**
 * `_explain`: how one document scores against a query, worded as Lucene's Weight#explain (and
 * Elasticsearch's for function_score). The explanation is read off the same compiled Weights
 * the query phase scores with, and every compound level takes its value from the weight's own
 * scorer, so the top value is the document's `_score`. A weight whose scoring is not written
 * out here answers 501 naming its query rather than an explanation that would not be the
 * engine's.
 */
import { type QueryNode, shortestFloatDecimal } from '@shoal/protocol';
import type { IndexMapping, QueryLimits } from '../contract.ts';
import type { ReaderSegment, ShardReader } from '../index/shard-reader.ts';
import { withRuntimeFields } from '../runtime/runtime-view.ts';
import { BoolWeight } from './bool-weight.ts';
import type { CompileEnv } from './compile-env.ts';
import { DisMaxWeight } from './dis-max-weight.ts';
import { explainPhrase, explainTerm } from './explain-bm25.ts';
import { explainBoosting, explainFunctionScore } from './explain-functions.ts';
import { boostSuffix, constantText, queryString } from './explain-text.ts';
import {
  type ExplainEnv,
  type Explained,
  type Explanation,
  ex,
  match,
  noMatch,
  scoreOf,
  unexplained,
} from './explanation.ts';
import { BoostingWeight, FunctionScoreWeight } from './function-score.ts';
import { PhraseWeight } from './phrase-weight.ts';
import { compileQuery } from './query-compiler.ts';
import type { QueryContext } from './query-phase.ts';
import { type ReadRestriction, restrictedReader } from './restricted-reader.ts';
import { topLevelFields } from './top-level-fields.ts';
import {
  ConstantScoreWeight,
  ConstantWeight,
  MatchAllWeight,
  MatchNoneWeight,
  TermWeight,
  type Weight,
} from './weights.ts';

export type { Explanation } from './explanation.ts';

export interface ExplainResult {
  /** Whether a live document has the id. */
  found: boolean;
  matched: boolean;
  /** Present when the document was found. */
  explanation?: Explanation;
  /** The document's reader-global number (for fetching its source). */
  doc?: number;
}

export function explainQuery(
  reader: ShardReader,
  mapping: IndexMapping,
  query: QueryNode,
  id: string,
  ctx: QueryContext,
  limits?: QueryLimits,
  restriction: ReadRestriction = {},
): ExplainResult {
  const explainer = compileExplainer(reader, mapping, query, ctx, limits, restriction);
  for (const rs of explainer.reader.segments) {
    const d = rs.segment.docOfId(id);
    if (d < 0 || !rs.liveDocs.isLive(d)) continue;
    const explanation = explainer.explain(rs, d);
    return { found: true, matched: explanation.matched, explanation: explanation.e, doc: rs.docBase + d };
  }
  return { found: false, matched: false };
}

/** The query compiled once against the reader the request may see, to explain any of its documents. */
export function compileExplainer(
  reader: ShardReader,
  mapping: IndexMapping,
  query: QueryNode,
  ctx: QueryContext,
  limits?: QueryLimits,
  restriction: ReadRestriction = {},
): { reader: ShardReader; explain: (rs: ReaderSegment, d: number) => Explained } {
  // Runtime fields of the mapping, as the query phase sees them; the documents and fields the
  // request may see, as the query phase does too.
  ({ reader, mapping } = withRuntimeFields(
    restrictedReader(reader, mapping, restriction, ctx),
    mapping,
    undefined,
    ctx.index,
  ));
  const sources = new WeakMap<Weight, QueryNode>();
  const env: CompileEnv = {
    reader,
    mapping: topLevelFields(mapping),
    index: ctx.index,
    indexUuid: ctx.indexUuid,
    nowMillis: ctx.nowMillis,
    shardId: ctx.shardId,
    sources,
    ...(limits ? { limits } : {}),
  };
  const weight = compileQuery(query, env);
  const r = reader;
  return {
    reader,
    explain: (rs, d) => {
      const x: ExplainEnv = { env, sources, reader: r, rs, d, explain: (w) => explainWeight(w, x) };
      return explainWeight(weight, x);
    },
  };
}

export function explainWeight(w: Weight, x: ExplainEnv): Explained {
  if (w instanceof MatchAllWeight) return match(w.score, `*:*${boostSuffix(w.score)}`);
  if (w instanceof MatchNoneWeight) return noMatch('no matching docs');
  if (w instanceof TermWeight) return explainTerm(w, x);
  if (w instanceof PhraseWeight) return explainPhrase(w, x);
  if (w instanceof ConstantWeight || w instanceof ConstantScoreWeight) return explainConstant(w, x);
  if (w instanceof BoolWeight) return explainBool(w, x);
  if (w instanceof DisMaxWeight) return explainDisMax(w, x);
  if (w instanceof FunctionScoreWeight) return explainFunctionScore(w, x);
  if (w instanceof BoostingWeight) return explainBoosting(w, x);
  return unexplained(w, x);
}

/** Lucene's ConstantScoreWeight#explain: the query and its boost, or why it does not match. */
function explainConstant(w: ConstantWeight | ConstantScoreWeight, x: ExplainEnv): Explained {
  const text = constantText(w, x);
  const score = scoreOf(w, x);
  if (score === null) return noMatch(`${text} doesn't match id ${x.d}`);
  return match(score, `${text}${boostSuffix(w.score)}`);
}

/**
 * Lucene's BooleanWeight#explain, over the clauses in the order Elasticsearch adds them (must,
 * must_not, should, filter): the scoring clauses summed, filters shown with 0. A bool of one
 * clause is explained as BooleanQuery#rewrite leaves it: the clause itself (a lone filter as a
 * constant score of 0).
 */
function explainBool(w: BoolWeight, x: ExplainEnv): Explained {
  const clauses = w.must.length + w.mustNot.length + w.should.length + w.filter.length;
  if (clauses === 1 && w.must.length === 1) return explainWeight(w.must[0]!, x);
  if (clauses === 1 && w.should.length === 1 && w.minShouldMatch <= 1) return explainWeight(w.should[0]!, x);
  if (clauses === 1 && w.filter.length === 1) {
    const text = `ConstantScore(${queryString(w.filter[0]!, x)})`;
    const inner = explainWeight(w.filter[0]!, x);
    return inner.matched ? match(0, `${text}^0.0`) : noMatch(`${text} doesn't match id ${x.d}`);
  }
  const subs: Explanation[] = [];
  let fail = false;
  let matchCount = 0;
  let shouldMatchCount = 0;
  const clause = (c: Weight, occur: 'must' | 'must_not' | 'should' | 'filter') => {
    const e = explainWeight(c, x);
    if (e.matched) {
      if (occur === 'must' || occur === 'should') subs.push(e.e);
      else if (occur === 'filter')
        subs.push(ex(0, 'match on required clause, product of:', [ex(0, '# clause'), e.e]));
      else {
        subs.push(ex(0, `match on prohibited clause (${queryString(c, x)})`, [e.e]));
        fail = true;
      }
      if (occur !== 'must_not') matchCount++;
      if (occur === 'should') shouldMatchCount++;
    } else if (occur === 'must' || occur === 'filter') {
      subs.push(ex(0, `no match on required clause (${queryString(c, x)})`, [e.e]));
      fail = true;
    }
  };
  for (const c of w.must) clause(c, 'must');
  for (const c of w.mustNot) clause(c, 'must_not');
  for (const c of w.should) clause(c, 'should');
  for (const c of w.filter) clause(c, 'filter');
  if (fail) return noMatch('Failure to meet condition(s) of required/prohibited clause(s)', subs);
  if (matchCount === 0) return noMatch('No matching clauses', subs);
  if (shouldMatchCount < w.minShouldMatch) {
    return noMatch(`Failure to match minimum number of optional clauses: ${w.minShouldMatch}`, subs);
  }
  const score = scoreOf(w, x);
  // The clauses say it matches; the scorer must agree, or the explanation would not be the engine's.
  if (score === null) return unexplained(w, x);
  return match(score, 'sum of:', subs);
}

/** Lucene's DisjunctionMaxWeight#explain: the best clause plus tie_breaker × the others. */
function explainDisMax(w: DisMaxWeight, x: ExplainEnv): Explained {
  const subs: Explanation[] = [];
  for (const c of w.clauses) {
    const e = explainWeight(c, x);
    if (e.matched) subs.push(e.e);
  }
  if (subs.length === 0) return noMatch('No matching clause');
  const score = scoreOf(w, x);
  if (score === null) return unexplained(w, x);
  if (w.clauses.length === 1) return { matched: true, e: subs[0]! };
  const desc = w.tieBreaker === 0 ? 'max of:' : `max plus ${javaFloatText(w.tieBreaker)} times others of:`;
  return match(score, desc, subs);
}

function javaFloatText(v: number): string {
  const s = String(shortestFloatDecimal(v));
  return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}
