/**
 * `terms_set`: Elasticsearch builds one term query per value (the field type's termQuery, so
 * text and keyword terms are BM25-scored and numbers constant) and joins them in Lucene's
 * CoveringQuery, whose per-doc number of required matches is the first value of
 * `minimum_should_match_field`. A doc matches when at least that many term queries match it
 * (values below 1 count as 1; a doc without a value never matches); its score is the sum of the
 * matching term queries' scores, added in double and rounded to float (CoveringScorer.score).
 * Duplicate values are separate clauses, as in CoveringQuery's multiset.
 */
import { illegalArgument, illegalState, type QueryNode, ShoalError } from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import type { NumericValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { CompileEnv } from './compile-env.ts';
import { markDocs } from './doc-bits.ts';
import { failedToCreateQuery, isNumericType } from './field-values.ts';
import { NONE } from './full-text.ts';
import { countPassing, type DocMatches, docs, materialise } from './matches.ts';
import { DocListScorer, type Scorer } from './scorer.ts';
import { termQuery } from './term-level.ts';
import type { Weight } from './weights.ts';

type TermsSet = Extract<QueryNode, { type: 'terms_set' }>;

export function termsSetQuery(env: CompileEnv, node: TermsSet, boost: number): Weight {
  if (node.values.length === 0) return NONE;
  const field = env.mapping.field(node.field);
  // An unmapped field gets plain TermQuerys, which match nothing here.
  const clauses = field ? node.values.map((v) => termQuery(env, field, v, boost, false)) : [];
  const msmName = node.minimumShouldMatchField;
  if (msmName === undefined) {
    throw failedToCreateQuery(env, illegalState('No minimum should match has been specified'));
  }
  const msmField = env.mapping.field(msmName);
  if (!msmField) {
    throw new ShoalError(
      'query_shard_exception',
      `failed to find minimum_should_match field [${msmName}]`,
      400,
      { index_uuid: env.indexUuid, index: env.index },
    );
  }
  checkNumericFieldData(env, msmField);
  return clauses.length === 0 ? NONE : new TermsSetWeight(clauses, msmField.path);
}

/** SearchExecutionContext.getForField read as IndexNumericFieldData. */
function checkNumericFieldData(env: CompileEnv, field: ResolvedField): void {
  if (field.type === 'text') {
    throw failedToCreateQuery(
      env,
      illegalArgument(
        `Fielddata is disabled on [${field.path}] in [${env.index}]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${field.path}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
      ),
    );
  }
  if (!isNumericType(field.type) && field.type !== 'date' && field.type !== 'date_nanos') {
    throw failedToCreateQuery(
      env,
      illegalArgument(`field [${field.path}] of type [${field.type}] does not have numeric doc values`),
    );
  }
}

/** The first value of a doc as a long (doubles truncated, as their long view does); null: none. */
function firstLong(n: NumericValues | undefined, doc: number): number | null {
  if (!n) return null;
  const at = n.starts[doc]!;
  if (at >= n.starts[doc + 1]!) return null;
  const v = n.values[at]!;
  return typeof v === 'bigint' ? Number(v) : Math.trunc(v);
}

export class TermsSetWeight implements Weight {
  private readonly bySegment = new Map<ReaderSegment['segment'], DocMatches>();

  constructor(
    readonly clauses: Weight[],
    readonly msmField: string,
  ) {}

  /** The covering docs of a segment with their scores, computed once per segment. */
  private covered(rs: ReaderSegment): DocMatches {
    let m = this.bySegment.get(rs.segment);
    if (m) return m;
    const maxDoc = rs.segment.maxDoc;
    const counts = new Uint32Array(maxDoc);
    const sums = new Float64Array(maxDoc);
    let lo = maxDoc;
    let hi = -1;
    for (const c of this.clauses) {
      const cm = materialise(c.matches(rs, true), maxDoc, true);
      const d = cm.docs;
      for (let i = 0; i < d.length; i++) {
        const doc = d[i]!;
        counts[doc]!++;
        sums[doc]! += cm.scores ? cm.scores[i]! : 0;
      }
      if (d.length > 0) {
        lo = Math.min(lo, d[0]!);
        hi = Math.max(hi, d[d.length - 1]!);
      }
    }
    const n = rs.segment.field(this.msmField)?.numeric;
    const out: number[] = [];
    const scores: number[] = [];
    for (let doc = lo; doc <= hi; doc++) {
      const count = counts[doc]!;
      if (count === 0) continue;
      const msm = firstLong(n, doc);
      if (msm === null || count < Math.max(1, msm)) continue;
      out.push(doc);
      scores.push(Math.fround(sums[doc]!));
    }
    m = docs(Int32Array.from(out), Float64Array.from(scores));
    this.bySegment.set(rs.segment, m);
    return m;
  }

  matches(rs: ReaderSegment, needsScores: boolean): DocMatches {
    const m = this.covered(rs);
    return needsScores ? m : docs(m.docs);
  }
  scorer(rs: ReaderSegment): Scorer | null {
    const m = this.covered(rs);
    return m.docs.length === 0 ? null : new DocListScorer(m.docs, m.scores, 0);
  }
  count(rs: ReaderSegment, excluded: Uint32Array | null): number {
    return countPassing(this.covered(rs).docs, excluded);
  }
  minCount(rs: ReaderSegment, excluded: Uint32Array | null): number {
    return countPassing(this.covered(rs).docs, excluded);
  }
  markDocs(rs: ReaderSegment, bits: Uint32Array): void {
    markDocs(this.covered(rs).docs, bits);
  }
}
