/**
 * BM25 explanations of term and phrase weights, as Lucene's TermWeight / PhraseWeight#explain
 * and BM25Similarity word them; the values are the ones the scorers compute.
 */
import { NORM_LENGTH_TABLE } from '../index/norms.ts';
import { B, idf as bm25Idf, K1 } from './bm25.ts';
import { type ExplainEnv, type Explained, type Explanation, ex, match, noMatch } from './explanation.ts';
import type { PhraseWeight } from './phrase-weight.ts';
import { docFreq, fieldStats, termOrdinal } from './term-stats.ts';
import type { TermWeight } from './weights.ts';

const f = Math.fround;

/** Float.toString of a frequency: `2.0`. */
function freqText(freq: number): string {
  return Number.isInteger(freq) ? freq.toFixed(1) : String(f(freq));
}

function idfOf(value: number, n: number, docCount: number): Explanation {
  return ex(value, 'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:', [
    ex(n, 'n, number of documents containing term'),
    ex(docCount, 'N, total number of documents with field'),
  ]);
}

/** BM25Similarity's score explanation for a frequency explanation and a norm byte. */
function bm25Score(
  x: ExplainEnv,
  field: string,
  boost: number,
  idf: Explanation,
  freq: Explanation,
  normByte: number,
  score: number,
): Explanation {
  const stats = fieldStats(x.reader, field);
  const avgdl = f(stats.sumTotalTermFreq / stats.docCount);
  const dl = f(NORM_LENGTH_TABLE[normByte]!);
  const k1 = f(K1);
  const b = f(B);
  const normValue = f(k1 * f(f(1 - b) + f(f(b * dl) / avgdl)));
  const fv = freq.value;
  const tf = f(fv / (fv + normValue));
  const tfExpl = ex(tf, 'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:', [
    freq,
    ex(k1, 'k1, term saturation parameter'),
    ex(b, 'b, length normalization parameter'),
    ex(dl, normByte > 39 ? 'dl, length of field (approximate)' : 'dl, length of field'),
    ex(avgdl, 'avgdl, average length of field'),
  ]);
  return ex(score, `score(freq=${freqText(fv)}), computed as boost * idf * tf from:`, [
    ex(boost, 'boost'),
    idf,
    tfExpl,
  ]);
}

/** Lucene's TermWeight#explain with BM25Similarity's explanation of the score. */
export function explainTerm(w: TermWeight, x: ExplainEnv): Explained {
  const { rs, d } = x;
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
  const stats = fieldStats(x.reader, w.field);
  const idf = idfOf(w.bm25.idf, termDocFreq(w, x, stats.docCount), stats.docCount);
  const freqExpl = ex(freq, 'freq, occurrences of term within document');
  return match(score, `weight(${w.field}:${w.term} in ${d}) [PerFieldSimilarity], result of:`, [
    bm25Score(x, w.field, w.bm25.boost, idf, freqExpl, normByte, score),
  ]);
}

/**
 * The document frequency the term's idf was computed from: the index's, or the one a blended
 * query (cross_fields) gave it, recovered from the idf (idf = ln(1 + (N - n + 0.5) / (n + 0.5))).
 */
function termDocFreq(w: TermWeight, x: ExplainEnv, docCount: number): number {
  const n = docFreq(x.reader, w.field, w.term);
  if (bm25Idf(n, docCount) === w.bm25.idf) return n;
  const blended = Math.round((docCount + 1) / Math.exp(w.bm25.idf) - 0.5);
  return bm25Idf(blended, docCount) === w.bm25.idf ? blended : n;
}

/** Lucene's PhraseWeight#explain: BM25 over the phrase frequency, idf summed over its terms. */
export function explainPhrase(w: PhraseWeight, x: ExplainEnv): Explained {
  const { rs, d } = x;
  const freq = w.freqOf(rs, d);
  if (freq <= 0) return noMatch('no matching term');
  const p = rs.segment.field(w.field)?.postings;
  const normByte = p?.norms ? p.norms[d]! : 1;
  const score = w.bm25.score(freq, normByte);
  const stats = fieldStats(x.reader, w.field);
  const idfs = w.positions.flatMap((pos) =>
    pos.terms.map((term) => {
      const n = docFreq(x.reader, w.field, term);
      return idfOf(bm25Idf(n, stats.docCount), n, stats.docCount);
    }),
  );
  const idf = ex(w.bm25.idf, 'idf, sum of:', idfs);
  const freqExpl = ex(freq, `phraseFreq=${freqText(freq)}`);
  const terms = w.positions.map((pos) =>
    pos.terms.length === 1 ? pos.terms[0]! : `(${pos.terms.join(' ')})`,
  );
  const text = `${w.field}:"${terms.join(' ')}"${w.slop === 0 ? '' : `~${w.slop}`}`;
  return match(score, `weight(${text} in ${d}) [PerFieldSimilarity], result of:`, [
    bm25Score(x, w.field, w.bm25.boost, idf, freqExpl, normByte, score),
  ]);
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
