/**
 * `multi_match`: the per-field queries of `match` / `match_phrase` combined per type —
 * best_fields and the phrase types as a dis_max with the tie_breaker, most_fields as their sum,
 * bool_prefix as a match whose last term is a prefix. cross_fields is term-centric: per analysed
 * term, a dis_max over the fields sharing an analyzer with the document frequency blended to the
 * highest one (Elasticsearch's BlendedTermQuery, without its total-term-frequency adjustment),
 * and the terms combined with the operator.
 */
import type { QueryNode } from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import { BoolWeight } from './bool-weight.ts';
import type { CompileEnv } from './compile-env.ts';
import { DisMaxWeight } from './dis-max-weight.ts';
import { scalarText } from './field-values.ts';
import {
  analyseGroups,
  combineClauses,
  lenientQuery,
  type MatchOptions,
  matchField,
  NONE,
  phraseField,
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
  // No fields: index.query.default_field, `*`.
  const resolved = resolveFields(env, node.fields.length > 0 ? node.fields : [{ field: '*', boost: 1 }]);
  const lenient = node.lenient || resolved.lenient;
  const fields = resolved.fields;
  if (fields.length === 0) return NONE;
  const opts: MatchOptions = {
    operator: node.operator,
    minimumShouldMatch: node.minimumShouldMatch,
    analyzer: node.analyzer,
    lenient,
    zeroTermsQuery: node.zeroTermsQuery,
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
            lenient,
          },
          fieldBoost(fb),
        ),
      );
      break;
    case 'bool_prefix':
      clauses = fields.map((fb) => boolPrefix(env, fb.field, node, opts, fieldBoost(fb)));
      break;
    case 'cross_fields':
      return crossFields(env, fields, node, opts, boost);
  }
  return clauses.length === 1 ? clauses[0]! : new DisMaxWeight(clauses, tie);
}

/** match_bool_prefix: every analysed term is a term clause except the last, a prefix. */
function boolPrefix(
  env: CompileEnv,
  field: ResolvedField,
  node: MultiMatch,
  opts: MatchOptions,
  boost: number,
): Weight {
  if (field.type !== 'text') return matchField(env, field, node.query, opts, boost);
  const groups = analyseGroups(searchAnalyzer(env, field, opts.analyzer), scalarText(node.query));
  if (groups.length === 0) return matchField(env, field, node.query, opts, boost);
  const clauses = groups.map((g, i) => {
    if (i === groups.length - 1) {
      const parts = g.terms.map((t) => prefixQuery(env, field, t, boost, false));
      return parts.length === 1 ? parts[0]! : new BoolWeight([], [], parts, [], 1);
    }
    const parts = g.terms.map((t) => scoredTerm(env, field.path, t, boost));
    return parts.length === 1 ? parts[0]! : new BoolWeight([], [], parts, [], 1);
  });
  return combineClauses(clauses, opts.operator, opts.minimumShouldMatch);
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
    grouped.push(combineClauses(clauses, opts.operator, opts.minimumShouldMatch));
  }
  if (grouped.length === 0) return opts.zeroTermsQuery === 'all' ? new MatchAllWeight(f(boost)) : NONE;
  return grouped.length === 1 ? grouped[0]! : new DisMaxWeight(grouped, node.tieBreaker);
}

function blendedTerm(
  env: CompileEnv,
  group: ResolvedFieldBoost[],
  term: string,
  boost: number,
  tie: number,
): Weight {
  let maxDf = 0;
  for (const fb of group) maxDf = Math.max(maxDf, docFreq(env.reader, fb.field.path, term));
  const clauses = group.map((fb) => {
    const df = Math.min(maxDf, fieldStats(env.reader, fb.field.path).docCount);
    return scoredTerm(env, fb.field.path, term, f(boost * fb.boost), df);
  });
  return clauses.length === 1 ? clauses[0]! : new DisMaxWeight(clauses, tie);
}
