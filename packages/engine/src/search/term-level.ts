/**
 * Term-level queries compiled per field type, as the field mappers build them: text and
 * keyword terms are BM25-scored TermQuerys (the raw term, not analysed); numbers, dates and
 * ips match exactly with a constant score; `terms`, `range`, `exists`, `ids`, `prefix` and
 * `wildcard` are constant-score. Unmapped fields match nothing.
 */
import { illegalArgument, type JsonScalar, queryShardException } from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import { resolveDateMath } from '../dates/index.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { Bm25Scorer, idf } from './bm25.ts';
import type { CompileEnv } from './compile-env.ts';
import { numericRangeVerifier } from './doc-values-range.ts';
import {
  booleanTerm,
  checkSearchable,
  failedToCreateQuery,
  isIntegerType,
  parseBooleanValue,
  scalarText,
  toFieldNumber,
} from './field-values.ts';
import { parseCidr, parseIp } from './ip.ts';
import { rangeFieldRangeQuery, rangeFieldTermQuery, rangeFieldTermsQuery } from './range-field-queries.ts';
import {
  allTerms,
  dictionaryDocs,
  escapeRegExp,
  ipRangeDocs,
  numericRangeCount,
  numericRangeDocs,
  numericSetCount,
  numericSetDocs,
  prefixRange,
  termRange,
  termSetDocs,
  wildcardRegExp,
} from './segment-scans.ts';
import { docFreq, fieldStats } from './term-stats.ts';
import { ConstantWeight, MatchNoneWeight, TermWeight, type Weight } from './weights.ts';

const f = Math.fround;
const NONE = new MatchNoneWeight();

/** A BM25 term query; `df` overrides the document frequency (blended queries). */
export function scoredTerm(
  env: CompileEnv,
  field: string,
  term: string,
  boost: number,
  df?: number,
): TermWeight {
  const stats = fieldStats(env.reader, field);
  const n = df ?? docFreq(env.reader, field, term);
  return new TermWeight(field, term, new Bm25Scorer(boost, idf(n, stats.docCount), stats));
}

export function termQuery(
  env: CompileEnv,
  field: ResolvedField,
  value: JsonScalar,
  boost: number,
  ci: boolean,
): Weight {
  const path = field.path;
  if (field.rangeType) return rangeFieldTermQuery(env, field, value, boost);
  if (ci) checkCaseInsensitive(env, field);
  switch (field.type) {
    case 'text':
    case 'keyword': {
      checkSearchable(env, field);
      const term = scalarText(value);
      if (ci) {
        const re = new RegExp(`^${escapeRegExp(term)}$`, 'iu');
        return new ConstantWeight((rs) => dictionaryDocs(rs, path, allTerms, (t) => re.test(t)), f(boost));
      }
      return scoredTerm(env, path, term, boost);
    }
    case 'boolean': {
      const term = booleanTerm(env.reader, path, parseBooleanValue(value, env));
      // A case-insensitive term is an AutomatonQuery over the indexed `T`/`F`: constant-scored.
      if (ci) return new ConstantWeight((rs) => termSetDocs(rs, path, [term]), f(boost));
      return scoredTerm(env, path, term, boost);
    }
    case 'ip': {
      const [lo, hi] = ipBounds(scalarText(value), env);
      return new ConstantWeight((rs) => ipRangeDocs(rs, path, lo, hi), f(boost));
    }
    case 'date':
    case 'date_nanos': {
      const [lo, hi] = dateTermBounds(env, field, value);
      return new ConstantWeight(
        (rs) => numericRangeDocs(rs, path, lo, true, hi, true),
        f(boost),
        undefined,
        (rs) => numericRangeCount(rs, path, lo, true, hi, true),
      );
    }
    case 'geo_point':
      throw queryShardException(
        `Geo fields do not support exact searching, use dedicated geo queries instead: [${path}]`,
        env.index,
        env.indexUuid,
      );
    default: {
      const v = toFieldNumber(field.type, value, env, false, field.scalingFactor);
      if (isIntegerType(field.type) && typeof v === 'number' && !Number.isInteger(v)) return NONE;
      const set = new Set([v]);
      return new ConstantWeight(
        (rs) => numericSetDocs(rs, path, set),
        f(boost),
        undefined,
        (rs) => numericSetCount(rs, path, set),
      );
    }
  }
}

