/**
 * Full-text queries: the query text is analysed with the field's search analyzer (or the
 * query's `analyzer`), then becomes a term, a boolean of terms (operator and
 * minimum_should_match), or a phrase, as Elasticsearch's MatchQueryParser builds them.
 * Non-text fields get a term query on the whole value (`lenient` turns bad values into no
 * match). Tokens at the same position (synonyms) are OR-ed.
 */
import { type FieldBoost, isShoalError, type JsonScalar, queryShardException } from '@shoal/protocol';
import { getAnalyzer } from '../analysis/index.ts';
import type { Analyzer, ResolvedField } from '../contract.ts';
import { compareTerms, lowerBound } from '../index/term-order.ts';
import { Bm25Scorer, idf } from './bm25.ts';
import { BoolWeight } from './bool-weight.ts';
import type { CompileEnv } from './compile-env.ts';
import { checkSearchable, scalarText } from './field-values.ts';
import { DEFAULT_FUZZY, type FuzzyOptions, fuzzyQuery } from './fuzzy.ts';
import { minimumShouldMatch } from './minimum-should-match.ts';
import { type PhrasePosition, PhraseWeight } from './phrase-weight.ts';
import { scoredTerm, termQuery } from './term-level.ts';
import { docFreq, fieldStats } from './term-stats.ts';
import { MatchAllWeight, MatchNoneWeight, type Weight } from './weights.ts';

const f = Math.fround;
export const NONE: Weight = new MatchNoneWeight();

export interface MatchOptions {
  operator: 'or' | 'and';
  minimumShouldMatch?: string;
  analyzer?: string;
  lenient: boolean;
  zeroTermsQuery: 'none' | 'all';
  /** `fuzziness` and its options: every term then matches the terms within that many edits. */
  fuzziness?: string;
  prefixLength?: number;
  maxExpansions?: number;
  fuzzyTranspositions?: boolean;
  fuzzyRewrite?: string;
}

/** The fuzzy options of a match, or undefined when it has no `fuzziness`. */
export function fuzzyOptions(opts: MatchOptions): FuzzyOptions | undefined {
  if (opts.fuzziness === undefined) return undefined;
  return {
    fuzziness: opts.fuzziness,
    prefixLength: opts.prefixLength ?? DEFAULT_FUZZY.prefixLength,
    maxExpansions: opts.maxExpansions ?? DEFAULT_FUZZY.maxExpansions,
    transpositions: opts.fuzzyTranspositions ?? DEFAULT_FUZZY.transpositions,
    ...(opts.fuzzyRewrite !== undefined && { rewrite: opts.fuzzyRewrite }),
  };
}

export function searchAnalyzer(env: CompileEnv, field: ResolvedField, override?: string): Analyzer {
  const name = override ?? field.searchAnalyzer ?? field.analyzer ?? 'default';
  const a = getAnalyzer(name);
  if (!a) throw queryShardException(`[match] analyzer [${name}] not found`, env.index, env.indexUuid);
  return a;
}

/** Runs `build`; with `lenient`, a value the field cannot parse matches nothing instead of failing. */
export function lenientQuery(lenient: boolean, build: () => Weight): Weight {
  try {
    return build();
  } catch (e) {
    if (lenient && isShoalError(e)) return NONE;
    throw e;
  }
}

/** Analysed tokens grouped by position: [[terms at p0], [terms at p1], …] with positions. */
export function analyseGroups(analyzer: Analyzer, text: string): { position: number; terms: string[] }[] {
  const groups: { position: number; terms: string[] }[] = [];
  for (const t of analyzer.analyze(text)) {
    const last = groups[groups.length - 1];
    if (last && last.position === t.position) {
      if (!last.terms.includes(t.term)) last.terms.push(t.term);
    } else groups.push({ position: t.position, terms: [t.term] });
  }
  return groups;
}

/** A text field mapped with `index: false`: its query fails, unless it is lenient. */
function notSearchable(env: CompileEnv, field: ResolvedField): Weight {
  checkSearchable(env, field);
  return NONE;
}

function zeroTerms(opts: { zeroTermsQuery: 'none' | 'all' }, boost: number): Weight {
  return opts.zeroTermsQuery === 'all' ? new MatchAllWeight(f(boost)) : NONE;
}

