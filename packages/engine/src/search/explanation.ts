/**
 * Lucene's Explanation as `_explain` answers it, and what explaining one document needs. Values
 * are floats printed as Java prints them (the shortest decimal that reads back as the float).
 */
import { notImplemented, shortestFloatDecimal } from '@shoal/protocol';
import type { ReaderSegment, ShardReader } from '../index/shard-reader.ts';
import type { TextEnv } from './explain-text.ts';
import type { Weight } from './weights.ts';

export interface Explanation {
  value: number;
  description: string;
  details: Explanation[];
}

export interface Explained {
  matched: boolean;
  e: Explanation;
}

/** One explanation's inputs: the segment and doc, and how to print and explain sub-weights. */
export interface ExplainEnv extends TextEnv {
  reader: ShardReader;
  rs: ReaderSegment;
  /** The doc, segment-local. */
  d: number;
  /** Explains a sub-weight for the same doc. */
  explain(w: Weight): Explained;
}

export function ex(value: number, description: string, details: Explanation[] = []): Explanation {
  return { value: shortestFloatDecimal(value), description, details };
}

export function match(value: number, description: string, details: Explanation[] = []): Explained {
  return { matched: true, e: ex(value, description, details) };
}

export function noMatch(description: string, details: Explanation[] = []): Explained {
  return { matched: false, e: ex(0, description, details) };
}

/** The weight's score of the doc, as its scorer computes it; null when it does not match. */
export function scoreOf(w: Weight, x: ExplainEnv): number | null {
  const s = w.scorer(x.rs, true);
  if (!s) return null;
  return s.advance(x.d) === x.d ? s.score() : null;
}

/** Whether the doc matches the weight, scores aside. */
export function matchesDoc(w: Weight, x: ExplainEnv): boolean {
  const s = w.scorer(x.rs, false);
  return s !== null && s.advance(x.d) === x.d;
}

/** 501 naming the query a weight came from: its scoring is not written out. */
export function unexplained(w: Weight, x: TextEnv): never {
  const node = x.sources.get(w);
  throw notImplemented(`explaining a [${node?.type ?? w.constructor.name}] query`);
}
