/**
 * `multi_match`: the per-field queries of `match` / `match_phrase` combined per type —
 * best_fields and the phrase types as a dis_max with the tie_breaker, most_fields as their sum,
 * bool_prefix as a match whose last term is a prefix. cross_fields is term-centric: per analysed
 * term, a dis_max over the fields sharing an analyzer with the document frequency blended to the
 * highest one (Elasticsearch's BlendedTermQuery), and the terms combined with the operator.
 */
import type { JsonScalar, QueryNode } from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import { BoolWeight } from './bool-weight.ts';
import type { CompileEnv } from './compile-env.ts';
import { DisMaxWeight } from './dis-max-weight.ts';
import { scalarText } from './field-values.ts';
import {
  analyseGroups,
  combineClauses,
  fuzzyOptions,
  INDEX_DEFAULT_FIELDS,
  lenientQuery,
  type MatchOptions,
  matchField,
  NONE,
  phraseField,
  positionClause,
  type ResolvedFieldBoost,
  resolveFields,
  searchAnalyzer,
} from './full-text.ts';
import { prefixQuery, scoredTerm } from './term-level.ts';
import { docFreq, fieldStats } from './term-stats.ts';
import { MatchAllWeight, type Weight } from './weights.ts';

type MultiMatch = Extract<QueryNode, { type: 'multi_match' }>;
const f = Math.fround;

export function multiMatch(env: CompileEnv, node: MultiMatch, boost: number): Weight {
  // No fields: index.query.default_field.
  const resolved = resolveFields(env, node.fields.length > 0 ? node.fields : INDEX_DEFAULT_FIELDS);
  const lenient = node.lenient || resolved.lenient;
  const fields = resolved.fields;
  if (fields.length === 0) return NONE;
  const opts: MatchOptions = {
    operator: node.operator,
    minimumShouldMatch: node.minimumShouldMatch,
    analyzer: node.analyzer,
    lenient,
    zeroTermsQuery: node.zeroTermsQuery,
    fuzziness: node.fuzziness,
    prefixLength: node.prefixLength,
    maxExpansions: node.maxExpansions,
    fuzzyTranspositions: node.fuzzyTranspositions,
    fuzzyRewrite: node.fuzzyRewrite,
  };
  const fieldBoost = (fb: ResolvedFieldBoost) => f(boost * fb.boost);
  let clauses: Weight[];
  let tie = node.tieBreaker;
  switch (node.matchType) {
    case 'best_fields':
      clauses = fields.map((fb) => matchField(env, fb.field, node.query, opts, fieldBoost(fb)));
      break;
    case 'most_fields':
      clauses = fields.map((fb) => matchField(env, fb.field, node.query, opts, fieldBoost(fb)));
      tie = 1;
      break;
    case 'phrase':
    case 'phrase_prefix':
      clauses = fields.map((fb) =>
        phraseField(
          env,
          fb.field,
          node.query,
          {
            slop: node.slop,
            analyzer: node.analyzer,
            zeroTermsQuery: node.zeroTermsQuery,
            prefix: node.matchType === 'phrase_prefix',
            ...(node.maxExpansions !== undefined && { maxExpansions: node.maxExpansions }),
            lenient,
          },
          fieldBoost(fb),
        ),
      );
      break;
    case 'bool_prefix':
      clauses = fields.map((fb) => boolPrefix(env, fb.field, node.query, opts, fieldBoost(fb)));
      break;
    case 'cross_fields':
      return crossFields(env, fields, node, opts, boost);
  }
  return clauses.length === 1 ? clauses[0]! : new DisMaxWeight(clauses, tie);
}

/**
 * match_bool_prefix: every analysed term is a term clause (fuzzy with `fuzziness`) except the
 * last, a prefix.
 */
export function boolPrefix(
  env: CompileEnv,
  field: ResolvedField,
  query: JsonScalar,
  opts: MatchOptions,
  boost: number,
): Weight {
  // MatchQueryParser: a keyword field's one token is the prefix; other types take a term query.
  if (field.type === 'keyword') {
    return lenientQuery(opts.lenient, () => prefixQuery(env, field, scalarText(query), boost, false));
  }
  if (field.type !== 'text') return matchField(env, field, query, opts, boost);
  const groups = analyseGroups(searchAnalyzer(env, field, opts.analyzer), scalarText(query));
  if (groups.length === 0) return matchField(env, field, query, opts, boost);
  const fuzzy = fuzzyOptions(opts);
  const clauses = groups.map((g, i) => {
    if (i === groups.length - 1) {
      const parts = g.terms.map((t) => prefixQuery(env, field, t, boost, false));
      return parts.length === 1 ? parts[0]! : new BoolWeight([], [], parts, [], 1);
    }
    return positionClause(env, field, g.terms, boost, fuzzy);
  });
  return combineClauses(clauses, opts.operator, opts.minimumShouldMatch, env);
}

