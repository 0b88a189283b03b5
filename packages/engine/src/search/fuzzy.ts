/**
 * Fuzzy term expansion (the `~N` of simple_query_string), as Lucene's FuzzyQuery with its
 * default TopTermsBlendedFreqScoringRewrite: up to 50 terms within N edits (Damerau–Levenshtein
 * with transpositions), each a term query boosted by 1 - edits / min(length), with the
 * document frequency blended to the highest among them.
 */
import { queryShardException } from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import { BoolWeight } from './bool-weight.ts';
import type { CompileEnv } from './compile-env.ts';
import { checkSearchable } from './field-values.ts';
import { lowercases, scoredTerm } from './term-level.ts';
import { docFreq } from './term-stats.ts';
import { MatchNoneWeight, type Weight } from './weights.ts';

const MAX_EXPANSIONS = 50;

export function fuzzyQuery(
  env: CompileEnv,
  field: ResolvedField,
  text: string,
  edits: number,
  boost: number,
): Weight {
  if (field.type !== 'text' && field.type !== 'keyword') {
    throw queryShardException(
      `Can only use fuzzy queries on keyword and text fields - not on [${field.path}] which is of type [${field.type}]`,
      env.index,
      env.indexUuid,
    );
  }
  checkSearchable(env, field);
  const term =
    field.type === 'text' && lowercases(field.searchAnalyzer ?? field.analyzer) ? text.toLowerCase() : text;
  const target = [...term];
  const seen = new Map<string, number>();
  for (const s of env.reader.segments) {
    const terms = s.segment.field(field.path)?.postings?.terms;
    if (!terms) continue;
    for (const t of terms) {
      if (seen.has(t)) continue;
      const cps = [...t];
      if (Math.abs(cps.length - target.length) > edits) continue;
      const d = editDistance(cps, target, edits);
      if (d <= edits) seen.set(t, 1 - d / Math.min(cps.length, target.length));
    }
  }
  const chosen = [...seen.entries()]
    .filter(([, b]) => Number.isFinite(b))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_EXPANSIONS);
  if (chosen.length === 0) return new MatchNoneWeight();
  let maxDf = 0;
  for (const [t] of chosen) maxDf = Math.max(maxDf, docFreq(env.reader, field.path, t));
  const clauses = chosen.map(([t, b]) =>
    scoredTerm(env, field.path, t, Math.fround(boost * Math.fround(b)), maxDf),
  );
  return clauses.length === 1 ? clauses[0]! : new BoolWeight([], [], clauses, [], 1);
}

/** Optimal-string-alignment distance, giving up (returning max + 1) once it exceeds `max`. */
export function editDistance(a: readonly string[], b: readonly string[], max: number): number {
  const n = a.length;
  const m = b.length;
  let prev2 = new Int32Array(m + 1);
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m]!;
}
