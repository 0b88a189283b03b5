/**
 * Fuzzy term expansion, as Lucene's FuzzyQuery: the terms of the field within N edits of a term
 * (Damerau–Levenshtein when transpositions are allowed, Levenshtein otherwise) that share its
 * first `prefix_length` characters, each carrying the boost 1 - edits / min(lengths). How they
 * become a query is the rewrite method (QueryParsers.parseRewriteMethod); the default,
 * top_terms_blended_freqs of max_expansions, keeps the best terms and blends their document
 * frequency to the highest among them. Used by `fuzzy`, by `match` and `multi_match` with
 * `fuzziness`, and by the `~N` of simple_query_string.
 */
import { illegalArgument, isShoalError, numberFormat } from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import { BoolWeight } from './bool-weight.ts';
import type { CompileEnv } from './compile-env.ts';
import { checkSearchable, failedToCreateQuery } from './field-values.ts';
import { scoredTerm } from './term-level.ts';
import { docFreq } from './term-stats.ts';
import { ConstantScoreWeight, MatchNoneWeight, type Weight } from './weights.ts';

const f = Math.fround;

export interface FuzzyOptions {
  /** `AUTO`, `AUTO:low,high`, `0`, `1` or `2`. */
  fuzziness: string;
  prefixLength: number;
  maxExpansions: number;
  transpositions: boolean;
  /** The rewrite method's name; absent means top_terms_blended_freqs of max_expansions. */
  rewrite?: string;
}

export const DEFAULT_FUZZY: FuzzyOptions = {
  fuzziness: 'AUTO',
  prefixLength: 0,
  maxExpansions: 50,
  transpositions: true,
};

/** How the matching terms become a query. */
export type Rewrite =
  | { kind: 'blended' | 'scoring' | 'boost_only'; size: number }
  | { kind: 'scoring_boolean' | 'constant_boolean' | 'constant' };

/** Fuzziness.asDistance: AUTO gives 0 edits below `low` characters, 1 below `high`, else 2. */
export function fuzzyEdits(fuzziness: string, text: string): number {
  if (fuzziness.startsWith('AUTO')) {
    const [low, high] = fuzziness === 'AUTO' ? [3, 6] : fuzziness.slice(5).split(',').map(Number);
    const len = [...text].length;
    return len < low! ? 0 : len < high! ? 1 : 2;
  }
  return Math.min(2, Number(fuzziness));
}

/** QueryParsers.parseRewriteMethod, with FuzzyQuery's own default. */
export function parseRewrite(name: string | undefined, maxExpansions: number): Rewrite {
  if (name === undefined) return { kind: 'blended', size: maxExpansions };
  if (name === 'constant_score') return { kind: 'constant' };
  if (name === 'scoring_boolean') return { kind: 'scoring_boolean' };
  if (name === 'constant_score_boolean') return { kind: 'constant_boolean' };
  const digit = name.search(/\d/);
  if (digit >= 0) {
    const sizeText = name.slice(digit);
    // Integer.parseInt of the rest of the name.
    if (!/^[+-]?\d+$/.test(sizeText) || Math.abs(Number(sizeText)) > 2 ** 31 - 1)
      throw numberFormat(sizeText);
    const size = Number(sizeText);
    const prefix = name.slice(0, digit);
    if (prefix === 'top_terms_') return { kind: 'scoring', size };
    if (prefix === 'top_terms_boost_') return { kind: 'boost_only', size };
    if (prefix === 'top_terms_blended_freqs_') return { kind: 'blended', size };
  }
  throw illegalArgument(`Failed to parse rewrite_method [${name}]`);
}

/**
 * A fuzzy query over `term`, which is already in the field's indexed form (analysed, or
 * normalised by the caller).
 */
