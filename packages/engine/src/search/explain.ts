/**
 * `_explain`: how one document scores against a query, worded as Lucene's Weight#explain.
 * The explanation is read off the same compiled Weights the query phase scores with, so its
 * top value is the document's `_score`. Only the weights whose scoring is written out here are
 * explained (match_all, match_none, term and match on text and keyword fields, bool,
 * constant_score); any other query answers 501 rather than an explanation that would not be
 * the engine's.
 */
import { javaFloat, notImplemented, type QueryNode, shortestFloatDecimal } from '@shoal/protocol';
import type { IndexMapping, QueryLimits } from '../contract.ts';
import { NORM_LENGTH_TABLE } from '../index/norms.ts';
import type { ReaderSegment, ShardReader } from '../index/shard-reader.ts';
import { withRuntimeFields } from '../runtime/runtime-view.ts';
import { B, K1 } from './bm25.ts';
import { BoolWeight } from './bool-weight.ts';
import { compileQuery } from './query-compiler.ts';
import type { QueryContext } from './query-phase.ts';
import { type ReadRestriction, restrictedReader } from './restricted-reader.ts';
import { docFreq, fieldStats, termOrdinal } from './term-stats.ts';
import { topLevelFields } from './top-level-fields.ts';
import { ConstantScoreWeight, MatchAllWeight, MatchNoneWeight, TermWeight, type Weight } from './weights.ts';

const f = Math.fround;

export interface Explanation {
  value: number;
  description: string;
  details: Explanation[];
}

export interface ExplainResult {
  /** Whether a live document has the id. */
  found: boolean;
  matched: boolean;
  /** Present when the document was found. */
  explanation?: Explanation;
  /** The document's reader-global number (for fetching its source). */
  doc?: number;
}

/** Query types whose compiled weights are explained; others answer 501 before compiling. */
const EXPLAINED = new Set(['match_all', 'match_none', 'term', 'match', 'bool', 'constant_score']);

/** Throws 501 for the first query in the tree that is not explained. */
export function checkExplainable(node: QueryNode): void {
  if (!EXPLAINED.has(node.type)) throw notImplemented(`explaining a [${node.type}] query`);
  if (node.type === 'match' && node.fuzziness !== undefined) {
    throw notImplemented('explaining a [match] query with [fuzziness]');
  }
  if (node.type === 'bool') {
    for (const c of [...node.must, ...node.filter, ...node.should, ...node.mustNot]) checkExplainable(c);
  }
  if (node.type === 'constant_score') checkExplainable(node.filter);
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
  checkExplainable(query);
  // Runtime fields of the mapping, as the query phase sees them; the documents and fields the
  // request may see, as the query phase does too.
  ({ reader, mapping } = withRuntimeFields(
    restrictedReader(reader, mapping, restriction, ctx),
    mapping,
    undefined,
    ctx.index,
  ));
  const env = {
    reader,
    mapping: topLevelFields(mapping),
    index: ctx.index,
    indexUuid: ctx.indexUuid,
    nowMillis: ctx.nowMillis,
    shardId: ctx.shardId,
    ...(limits ? { limits } : {}),
  };
  const weight = compileQuery(query, env);
  for (const rs of reader.segments) {
    const d = rs.segment.docOfId(id);
    if (d < 0 || !rs.liveDocs.isLive(d)) continue;
    const explanation = explainWeight(weight, rs, d, reader);
    return { found: true, matched: explanation.matched, explanation: explanation.e, doc: rs.docBase + d };
  }
  return { found: false, matched: false };
}

interface Explained {
  matched: boolean;
  e: Explanation;
}

function ex(value: number, description: string, details: Explanation[] = []): Explanation {
  return { value: shortestFloatDecimal(value), description, details };
}

function match(value: number, description: string, details: Explanation[] = []): Explained {
  return { matched: true, e: ex(value, description, details) };
}

function noMatch(description: string, details: Explanation[] = []): Explained {
  return { matched: false, e: ex(0, description, details) };
}

/** The weight's score of segment doc `d`, as its scorer computes it; null when it does not match. */
function scoreOf(w: Weight, rs: ReaderSegment, d: number): number | null {
  const s = w.scorer(rs, true);
  if (!s) return null;
  return s.advance(d) === d ? s.score() : null;
}

function unexplained(): never {
  throw notImplemented(
    'explaining this query (explained: match_all, match_none, term and match on text and keyword fields, bool, constant_score)',
  );
}

function boostSuffix(boost: number): string {
  return boost === 1 ? '' : `^${javaFloat(boost)}`;
}

/** Lucene's Query#toString of the weight's query. */
export function queryString(w: Weight): string {
  if (w instanceof MatchAllWeight) return `*:*${boostSuffix(w.score)}`;
  if (w instanceof MatchNoneWeight) return 'MatchNoDocsQuery("")';
  if (w instanceof TermWeight) {
    const plain = `${w.field}:${w.term}`;
    return w.bm25.boost === 1 ? plain : `(${plain})${boostSuffix(w.bm25.boost)}`;
  }
  if (w instanceof ConstantScoreWeight)
    return `ConstantScore(${queryString(w.inner)})${boostSuffix(w.score)}`;
  if (w instanceof BoolWeight) {
    const part = (prefix: string) => (c: Weight) => {
      const s = queryString(c);
      return `${prefix}${c instanceof BoolWeight ? `(${s})` : s}`;
    };
    const clauses = [
      ...w.must.map(part('+')),
      ...w.should.map(part('')),
      ...w.mustNot.map(part('-')),
      ...w.filter.map(part('#')),
    ];
    const msm = w.minShouldMatch > 0 && w.must.length + w.filter.length > 0 ? `~${w.minShouldMatch}` : '';
    return `${clauses.join(' ')}${msm}`;
  }
  return unexplained();
}