/**
 * MappedFieldType.termQueryCaseInsensitive: only the term-based types (text, keyword, boolean)
 * override it; numbers, dates, ips and geo_points refuse before the value is parsed. A boolean
 * needs its inverted index for it (TermBasedFieldType.failIfNotIndexed).
 */
function checkCaseInsensitive(env: CompileEnv, field: ResolvedField): void {
  if (field.type === 'text' || field.type === 'keyword') return;
  if (field.type === 'boolean') {
    if (field.index) return;
    throw failedToCreateQuery(
      env,
      illegalArgument(`Cannot search on field [${field.path}] since it is not indexed.`),
    );
  }
  throw queryShardException(
    `[${field.path}] field which is of type [${field.type}], does not support case insensitive term queries`,
    env.index,
    env.indexUuid,
  );
}

function ipBounds(text: string, env: CompileEnv): [bigint, bigint] {
  if (text.includes('/')) {
    const r = parseCidr(text);
    if (r) return r;
  } else {
    const v = parseIp(text);
    if (v !== undefined) return [v, v];
  }
  throw failedToCreateQuery(env, illegalArgument(`'${text}' is not an IP string literal.`));
}

function dateResolution(field: ResolvedField): 'millis' | 'nanos' {
  return field.type === 'date_nanos' ? 'nanos' : 'millis';
}

/** A date term matches its whole rounding window (Elasticsearch's termQuery → rangeQuery). */
function dateTermBounds(
  env: CompileEnv,
  field: ResolvedField,
  value: JsonScalar,
): [number | bigint, number | bigint] {
  const format = field.format ?? 'strict_date_optional_time||epoch_millis';
  const text = scalarText(value);
  const res = dateResolution(field);
  return [
    resolveDateMath(text, format, res, { roundUp: false, nowMillis: env.nowMillis }),
    resolveDateMath(text, format, res, { roundUp: true, nowMillis: env.nowMillis }),
  ];
}

export function termsQuery(
  env: CompileEnv,
  field: ResolvedField,
  values: JsonScalar[],
  boost: number,
): Weight {
  const path = field.path;
  const score = f(boost);
  if (field.rangeType) return rangeFieldTermsQuery(env, field, values, boost);
  switch (field.type) {
    case 'text':
    case 'keyword': {
      checkSearchable(env, field);
      const terms = values.map(scalarText);
      return new ConstantWeight((rs) => termSetDocs(rs, path, terms), score);
    }
    case 'boolean': {
      const terms = values.map((v) => booleanTerm(env.reader, path, parseBooleanValue(v, env)));
      return new ConstantWeight((rs) => termSetDocs(rs, path, terms), score);
    }
    case 'ip':
    case 'date':
    case 'date_nanos': {
      const parts = values.map((v) => termQuery(env, field, v, boost, false) as ConstantWeight);
      return new ConstantWeight((rs) => unionOf(parts, rs), score);
    }
    case 'geo_point':
      return termQuery(env, field, values[0] ?? null, boost, false);
    default: {
      const set = new Set<number | bigint>();
      for (const v of values) {
        const n = toFieldNumber(field.type, v, env, false, field.scalingFactor);
        if (isIntegerType(field.type) && typeof n === 'number' && !Number.isInteger(n)) continue;
        set.add(n);
      }
      return new ConstantWeight(
        (rs) => numericSetDocs(rs, path, set),
        score,
        undefined,
        (rs) => numericSetCount(rs, path, set),
      );
    }
  }
}

