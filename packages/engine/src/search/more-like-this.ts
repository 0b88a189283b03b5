/**
 * `more_like_this` on one shard (MoreLikeThisQueryBuilder.doToQuery, Elasticsearch's
 * MoreLikeThisQuery and XMoreLikeThis): the like texts are analysed as the first field is
 * indexed, and each word is searched in the field where it is most frequent; the like
 * documents give their terms field by field. Words are kept when frequent enough in the like
 * input (`min_term_freq`) and in the shard (`min_doc_freq`, `max_doc_freq`), ranked by
 * tf × idf (ClassicSimilarity's idf over the shard's live docs), the best `max_query_terms`
 * become BM25 term queries of which `minimum_should_match` must match. Unlike input removes
 * its terms; liked documents are left out unless `include`.
 */
import {
  extractRawValues,
  illegalArgument,
  type MltItem,
  type MoreLikeThisQuery,
  ShoalError,
} from '@shoal/protocol';
import { getAnalyzer } from '../analysis/index.ts';
import type { Analyzer, ResolvedField } from '../contract.ts';
import { BoolWeight } from './bool-weight.ts';
import type { CompileEnv } from './compile-env.ts';
import { failedToCreateQuery } from './field-values.ts';
import { NONE } from './full-text.ts';
import { minimumShouldMatch } from './minimum-should-match.ts';
import { escapeRegExp } from './segment-scans.ts';
import { idsQuery, scoredTerm } from './term-level.ts';
import { docFreq } from './term-stats.ts';
import type { Weight } from './weights.ts';

const f = Math.fround;

interface ScoreTerm {
  word: string;
  field: string;
  score: number;
}

function supported(field: ResolvedField): boolean {
  return (field.type === 'text' || field.type === 'keyword') && field.mappedType === undefined;
}

export function moreLikeThisQuery(env: CompileEnv, node: MoreLikeThisQuery, boost: number): Weight {
  try {
    return build(env, node, boost);
  } catch (e) {
    throw e instanceof ShoalError && e.type !== 'query_shard_exception' ? failedToCreateQuery(env, e) : e;
  }
}

function build(env: CompileEnv, node: MoreLikeThisQuery, boost: number): Weight {
  const fields = queryFields(env, node);
  if (fields.length === 0) return NONE;
  const mlt = new TermSelection(env, node);
  // Unlike texts count for the first field only, as Elasticsearch's handleUnlike does.
  for (const text of node.unlikeTexts) mlt.skip(fields[0]!, mlt.textTerms(fields[0]!, text));
  for (const item of node.unlikeItems) {
    for (const [field, terms] of itemTerms(env, item, fields, node)) mlt.skip(field, [...terms.keys()]);
  }
  const parts: Weight[] = [];
  const liked = node.likeItems.filter((i) => i.doc !== undefined);
  if (liked.length > 0) {
    // Per field, the terms of every liked document together, selected on their own.
    const perField = new Map<string, Map<string, number>>();
    for (const item of liked) {
      for (const [field, terms] of itemTerms(env, item, fields, node)) {
        const into = perField.get(field) ?? new Map<string, number>();
        perField.set(field, into);
        for (const [t, n] of terms) if (!mlt.skipped(field, t)) into.set(t, (into.get(t) ?? 0) + n);
      }
    }
    const selected: ScoreTerm[] = [];
    for (const [field, words] of perField) selected.push(...mlt.select(words, [field]));
    parts.push(mlt.query(selected, boost));
  }
  if (node.likeTexts.length > 0) {
    const words = new Map<string, number>();
    for (const text of node.likeTexts) {
      for (const t of mlt.textTerms(fields[0]!, text)) {
        if (!mlt.skipped(fields[0]!, t)) words.set(t, (words.get(t) ?? 0) + 1);
      }
    }
    parts.push(mlt.query(mlt.select(words, fields), boost));
  }
  const inner = parts.length === 1 ? parts[0]! : new BoolWeight([], [], parts, [], 0);
  if (node.include) return inner;
  const ids = node.likeItems
    .filter((i) => i.id !== undefined && (i.index === undefined || indexMatches(i.index, env.index)))
    .map((i) => i.id!);
  if (ids.length === 0) return inner;
  return new BoolWeight([], [], [inner], [idsQuery(ids, 1)], 0);
}