export function explainWeight(w: Weight, rs: ReaderSegment, d: number, reader: ShardReader): Explained {
  if (w instanceof MatchAllWeight) return match(w.score, queryString(w));
  if (w instanceof MatchNoneWeight) return noMatch('no matching docs');
  if (w instanceof TermWeight) return explainTerm(w, rs, d, reader);
  if (w instanceof ConstantScoreWeight) {
    const inner = explainWeight(w.inner, rs, d, reader);
    if (!inner.matched) return inner;
    return match(w.score, queryString(w));
  }
  if (w instanceof BoolWeight) return explainBool(w, rs, d, reader);
  return unexplained();
}

/** Lucene's TermWeight#explain with BM25Similarity's explanation of the score. */
function explainTerm(w: TermWeight, rs: ReaderSegment, d: number, reader: ShardReader): Explained {
  const p = rs.segment.field(w.field)?.postings;
  const t = termOrdinal(p, w.term);
  if (!p || t < 0) return noMatch('no matching term');
  const from = p.starts[t]!;
  const to = p.starts[t + 1]!;
  const at = lowerBound(p.docs, from, to, d);
  if (at >= to || p.docs[at] !== d) return noMatch('no matching term');
  const freq = p.freqs ? p.freqs[at]! : 1;
  const normByte = p.norms ? p.norms[d]! : 1;
  const score = w.bm25.score(freq, normByte);
  const stats = fieldStats(reader, w.field);
  const n = docFreq(reader, w.field, w.term);
  const avgdl = f(stats.sumTotalTermFreq / stats.docCount);
  const dl = f(NORM_LENGTH_TABLE[normByte]!);
  const k1 = f(K1);
  const b = f(B);
  const normValue = f(k1 * f(f(1 - b) + f(f(b * dl) / avgdl)));
  const tf = f(freq / (freq + normValue));
  const idf = ex(w.bm25.idf, 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:', [
    ex(n, 'n, number of documents containing term'),
    ex(stats.docCount, 'N, total number of documents with field'),
  ]);
  const tfExpl = ex(tf, 'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:', [
    ex(freq, 'freq, occurrences of term within document'),
    ex(k1, 'k1, term saturation parameter'),
    ex(b, 'b, length normalization parameter'),
    ex(dl, normByte > 39 ? 'dl, length of field (approximate)' : 'dl, length of field'),
    ex(avgdl, 'avgdl, average length of field'),
  ]);
  const freqText = Number.isInteger(freq) ? freq.toFixed(1) : String(freq);
  const scoreExpl = ex(score, `score(freq=${freqText}), computed as boost * idf * tf from:`, [
    ex(w.bm25.boost, 'boost'),
    idf,
    tfExpl,
  ]);
  return match(score, `weight(${w.field}:${w.term} in ${d}) [PerFieldSimilarity], result of:`, [scoreExpl]);
}

/** Lucene's BooleanWeight#explain: the scoring clauses summed, filters shown with 0. */
function explainBool(w: BoolWeight, rs: ReaderSegment, d: number, reader: ShardReader): Explained {
  const subs: Explanation[] = [];
  for (const c of w.must) {
    const e = explainWeight(c, rs, d, reader);
    if (!e.matched) return noMatch(`no match on required clause (${queryString(c)})`, [e.e]);
    subs.push(e.e);
  }
  for (const c of w.filter) {
    const e = explainWeight(c, rs, d, reader);
    if (!e.matched) return noMatch(`no match on required clause (${queryString(c)})`, [e.e]);
    subs.push(ex(0, 'match on required clause, product of:', [ex(0, '# clause'), e.e]));
  }
  for (const c of w.mustNot) {
    const e = explainWeight(c, rs, d, reader);
    if (e.matched) return noMatch(`match on prohibited clause (${queryString(c)})`, [e.e]);
  }
  let shouldMatched = 0;
  for (const c of w.should) {
    const e = explainWeight(c, rs, d, reader);
    if (e.matched) {
      subs.push(e.e);
      shouldMatched++;
    }
  }
  if (w.minShouldMatch > 0 && shouldMatched === 0) return noMatch('No matching clauses');
  if (shouldMatched < w.minShouldMatch) {
    return noMatch('Failure to meet condition(s) of required/prohibited clause(s)');
  }
  const score = scoreOf(w, rs, d);
  // The clauses say it matches; the scorer must agree, or the explanation would not be the engine's.
  if (score === null) return unexplained();
  return match(score, 'sum of:', subs);
}

function lowerBound(docs: ArrayLike<number>, from: number, to: number, d: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < d) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
