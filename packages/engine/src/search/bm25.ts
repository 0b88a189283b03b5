/**
 * Lucene's BM25Similarity (k1 = 1.2, b = 0.75) in float arithmetic, as Elasticsearch scores
 * by default: idf = ln(1 + (N - n + 0.5) / (n + 0.5)), and since Lucene 8 the (k1 + 1)
 * factor of the textbook numerator is dropped (it does not change the ranking):
 *   score = boost·idf · freq / (freq + k1·(1 - b + b·dl/avgdl))
 * computed as `weight - weight / (1 + freq · normInverse)` with a 256-entry cache indexed by
 * the one-byte norm, exactly like BM25Scorer. Statistics are per shard over the reader,
 * deleted docs included (Lucene does not adjust term statistics for deletions).
 */
import { NORM_LENGTH_TABLE } from '../index/norms.ts';

const f = Math.fround;
export const K1 = 1.2;
export const B = 0.75;

export interface CollectionStats {
  /** Docs that have the field. */
  docCount: number;
  sumTotalTermFreq: number;
}

export function idf(docFreq: number, docCount: number): number {
  return f(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
}

export function avgFieldLength(stats: CollectionStats): number {
  return f(stats.sumTotalTermFreq / stats.docCount);
}

/**
 * The norm table depends on the field's average length only; statistics objects are cached
 * per reader (term-stats.ts), so their tables are computed once per reader and field.
 */
const normInverseCache = new WeakMap<CollectionStats, Float64Array>();

function normInverseTable(avgdl: number): Float64Array {
  const cache = new Float64Array(256);
  const k1 = f(K1);
  const b = f(B);
  const oneMinusB = f(1 - b);
  for (let i = 0; i < 256; i++) {
    cache[i] = f(1 / f(k1 * f(oneMinusB + f(f(b * NORM_LENGTH_TABLE[i]!) / avgdl))));
  }
  return cache;
}

export class Bm25Scorer {
  readonly weight: number;
  /** The query boost and the term's idf the weight is their product of (explanations show them). */
  readonly boost: number;
  readonly idf: number;
  /** 1 / (k1 · ((1 - b) + b · length / avgdl)) per norm byte. */
  readonly normInverse: Float64Array;

  constructor(boost: number, idfValue: number, stats: CollectionStats) {
    this.boost = boost;
    this.idf = idfValue;
    this.weight = f(boost * idfValue);
    let cache = normInverseCache.get(stats);
    if (!cache) {
      cache = normInverseTable(avgFieldLength(stats));
      normInverseCache.set(stats, cache);
    }
    this.normInverse = cache;
  }

  /** `normByte` is 1 for fields without norms (keyword), as Lucene's LeafSimScorer does. */
  score(freq: number, normByte: number): number {
    const w = this.weight;
    return f(w - f(w / f(1 + f(freq * this.normInverse[normByte]!))));
  }
}
