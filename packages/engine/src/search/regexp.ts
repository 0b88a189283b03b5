/**
 * The `regexp` query as Elasticsearch 8 builds it: RegexpQueryBuilder.doToQuery checks
 * `index.max_regex_length` and the rewrite method, StringFieldType.regexpQuery takes text and
 * keyword fields only, and Lucene 9's RegExp parses the pattern, which then matches whole terms
 * of the field (never analysed or normalised). Its syntax errors are Lucene's
 * IllegalArgumentException texts, wrapped as `failed to create query`.
 *
 * The pattern's syntax is in regexp-syntax.ts, its matching in regexp-automaton.ts.
 */
import { illegalArgument, isShoalError, type QueryNode, queryShardException } from '@shoal/protocol';
import { BoolWeight } from './bool-weight.ts';
import type { CompileEnv } from './compile-env.ts';
import { checkSearchable, failedToCreateQuery } from './field-values.ts';
import { parseRewrite, type Rewrite, termClauses } from './fuzzy.ts';
import { DEFAULT_MAX_REGEX_LENGTH } from './query-limits.ts';
import { type CompiledRegExp, compileRegExp } from './regexp-automaton.ts';
import { dictionaryDocs, prefixRange } from './segment-scans.ts';
import { ConstantWeight, MatchNoneWeight, type Weight } from './weights.ts';

type RegexpNode = Extract<QueryNode, { type: 'regexp' }>;

/**
 * RegexpQueryBuilder.doToQuery over one reader. `field` is undefined for an unmapped field,
 * whose pattern is still parsed (and may fail) though it matches nothing.
 */
export function regexpQuery(env: CompileEnv, node: RegexpNode, boost: number): Weight {
  const maxRegexLength = env.limits?.maxRegexLength ?? DEFAULT_MAX_REGEX_LENGTH;
  if (node.value.length > maxRegexLength) {
    throw failedToCreateQuery(
      env,
      illegalArgument(
        `The length of regex [${node.value.length}] used in the Regexp Query request has exceeded the allowed maximum of [${maxRegexLength}]. This maximum can be set by changing the [index.max_regex_length] index level setting.`,
      ),
    );
  }
  const rewrite = node.rewrite === undefined ? undefined : wrapped(env, () => parseRewrite(node.rewrite, 0));
  // Metadata fields are not string fields: `_id` and `_index` refuse by their own type name.
  const metadata = node.field === '_id' || node.field === '_index';
  const field = metadata ? undefined : env.mapping.field(node.field);
  const type = metadata ? node.field : field?.type;
  if (type !== undefined && type !== 'text' && type !== 'keyword') {
    throw queryShardException(
      `Can only use regexp queries on keyword and text fields - not on [${node.field}] which is of type [${type}]`,
      env.index,
      env.indexUuid,
    );
  }
  if (field) checkSearchable(env, field);
  const re = wrapped(env, () => compileRegExp(node.value, node.flags, node.caseInsensitive));
  if (!field) return new MatchNoneWeight();
  const path = field.path;
  if (rewrite === undefined || rewrite.kind === 'constant' || rewrite.kind === 'constant_boolean') {
    return new ConstantWeight(
      (rs) => dictionaryDocs(rs, path, prefixRange(re.prefix), re.matches),
      Math.fround(boost),
    );
  }
  return scoringRewrite(env, path, re, rewrite, boost);
}

/** The scoring rewrites: every matching term (or the first N) as a scored term clause. */
function scoringRewrite(
  env: CompileEnv,
  path: string,
  re: CompiledRegExp,
  rewrite: Rewrite,
  boost: number,
): Weight {
  const seen = new Set<string>();
  for (const s of env.reader.segments) {
    const terms = s.segment.field(path)?.postings?.terms;
    if (!terms) continue;
    const [from, to] = prefixRange(re.prefix)(terms);
    for (let t = from; t < to; t++) {
      const term = terms[t]!;
      if (!seen.has(term) && re.matches(term)) seen.add(term);
    }
  }
  // Every term weighs 1, so TopTermsRewrite keeps the smallest terms.
  let chosen = [...seen].sort();
  if ('size' in rewrite) chosen = chosen.slice(0, rewrite.size);
  if (chosen.length === 0) return new MatchNoneWeight();
  const clauses = termClauses(
    env,
    path,
    chosen.map((t) => [t, 1]),
    rewrite,
    boost,
  );
  return clauses.length === 1 ? clauses[0]! : new BoolWeight([], [], clauses, [], 1);
}

/** An IllegalArgumentException while building the query: SearchExecutionContext wraps it. */
function wrapped<T>(env: CompileEnv, build: () => T): T {
  try {
    return build();
  } catch (e) {
    throw isShoalError(e) ? failedToCreateQuery(env, e) : e;
  }
}
