/**
 * `combined_fields`: CombinedFieldsQueryBuilder.doToQuery. The query text is analysed once with
 * the fields' shared search analyzer; each position becomes a Lucene CombinedFieldQuery (its
 * same-position synonyms as that query's terms), joined with the operator and
 * minimum_should_match as a match query joins its terms.
 *
 * CombinedFieldQuery scores BM25F: the fields are one synthetic field in which a field of
 * weight w counts each occurrence w times. Its statistics: the highest document frequency of
 * any of its terms in any field, the highest doc count of the fields, and the sum of
 * w × sumTotalTermFreq (kept as a long, as the Java `long += double` truncates). Per doc, the
 * frequency is the float sum of w × freq over the (field, term) postings that hold it, and the
 * length norm is the float sum of w × decoded norm over the fields with norms (in field name
 * order, as the query's TreeMap holds them), rounded and encoded back into a norm byte
 * (MultiNormsLeafSimScorer); then BM25 as for one field.
 */
import { illegalArgument, type QueryNode } from '@shoal/protocol';
import { encodeNorm, NORM_LENGTH_TABLE } from '../index/norms.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { Bm25Scorer, idf } from './bm25.ts';
import type { CompileEnv } from './compile-env.ts';
import { markDocs } from './doc-bits.ts';
import { failedToCreateQuery } from './field-values.ts';
import { analyseGroups, combineClauses, NONE, resolveFields, searchAnalyzer } from './full-text.ts';
import { countPassing, type DocMatches, docs } from './matches.ts';
import { DocListScorer, type Scorer } from './scorer.ts';
import { docFreq, fieldStats, termPostings } from './term-stats.ts';
import { MatchAllWeight, type Weight } from './weights.ts';

type CombinedFields = Extract<QueryNode, { type: 'combined_fields' }>;
const f = Math.fround;

/** A field of the synthetic one and its weight. */
interface WeightedField {
  path: string;
  weight: number;
}

export function combinedFieldsQuery(env: CompileEnv, node: CombinedFields, boost: number): Weight {
  if (node.fields.length === 0) {
    throw failedToCreateQuery(
      env,
      illegalArgument('In [combined_fields] query, at least one field must be provided'),
    );
  }
  const resolved = resolveFields(env, node.fields).fields;
  // Only unmapped fields: Queries.newUnmappedFieldsQuery, which matches nothing.
  if (resolved.length === 0) return NONE;
  let analyzerName: string | undefined;
  const fields: WeightedField[] = [];
  for (const { field, boost: weight } of resolved) {
    if (field.type !== 'text') {
      throw failedToCreateQuery(
        env,
        illegalArgument(
          `Field [${field.path}] of type [${field.type}] does not support [combined_fields] queries`,
        ),
      );
    }
    const name = field.searchAnalyzer ?? field.analyzer ?? 'default';
    if (analyzerName !== undefined && name !== analyzerName) {
      throw failedToCreateQuery(
        env,
        illegalArgument('All fields in [combined_fields] query must have the same search analyzer'),
      );
    }
    analyzerName = name;
    fields.push({ path: field.path, weight });
  }
  fields.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  checkConsistentNorms(env, fields);
  const analyzer = searchAnalyzer(env, resolved[0]!.field);
  const positions = analyseGroups(analyzer, node.query);
  if (positions.length === 0) return node.zeroTermsQuery === 'all' ? new MatchAllWeight(f(boost)) : NONE;
  const clauses = positions.map((p) => combinedFieldWeight(env, fields, [...new Set(p.terms)].sort(), boost));
  return combineClauses(clauses, node.operator, node.minimumShouldMatch, env);
}

/** CombinedFieldQuery.validateConsistentNorms, over the fields present in the reader. */
function checkConsistentNorms(env: CompileEnv, fields: WeightedField[]): void {
  let all = true;
  let none = true;
  for (const s of env.reader.segments) {
    for (const fd of fields) {
      const p = s.segment.field(fd.path)?.postings;
      if (!p) continue;
      if (p.norms) none = false;
      else all = false;
    }
  }
  if (!all && !none) {
    throw illegalArgument(
      'CombinedFieldQuery requires norms to be consistent across fields: some fields cannot  have norms enabled, while others have norms disabled',
    );
  }
}