export function fuzzyQuery(
  env: CompileEnv,
  field: ResolvedField,
  term: string,
  opts: FuzzyOptions,
  boost: number,
): Weight {
  if (field.type !== 'text' && field.type !== 'keyword') {
    throw failedToCreateQuery(
      env,
      illegalArgument(
        `Can only use fuzzy queries on keyword and text fields - not on [${field.path}] which is of type [${field.type}]`,
      ),
    );
  }
  checkSearchable(env, field);
  if (opts.prefixLength < 0)
    throw failedToCreateQuery(env, illegalArgument('prefixLength cannot be negative.'));
  if (opts.maxExpansions <= 0)
    throw failedToCreateQuery(env, illegalArgument('maxExpansions must be positive.'));
  let rewrite: Rewrite;
  try {
    rewrite = parseRewrite(opts.rewrite, opts.maxExpansions);
  } catch (e) {
    throw isShoalError(e) ? failedToCreateQuery(env, e) : e;
  }
  const edits = fuzzyEdits(opts.fuzziness, term);
  let chosen = matchingTerms(env, field.path, term, edits, opts);
  if ('size' in rewrite) {
    // TopTermsRewrite keeps the highest boosts, the smaller term on a tie.
    chosen = chosen.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, rewrite.size);
  }
  if (chosen.length === 0) return new MatchNoneWeight();
  const clauses = termClauses(env, field.path, chosen, rewrite, boost);
  const query = clauses.length === 1 ? clauses[0]! : new BoolWeight([], [], clauses, [], 1);
  if (rewrite.kind === 'constant' || rewrite.kind === 'constant_boolean') {
    return new ConstantScoreWeight(query, f(boost));
  }
  return query;
}

export function termClauses(
  env: CompileEnv,
  path: string,
  chosen: [string, number][],
  rewrite: Rewrite,
  boost: number,
): Weight[] {
  switch (rewrite.kind) {
    case 'blended': {
      let maxDf = 0;
      for (const [t] of chosen) maxDf = Math.max(maxDf, docFreq(env.reader, path, t));
      return chosen.map(([t, b]) => scoredTerm(env, path, t, f(boost * b), maxDf));
    }
    case 'boost_only':
      return chosen.map(([t, b]) => new ConstantScoreWeight(scoredTerm(env, path, t, 1), f(boost * b)));
    default:
      return chosen.map(([t, b]) => scoredTerm(env, path, t, f(boost * b)));
  }
}

/** Every term of the field (over the whole reader) within `edits` of `term`, with its boost. */
function matchingTerms(
  env: CompileEnv,
  path: string,
  term: string,
  edits: number,
  opts: FuzzyOptions,
): [string, number][] {
  const target = [...term];
  const prefix = target.slice(0, opts.prefixLength).join('');
  // FuzzyQuery: no edits, or a prefix as long as the term, is the term itself.
  const exactOnly = edits === 0 || opts.prefixLength >= term.length;
  const seen = new Map<string, number>();
  for (const s of env.reader.segments) {
    const terms = s.segment.field(path)?.postings?.terms;
    if (!terms) continue;
    for (const t of terms) {
      if (seen.has(t)) continue;
      if (exactOnly) {
        if (t === term) seen.set(t, 1);
        continue;
      }
      if (!t.startsWith(prefix)) continue;
      const cps = [...t];
      if (Math.abs(cps.length - target.length) > edits) continue;
      const d = editDistance(cps, target, edits, opts.transpositions);
      if (d > edits) continue;
      const boost = d === 0 ? 1 : f(1 - f(d / Math.min(cps.length, target.length)));
      if (Number.isFinite(boost)) seen.set(t, boost);
    }
  }
  return [...seen.entries()];
}

/**
 * Edit distance (optimal string alignment when `transpositions`, else Levenshtein), giving up
 * (returning max + 1) once it exceeds `max`.
 */
export function editDistance(
  a: readonly string[],
  b: readonly string[],
  max: number,
  transpositions = true,
): number {
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
      if (transpositions && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, prev2[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m]!;
}