/** One position's clause: a term (or its fuzzy expansion), or the OR of same-position synonyms. */
export function positionClause(
  env: CompileEnv,
  field: ResolvedField,
  terms: string[],
  boost: number,
  fuzzy?: FuzzyOptions,
): Weight {
  if (terms.length === 1) return termClause(env, field, terms[0]!, boost, fuzzy);
  const clauses: Weight[] = new Array(terms.length);
  for (let i = 0; i < terms.length; i++) clauses[i] = termClause(env, field, terms[i]!, boost, fuzzy);
  return new BoolWeight([], [], clauses, [], 1);
}

/** One term of a position: a scored term, or its fuzzy expansion. */
function termClause(
  env: CompileEnv,
  field: ResolvedField,
  term: string,
  boost: number,
  fuzzy: FuzzyOptions | undefined,
): Weight {
  return fuzzy ? fuzzyQuery(env, field, term, fuzzy, boost) : scoredTerm(env, field.path, term, boost);
}

/**
 * Combines per-position clauses with `operator` / `minimum_should_match`, as a match query does:
 * one position is its clause alone (minimum_should_match is not read), several are a bool of
 * required (`and`) or optional (`or`) clauses to which Queries.maybeApplyMinimumShouldMatch
 * applies the spec either way. With `and` there are no optional clauses: a positive integer
 * spec (`1`, `2`) leaves a bool that matches nothing, as in Elasticsearch, while percentages,
 * negative specs and conditional ones with bounds of 0 or more come to 0. `env` names the
 * shard in the error that a spec which does not parse raises.
 */
export function combineClauses(
  clauses: Weight[],
  operator: 'or' | 'and',
  msm: string | undefined,
  env?: CompileEnv,
): Weight {
  if (clauses.length === 1) return clauses[0]!;
  if (operator === 'and') return new BoolWeight(clauses, [], [], [], minimumShouldMatch(0, msm, env));
  const n = minimumShouldMatch(clauses.length, msm, env);
  return new BoolWeight([], [], clauses, [], n);
}

export function matchField(
  env: CompileEnv,
  field: ResolvedField,
  query: JsonScalar,
  opts: MatchOptions,
  boost: number,
): Weight {
  const fuzzy = fuzzyOptions(opts);
  if (field.type !== 'text') {
    return lenientQuery(opts.lenient, () =>
      fuzzy
        ? fuzzyQuery(env, field, scalarText(query), fuzzy, boost)
        : termQuery(env, field, query, boost, false),
    );
  }
  const groups = analyseGroups(searchAnalyzer(env, field, opts.analyzer), scalarText(query));
  if (groups.length === 0) return zeroTerms(opts, boost);
  if (!field.index) return lenientQuery(opts.lenient, () => notSearchable(env, field));
  const clauses = groups.map((g) => positionClause(env, field, g.terms, boost, fuzzy));
  return combineClauses(clauses, opts.operator, opts.minimumShouldMatch, env);
}

/** Up to `max` terms of the field (over the whole reader) starting with `prefix`, in term order. */
export function expandPrefix(env: CompileEnv, path: string, prefix: string, max = 50): string[] {
  const found = new Set<string>();
  for (const s of env.reader.segments) {
    const terms = s.segment.field(path)?.postings?.terms;
    if (!terms) continue;
    for (let i = lowerBound(terms, prefix); i < terms.length && terms[i]!.startsWith(prefix); i++)
      found.add(terms[i]!);
  }
  return [...found].sort(compareTerms).slice(0, max);
}

export interface PhraseOptions {
  slop: number;
  analyzer?: string;
  zeroTermsQuery: 'none' | 'all';
  /** match_phrase_prefix: the last position is a prefix expanded to at most `maxExpansions` terms. */
  prefix?: boolean;
  /** Default 50. */
  maxExpansions?: number;
  lenient?: boolean;
}