function combinedFieldWeight(
  env: CompileEnv,
  fields: WeightedField[],
  terms: string[],
  boost: number,
): Weight {
  let maxDf = 0;
  for (const fd of fields) for (const t of terms) maxDf = Math.max(maxDf, docFreq(env.reader, fd.path, t));
  if (maxDf === 0) return NONE;
  let docCount = 0;
  let sumTotalTermFreq = 0;
  for (const fd of fields) {
    const stats = fieldStats(env.reader, fd.path);
    // IndexSearcher.collectionStatistics is null for a field no doc has.
    if (stats.docCount === 0) continue;
    docCount = Math.max(docCount, stats.docCount);
    sumTotalTermFreq = Math.trunc(sumTotalTermFreq + fd.weight * stats.sumTotalTermFreq);
  }
  const bm25 = new Bm25Scorer(boost, idf(maxDf, docCount), { docCount, sumTotalTermFreq });
  return new CombinedFieldWeight(fields, terms, bm25);
}

export class CombinedFieldWeight implements Weight {
  private readonly bySegment = new Map<ReaderSegment['segment'], DocMatches>();

  constructor(
    readonly fields: WeightedField[],
    readonly terms: string[],
    readonly bm25: Bm25Scorer,
  ) {}

  /** The docs holding any of the terms in any of the fields, scored; once per segment. */
  private scored(rs: ReaderSegment): DocMatches {
    let m = this.bySegment.get(rs.segment);
    if (m) return m;
    const maxDoc = rs.segment.maxDoc;
    const freq = new Float64Array(maxDoc);
    const hit = new Uint8Array(maxDoc);
    let lo = maxDoc;
    let hi = -1;
    const norms: { norms: Uint8Array; weight: number }[] = [];
    for (const fd of this.fields) {
      const p = rs.segment.field(fd.path)?.postings;
      if (!p) continue;
      if (p.norms) norms.push({ norms: p.norms, weight: fd.weight });
      for (const t of this.terms) {
        const at = termPostings(p, t);
        if (!at) continue;
        for (let i = at.from; i < at.to; i++) {
          const doc = p.docs[i]!;
          const tf = p.freqs ? p.freqs[i]! : 1;
          freq[doc] = f(freq[doc]! + f(fd.weight * tf));
          hit[doc] = 1;
          if (doc < lo) lo = doc;
          if (doc > hi) hi = doc;
        }
      }
    }
    const out: number[] = [];
    const scores: number[] = [];
    for (let doc = lo; doc <= hi; doc++) {
      if (hit[doc] === 0) continue;
      let normByte = 1;
      if (norms.length > 0) {
        let length = 0;
        for (const n of norms) length = f(length + f(n.weight * NORM_LENGTH_TABLE[n.norms[doc]!]!));
        normByte = encodeNorm(Math.round(length));
      }
      out.push(doc);
      scores.push(this.bm25.score(freq[doc]!, normByte));
    }
    m = docs(Int32Array.from(out), Float64Array.from(scores));
    this.bySegment.set(rs.segment, m);
    return m;
  }

  matches(rs: ReaderSegment, needsScores: boolean): DocMatches {
    const m = this.scored(rs);
    return needsScores ? m : docs(m.docs);
  }
  scorer(rs: ReaderSegment): Scorer | null {
    const m = this.scored(rs);
    return m.docs.length === 0 ? null : new DocListScorer(m.docs, m.scores, 0);
  }
  count(rs: ReaderSegment, excluded: Uint32Array | null): number {
    return countPassing(this.scored(rs).docs, excluded);
  }
  minCount(rs: ReaderSegment, excluded: Uint32Array | null): number {
    return countPassing(this.scored(rs).docs, excluded);
  }
  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    markDocs(this.scored(rs).docs, bits);
  }
}