function unionOf(parts: ConstantWeight[], rs: ReaderSegment): Int32Array {
  if (parts.length === 1) {
    const m = parts[0]!.matches(rs, false);
    return m.kind === 'docs' ? m.docs : new Int32Array(0);
  }
  const seen = new Uint8Array(rs.segment.maxDoc);
  for (const p of parts) {
    const m = p.matches(rs, false);
    if (m.kind === 'docs') for (let i = 0; i < m.docs.length; i++) seen[m.docs[i]!] = 1;
  }
  const out: number[] = [];
  for (let i = 0; i < seen.length; i++) if (seen[i] === 1) out.push(i);
  return Int32Array.from(out);
}

export interface RangeBounds {
  gt?: JsonScalar;
  gte?: JsonScalar;
  lt?: JsonScalar;
  lte?: JsonScalar;
  format?: string;
  timeZone?: string;
  relation?: 'intersects' | 'contains' | 'within';
}

export function rangeQuery(env: CompileEnv, field: ResolvedField, r: RangeBounds, boost: number): Weight {
  if (field.rangeType) return rangeFieldRangeQuery(env, field, r, boost);
  const path = field.path;
  const score = f(boost);
  const lower = r.gt ?? r.gte;
  const upper = r.lt ?? r.lte;
  const loInc = r.gt === undefined;
  const hiInc = r.lt === undefined;
  const has = (v: JsonScalar | undefined): v is JsonScalar => v !== undefined && v !== null;
  switch (field.type) {
    case 'text':
    case 'keyword': {
      checkSearchable(env, field);
      const lo = has(lower) ? scalarText(lower) : undefined;
      const hi = has(upper) ? scalarText(upper) : undefined;
      return new ConstantWeight((rs) => dictionaryDocs(rs, path, termRange(lo, loInc, hi, hiInc)), score);
    }
    case 'boolean': {
      const lo = has(lower) ? booleanTerm(env.reader, path, parseBooleanValue(lower, env)) : undefined;
      const hi = has(upper) ? booleanTerm(env.reader, path, parseBooleanValue(upper, env)) : undefined;
      return new ConstantWeight((rs) => dictionaryDocs(rs, path, termRange(lo, loInc, hi, hiInc)), score);
    }
    case 'ip': {
      let lo = has(lower) ? ipBounds(scalarText(lower), env)[0] : 0n;
      let hi = has(upper) ? ipBounds(scalarText(upper), env)[1] : (1n << 128n) - 1n;
      if (!loInc) lo += 1n;
      if (!hiInc) hi -= 1n;
      return new ConstantWeight((rs) => ipRangeDocs(rs, path, lo, hi), score);
    }
    case 'date':
    case 'date_nanos': {
      const format = r.format ?? field.format ?? 'strict_date_optional_time||epoch_millis';
      const res = dateResolution(field);
      // Elasticsearch rounds `gt` and `lte` up (end of the unit), `gte` and `lt` down.
      const bound = (v: JsonScalar, roundUp: boolean) =>
        resolveDateMath(scalarText(v), format, res, {
          roundUp,
          timeZone: r.timeZone,
          nowMillis: env.nowMillis,
        });
      const lo = has(lower) ? bound(lower, !loInc) : undefined;
      const hi = has(upper) ? bound(upper, hiInc) : undefined;
      return new ConstantWeight(
        (rs) => numericRangeDocs(rs, path, lo, loInc, hi, hiInc),
        score,
        (rs) => numericRangeVerifier(rs, path, lo, loInc, hi, hiInc),
        (rs) => numericRangeCount(rs, path, lo, loInc, hi, hiInc),
      );
    }
    case 'geo_point':
      throw queryShardException(
        `Field [${path}] of type [geo_point] does not support range queries`,
        env.index,
        env.indexUuid,
      );
    default: {
      const lo = has(lower) ? toFieldNumber(field.type, lower, env, true) : undefined;
      const hi = has(upper) ? toFieldNumber(field.type, upper, env, true) : undefined;
      return new ConstantWeight(
        (rs) => numericRangeDocs(rs, path, lo, loInc, hi, hiInc),
        score,
        (rs) => numericRangeVerifier(rs, path, lo, loInc, hi, hiInc),
        (rs) => numericRangeCount(rs, path, lo, loInc, hi, hiInc),
      );
    }
  }
}