export function phraseField(
  env: CompileEnv,
  field: ResolvedField,
  query: JsonScalar,
  opts: PhraseOptions,
  boost: number,
): Weight {
  const maxExpansions = opts.maxExpansions ?? 50;
  if (field.type === 'keyword' && opts.prefix) {
    // The keyword analyzer's one token, as the prefix of a one-position phrase.
    const terms = expandPrefix(env, field.path, scalarText(query), maxExpansions);
    return terms.length === 0 ? NONE : positionClause(env, field, terms, boost);
  }
  if (field.type !== 'text') {
    return lenientQuery(opts.lenient ?? false, () => termQuery(env, field, query, boost, false));
  }
  const groups = analyseGroups(searchAnalyzer(env, field, opts.analyzer), scalarText(query));
  if (groups.length === 0) return zeroTerms(opts, boost);
  if (!field.index) return lenientQuery(opts.lenient ?? false, () => notSearchable(env, field));
  const first = groups[0]!.position;
  const positions: PhrasePosition[] = groups.map((g) => ({ terms: g.terms, offset: g.position - first }));
  if (opts.prefix) {
    // MultiPhrasePrefixQuery: the last position's prefixes expand to at most max_expansions terms.
    const last = positions[positions.length - 1]!;
    const expanded = new Set(last.terms.flatMap((t) => expandPrefix(env, field.path, t, maxExpansions)));
    last.terms = [...expanded].slice(0, maxExpansions);
    if (last.terms.length === 0) return NONE;
  }
  // One position (a MultiPhraseQuery of one position too) is the OR of its term queries.
  if (positions.length === 1) return positionClause(env, field, positions[0]!.terms, boost);
  // Phrase idf is the sum of its terms' idf (Lucene's PhraseWeight / MultiPhraseWeight).
  const stats = fieldStats(env.reader, field.path);
  let idfSum = 0;
  for (const p of positions)
    for (const t of p.terms) idfSum = f(idfSum + idf(docFreq(env.reader, field.path, t), stats.docCount));
  return new PhraseWeight(field.path, positions, opts.slop, new Bm25Scorer(boost, idfSum, stats));
}

/** What a query that names no field searches: the index's default fields. */
export const INDEX_DEFAULT_FIELDS: readonly FieldBoost[] = [{ field: '*', boost: 1, indexDefault: true }];

/**
 * The fields with the index's `index.query.default_field` in place of the `*` a query fell back
 * to (QueryParserHelper.parseFieldsAndWeights over the setting; boosts multiply).
 */
function withIndexDefaults(env: CompileEnv, fields: readonly FieldBoost[]): readonly FieldBoost[] {
  const defaults = env.limits?.defaultFields;
  if (!defaults || !fields.some((fb) => fb.indexDefault)) return fields;
  const out: FieldBoost[] = [];
  for (const fb of fields) {
    if (!fb.indexDefault) out.push(fb);
    else for (const d of defaults) out.push({ field: d.field, boost: Math.fround(d.boost * fb.boost) });
  }
  return out;
}

export interface ResolvedFieldBoost {
  field: ResolvedField;
  boost: number;
}

/**
 * Field names (with `*` patterns and boosts) resolved against the mapping. With the `*` field,
 * only text and keyword fields take part, and the query is lenient (index.query.default_field).
 */
export function resolveFields(
  env: CompileEnv,
  given: readonly FieldBoost[],
): { fields: ResolvedFieldBoost[]; lenient: boolean } {
  const out = new Map<string, ResolvedFieldBoost>();
  let lenient = false;
  for (const fb of withIndexDefaults(env, given)) {
    if (fb.field === '*' || fb.field === '*.*') {
      // QueryParserHelper.resolveMappingFields: every field with some text search (numbers,
      // dates, ips and booleans too; not geo points), the query made lenient.
      lenient = true;
      for (const rf of env.mapping.fieldsMatching('*')) {
        if (rf.type !== 'geo_point' && !out.has(rf.path)) out.set(rf.path, { field: rf, boost: fb.boost });
      }
    } else if (fb.field.includes('*')) {
      for (const rf of env.mapping.fieldsMatching(fb.field)) {
        if (rf.type !== 'geo_point' && !out.has(rf.path)) out.set(rf.path, { field: rf, boost: fb.boost });
      }
    } else {
      const rf = env.mapping.field(fb.field);
      if (rf && !out.has(rf.path)) out.set(rf.path, { field: rf, boost: fb.boost });
    }
  }
  return { fields: [...out.values()], lenient };
}