function crossFields(
  env: CompileEnv,
  fields: ResolvedFieldBoost[],
  node: MultiMatch,
  opts: MatchOptions,
  boost: number,
): Weight {
  const groups = new Map<string, ResolvedFieldBoost[]>();
  const others: Weight[] = [];
  for (const fb of fields) {
    if (fb.field.type !== 'text') {
      others.push(
        lenientQuery(opts.lenient, () => matchField(env, fb.field, node.query, opts, f(boost * fb.boost))),
      );
      continue;
    }
    const name = node.analyzer ?? fb.field.searchAnalyzer ?? fb.field.analyzer ?? 'default';
    const g = groups.get(name) ?? [];
    g.push(fb);
    groups.set(name, g);
  }
  const grouped: Weight[] = [...others];
  for (const group of groups.values()) {
    const analyzer = searchAnalyzer(env, group[0]!.field, node.analyzer);
    const positions = analyseGroups(analyzer, scalarText(node.query));
    if (positions.length === 0) continue;
    const clauses = positions.map((p) => {
      const perTerm = p.terms.map((term) => blendedTerm(env, group, term, boost, node.tieBreaker));
      return perTerm.length === 1 ? perTerm[0]! : new BoolWeight([], [], perTerm, [], 1);
    });
    grouped.push(combineClauses(clauses, opts.operator, opts.minimumShouldMatch, env));
  }
  if (grouped.length === 0) return opts.zeroTermsQuery === 'all' ? new MatchAllWeight(f(boost)) : NONE;
  return grouped.length === 1 ? grouped[0]! : new DisMaxWeight(grouped, node.tieBreaker);
}

/**
 * One query term over the fields of a cross_fields group: a dis_max of the field's term queries
 * with the statistics Elasticsearch's BlendedTermQuery.blend gives them. Each field's document
 * frequency becomes the highest one of the group, plus one for each step down to a rarer field
 * (fields sorted by document frequency, most frequent first), so that a rarer field scores a
 * little lower rather than the same; it never goes above the field's doc count nor above
 * maxDoc, which is first lowered to the smallest sum of term frequencies of the fields that
 * have the term. Fields without the term, and a group of one field, keep their statistics.
 * BlendedTermQuery also blends the total term frequency, which BM25 does not read.
 */
function blendedTerm(
  env: CompileEnv,
  group: ResolvedFieldBoost[],
  term: string,
  boost: number,
  tie: number,
): Weight {
  const dfs = group.map((fb) => docFreq(env.reader, fb.field.path, term));
  const blended = [...dfs];
  let max = 0;
  let maxDoc = env.reader.maxDoc;
  for (let i = 0; i < group.length; i++) {
    max = Math.max(max, dfs[i]!);
    if (dfs[i]! > 0) maxDoc = Math.min(maxDoc, fieldStats(env.reader, group[i]!.field.path).sumTotalTermFreq);
  }
  if (group.length > 1 && max > 0) {
    // A stable sort, most frequent first (InPlaceMergeSorter on the docFreq).
    const order = group.map((_, i) => i).sort((a, b) => dfs[b]! - dfs[a]!);
    let prev = dfs[order[0]!]!;
    let actualDf = Math.min(maxDoc, max);
    for (const i of order) {
      const current = dfs[i]!;
      if (current === 0) break;
      if (prev > current) actualDf++;
      const docCount = fieldStats(env.reader, group[i]!.field.path).docCount;
      blended[i] = Math.min(actualDf, docCount, maxDoc);
      prev = current;
    }
  }
  const clauses = group.map((fb, i) => scoredTerm(env, fb.field.path, term, f(boost * fb.boost), blended[i]));
  return clauses.length === 1 ? clauses[0]! : new DisMaxWeight(clauses, tie);
}