export function existsQuery(env: CompileEnv, name: string, boost: number): Weight {
  const fields: string[] = [];
  const leaf = name.includes('*') ? undefined : env.mapping.field(name);
  if (leaf) fields.push(leaf.path);
  else if (name.includes('*')) fields.push(...env.mapping.fieldsMatching(name).map((x) => x.path));
  else if (env.mapping.isObject(name))
    fields.push(...env.mapping.fieldsMatching(`${name}.*`).map((x) => x.path));
  if (fields.length === 0) return NONE;
  return new ConstantWeight((rs) => {
    const lists: Int32Array[] = [];
    for (const p of fields) {
      const sf = rs.segment.field(p);
      if (sf && sf.docsWithField.length > 0) lists.push(sf.docsWithField);
    }
    if (lists.length <= 1) return lists[0] ?? new Int32Array(0);
    return unionOf(
      lists.map((l) => new ConstantWeight(() => l, 0)),
      rs,
    );
  }, f(boost));
}

export function idsQuery(ids: string[], boost: number): Weight {
  return new ConstantWeight((rs) => {
    const found: number[] = [];
    for (const id of ids) {
      const d = rs.segment.docOfId(id);
      if (d >= 0) found.push(d);
    }
    const out = Int32Array.from(new Set(found));
    return out.sort();
  }, f(boost));
}

function requireStringField(env: CompileEnv, field: ResolvedField, kind: string): void {
  if (field.type === 'text' || field.type === 'keyword') {
    checkSearchable(env, field);
    return;
  }
  throw queryShardException(
    `Can only use ${kind} queries on keyword, text and wildcard fields - not on [${field.path}] which is of type [${field.type}]`,
    env.index,
    env.indexUuid,
  );
}

export function prefixQuery(
  env: CompileEnv,
  field: ResolvedField,
  value: string,
  boost: number,
  ci: boolean,
): Weight {
  requireStringField(env, field, 'prefix');
  const path = field.path;
  let w: ConstantWeight;
  if (ci) {
    const re = new RegExp(`^${escapeRegExp(value)}`, 'iu');
    w = new ConstantWeight((rs) => dictionaryDocs(rs, path, allTerms, (t) => re.test(t)), f(boost));
  } else {
    w = new ConstantWeight((rs) => dictionaryDocs(rs, path, prefixRange(value)), f(boost));
  }
  // Full-text queries build prefixes without a query node of their own: explain names them by one.
  env.sources?.set(w, { type: 'prefix', field: path, value, boost, caseInsensitive: ci });
  return w;
}

/** Text fields normalise the pattern with their search analyzer (lowercase for the built-ins). */
export function wildcardQuery(
  env: CompileEnv,
  field: ResolvedField,
  value: string,
  boost: number,
  ci: boolean,
): Weight {
  requireStringField(env, field, 'wildcard');
  const path = field.path;
  let pattern = value;
  if (field.type === 'text' && lowercases(field.searchAnalyzer ?? field.analyzer))
    pattern = pattern.toLowerCase();
  const { re, prefix } = wildcardRegExp(pattern, ci);
  return new ConstantWeight(
    (rs) => dictionaryDocs(rs, path, prefixRange(prefix), (t) => re.test(t)),
    f(boost),
  );
}

export function lowercases(analyzer: string | undefined): boolean {
  return analyzer !== 'whitespace' && analyzer !== 'keyword';
}