function indexMatches(pattern: string, index: string): boolean {
  if (!pattern.includes('*')) return pattern === index;
  return new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`).test(index);
}

/** The query's fields (or the index's default), text and keyword ones only. */
function queryFields(env: CompileEnv, node: MoreLikeThisQuery): string[] {
  const out: string[] = [];
  if (node.fields === undefined) {
    const defaults = env.limits?.defaultFields;
    const patterns = defaults?.length ? defaults.map((d) => d.field) : ['*'];
    for (const p of patterns)
      for (const fd of env.mapping.fieldsMatching(p)) if (supported(fd)) out.push(fd.path);
    return [...new Set(out)];
  }
  for (const name of node.fields) {
    const matched = name.includes('*') ? env.mapping.fieldsMatching(name) : [env.mapping.field(name)];
    for (const fd of matched) {
      if (fd === undefined) {
        out.push(name);
        continue;
      }
      if (!supported(fd)) {
        if (node.failOnUnsupportedField) {
          throw illegalArgument(`more_like_this only supports text/keyword fields: [${name}]`);
        }
        continue;
      }
      out.push(fd.path);
    }
  }
  return out;
}

/** A like or unlike document's terms per field, as its term vectors would count them. */
function itemTerms(
  env: CompileEnv,
  item: MltItem,
  fields: string[],
  node: MoreLikeThisQuery,
): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  if (!item.doc) return out;
  const names = item.fields ?? node.fields ?? fields;
  for (const name of names) {
    const fd = env.mapping.field(name);
    if (!fd || !supported(fd)) continue;
    const terms = new Map<string, number>();
    for (const v of extractRawValues(item.doc, fd.path)) {
      if (typeof v === 'object') continue;
      for (const t of valueTerms(fd, String(v))) terms.set(t, (terms.get(t) ?? 0) + 1);
    }
    if (terms.size > 0) out.set(fd.path, terms);
  }
  return out;
}

/** A value's terms as the field indexes them: analysed text, or the keyword itself. */
function valueTerms(field: ResolvedField, value: string): string[] {
  if (field.type === 'keyword')
    return [(field as { normalizer?: string }).normalizer === 'lowercase' ? value.toLowerCase() : value];
  const analyzer = getAnalyzer(field.analyzer ?? 'default');
  return analyzer ? analyzer.analyze(value).map((t) => t.term) : [];
}

class TermSelection {
  private readonly skipTerms = new Set<string>();
  private readonly stopWords: Set<string>;

  constructor(
    private readonly env: CompileEnv,
    private readonly node: MoreLikeThisQuery,
  ) {
    this.stopWords = new Set(node.stopWords);
  }

  skip(field: string, terms: string[]): void {
    for (const t of terms) this.skipTerms.add(`${field}\u0000${t}`);
  }

  skipped(field: string, term: string): boolean {
    return this.skipTerms.has(`${field}\u0000${term}`) || this.noise(term);
  }

  /** XMoreLikeThis.isNoiseWord. */
  private noise(term: string): boolean {
    const n = this.node;
    const len = term.length;
    if (n.minWordLength > 0 && len < n.minWordLength) return true;
    if (n.maxWordLength > 0 && len > n.maxWordLength) return true;
    return this.stopWords.has(term);
  }

  /** A like text's terms, analysed with `analyzer` or as `field` is indexed. */
  textTerms(field: string, text: string): string[] {
    const fd = this.env.mapping.field(field);
    let analyzer: Analyzer | undefined;
    if (this.node.analyzer !== undefined) {
      analyzer = getAnalyzer(this.node.analyzer);
      if (!analyzer) throw illegalArgument(`failed to find analyzer [${this.node.analyzer}]`);
    }
    if (!analyzer && fd?.type === 'keyword') return valueTerms(fd, text);
    analyzer ??= getAnalyzer(fd?.analyzer ?? 'default')!;
    return analyzer.analyze(text).map((t) => t.term);
  }

  /**
   * XMoreLikeThis.createQueue: per word, the field where it is most frequent; words kept by
   * the frequency limits, scored tf × idf, the best `max_query_terms`.
   */
  select(words: Map<string, number>, fieldNames: string[]): ScoreTerm[] {
    const n = this.node;
    const numDocs = this.env.reader.numDocs;
    const limit = Math.min(n.maxQueryTerms, words.size);
    const queue: ScoreTerm[] = [];
    for (const [word, tf] of words) {
      if (n.minTermFreq > 0 && tf < n.minTermFreq) continue;
      let topField = fieldNames[0]!;
      let df = 0;
      for (const field of fieldNames) {
        const freq = docFreq(this.env.reader, field, word);
        if (freq > df) {
          topField = field;
          df = freq;
        }
      }
      if (n.minDocFreq > 0 && df < n.minDocFreq) continue;
      if (df > n.maxDocFreq || df === 0) continue;
      const idf = f(Math.log((numDocs + 1) / (df + 1)) + 1);
      const score = f(tf * idf);
      if (queue.length < limit) queue.push({ word, field: topField, score });
      else {
        let low = 0;
        for (let i = 1; i < queue.length; i++) if (queue[i]!.score < queue[low]!.score) low = i;
        if (queue[low]!.score < score) queue[low] = { word, field: topField, score };
      }
    }
    return queue;
  }

  /** The selected terms as should clauses, `minimum_should_match` of them required. */
  query(terms: ScoreTerm[], boost: number): Weight {
    if (terms.length === 0) return NONE;
    const lowest = terms.reduce((m, t) => Math.min(m, t.score), Number.POSITIVE_INFINITY);
    const boostTerms = this.node.boostTerms;
    const clauses = terms.map((t) => {
      const termBoost = boostTerms > 0 ? f((boostTerms * t.score) / lowest) : 1;
      return scoredTerm(this.env, t.field, t.word, f(boost * termBoost));
    });
    const msm = minimumShouldMatch(clauses.length, this.node.minimumShouldMatch, this.env);
    return new BoolWeight([], [], clauses, [], msm);
  }
}
