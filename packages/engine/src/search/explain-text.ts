/**
 * Lucene's Query#toString for compiled weights: what `_explain` names clauses with and what
 * `_validate/query?explain=true` answers. Weights that keep their terms (term, phrase, bool,
 * dis_max…) are printed from themselves; constant-score sets (range, terms, exists, prefix…)
 * from the query node that built them (CompileEnv.sources), as Elasticsearch's field types
 * build those Lucene queries.
 */
import {
  type JsonScalar,
  javaDouble,
  javaFloat,
  notImplemented,
  type QueryNode,
  type ScriptSpec,
} from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import { resolveDateMath } from '../dates/index.ts';
import { BoolWeight } from './bool-weight.ts';
import type { CompileEnv } from './compile-env.ts';
import { DisMaxWeight } from './dis-max-weight.ts';
import { isIntegerType, scalarText, toFieldNumber } from './field-values.ts';
import { BoostingWeight, FunctionScoreWeight } from './function-score.ts';
import { MinScoreWeight } from './min-score.ts';
import { PhraseWeight } from './phrase-weight.ts';
import { lowercases } from './term-level.ts';
import {
  ConstantScoreWeight,
  ConstantWeight,
  MatchAllWeight,
  MatchNoneWeight,
  TermWeight,
  type Weight,
} from './weights.ts';

const f = Math.fround;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/** What printing a weight needs: the nodes weights came from and the shard's mapping. */
export interface TextEnv {
  env: CompileEnv;
  sources: WeakMap<Weight, QueryNode>;
  /** Print the query as IndexSearcher#rewrite leaves it (a bool of one clause is that clause). */
  rewritten?: boolean;
}

export function boostSuffix(boost: number): string {
  return boost === 1 ? '' : `^${javaFloat(boost)}`;
}

function unprintable(w: Weight): never {
  throw notImplemented(`describing a [${w.constructor.name}] query (its Lucene form is not written out)`);
}

/** A BoostQuery's toString: `(query)^boost`. */
function boosted(plain: string, boost: number): string {
  return boost === 1 ? plain : `(${plain})${boostSuffix(boost)}`;
}

/**
 * The query of a constant-score weight without its boost (what Lucene's ConstantScoreWeight
 * names in an explanation, the boost then appended as `^2.0`).
 */
export function constantText(w: MatchAllWeight | ConstantWeight | ConstantScoreWeight, t: TextEnv): string {
  if (w instanceof MatchAllWeight) return '*:*';
  if (w instanceof ConstantWeight) return leafText(w, t);
  const node = t.sources.get(w);
  // `_index` queries match the whole shard or nothing; a runtime field's queries are
  // constant-scored by the field, not by a constant_score query.
  if (node && 'field' in node && node.field === '_index') return '*:*';
  if (node && node.type !== 'constant_score') return nodeText(node, t.env);
  return `ConstantScore(${queryString(w.inner, t)})`;
}

/** Lucene's Query#toString of the weight's query (boosted clauses as BoostQuery prints them). */
export function queryString(w: Weight, t: TextEnv): string {
  if (w instanceof MatchAllWeight || w instanceof ConstantWeight || w instanceof ConstantScoreWeight)
    return boosted(constantText(w, t), w.score);
  if (w instanceof MatchNoneWeight) return 'MatchNoDocsQuery("")';
  if (w instanceof TermWeight) return boosted(`${w.field}:${w.term}`, w.bm25.boost);
  if (w instanceof PhraseWeight) return boosted(phraseText(w), w.bm25.boost);
  if (w instanceof BoolWeight) return boolText(w, t);
  if (w instanceof DisMaxWeight) {
    const tie = w.tieBreaker === 0 ? '' : `~${javaFloat(w.tieBreaker)}`;
    return `(${w.clauses.map((c) => queryString(c, t)).join(' | ')})${tie}`;
  }
  if (w instanceof FunctionScoreWeight) {
    const fns = w.opts.functions.map((x) => `{${x.filter ? `filter(${queryString(x.filter, t)}), ` : ''}}`);
    return `function score (${queryString(w.inner, t)}, functions: [${fns.join('')}])`;
  }
  if (w instanceof BoostingWeight) {
    const inner = `FunctionScoreQuery(${queryString(w.positive, t)}, scored by boost(queryboost(${queryString(w.negative, t)})^${javaFloat(w.negativeBoost)}))`;
    return w.boost === 1 ? inner : `(${inner})${boostSuffix(w.boost)}`;
  }
  if (w instanceof MinScoreWeight) return queryString(w.inner, t);
  return unprintable(w);
}

function boolText(w: BoolWeight, t: TextEnv): string {
  if (t.rewritten && w.must.length + w.mustNot.length + w.should.length + w.filter.length === 1) {
    if (w.must.length === 1) return queryString(w.must[0]!, t);
    if (w.should.length === 1 && w.minShouldMatch <= 1) return queryString(w.should[0]!, t);
    if (w.filter.length === 1) return `(ConstantScore(${queryString(w.filter[0]!, t)}))^0.0`;
  }
  const part = (prefix: string) => (c: Weight) => {
    const s = queryString(c, t);
    return `${prefix}${c instanceof BoolWeight ? `(${s})` : s}`;
  };
  // In the order BoolQueryBuilder adds them: must, must_not, should, filter.
  const clauses = [
    ...w.must.map(part('+')),
    ...w.mustNot.map(part('-')),
    ...w.should.map(part('')),
    // The match-all filter of a bool of only negative clauses (Queries.fixNegativeQueryIfNeeded).
    ...w.filter.map((c) => (c instanceof MatchAllWeight && c.score === 0 ? '#*:*' : part('#')(c))),
  ];
  const msm = w.minShouldMatch > 0 && w.must.length + w.filter.length > 0 ? `~${w.minShouldMatch}` : '';
  return `${clauses.join(' ')}${msm}`;
}

/** PhraseQuery / MultiPhraseQuery#toString: `f:"a b"`, alternatives in parentheses, gaps as `?`, `~slop`. */
function phraseText(w: PhraseWeight): string {
  const parts: string[] = [];
  let next = 0;
  for (const p of w.positions) {
    for (; next < p.offset; next++) parts.push('?');
    parts.push(p.terms.length === 1 ? p.terms[0]! : `(${p.terms.join(' ')})`);
    next = p.offset + 1;
  }
  return `${w.field}:"${parts.join(' ')}"${w.slop === 0 ? '' : `~${w.slop}`}`;
}

function leafText(w: ConstantWeight, t: TextEnv): string {
  const node = t.sources.get(w);
  if (!node) return unprintable(w);
  return nodeText(node, t.env);
}

/** The Lucene query Elasticsearch builds for a constant-score query node, printed. */
export function nodeText(node: QueryNode, env: CompileEnv): string {
  switch (node.type) {
    case 'range':
      return rangeText(node, env);
    case 'terms':
      return termsText(node.field, node.values, env);
    case 'term':
      if (node.field === '_id') return idsText([scalarText(node.value)]);
      return termsText(node.field, [node.value], env);
    case 'ids':
      return idsText(node.values);
    case 'exists':
      return existsText(node.field, env);
    case 'prefix':
      return `${node.field}:${node.value}*`;
    case 'wildcard': {
      const fd = env.mapping.field(node.field);
      const lower = fd?.type === 'text' && lowercases(fd.searchAnalyzer ?? fd.analyzer);
      return `${node.field}:${lower ? node.value.toLowerCase() : node.value}`;
    }
    case 'regexp':
      return `${node.field}:/${node.value}/`;
    case 'match_all':
      return '*:*';
    case 'script':
      return `ScriptQuery(${scriptText(node.script)})`;
    case 'geo_distance': {
      // LatLonPointDistanceQuery#toString (strict validation leaves the center as given).
      const path = env.mapping.field(node.field)?.path ?? node.field;
      return `${path}:${javaDouble(node.lat)},${javaDouble(node.lon)} +/- ${javaDouble(node.distance)} meters`;
    }
    default:
      throw notImplemented(`describing a [${node.type}] query (its Lucene form is not written out)`);
  }
}

/** FieldExistsQuery per field; an object's leaves as a disjunction of them. */
function existsText(name: string, env: CompileEnv): string {
  const leaf = name.includes('*') ? undefined : env.mapping.field(name);
  const fields = leaf
    ? [leaf.path]
    : env.mapping.fieldsMatching(name.includes('*') ? name : `${name}.*`).map((x) => x.path);
  const parts = fields.map((p) => `FieldExistsQuery [field=${p}]`);
  return parts.length === 1 ? parts[0]! : `ConstantScore(${parts.join(' ')})`;
}

function numberText(type: ResolvedField['type'], v: number | bigint): string {
  if (typeof v === 'bigint') return v.toString();
  if (type === 'float' || type === 'half_float') return javaFloat(v);
  if (isIntegerType(type) || type === 'date' || type === 'date_nanos') return String(v);
  return javaDouble(v);
}

/** `terms` (TermInSetQuery `f:(a b)`, or a point set `f:{1 2}`) and exact terms on points. */
function termsText(name: string, values: JsonScalar[], env: CompileEnv): string {
  const fd = env.mapping.field(name);
  if (!fd) return 'MatchNoDocsQuery("")';
  if (fd.type === 'keyword' || fd.type === 'text' || fd.type === 'boolean' || fd.type === 'ip') {
    const terms = [...new Set(values.map((v) => scalarText(v)))].sort();
    return values.length === 1 ? `${fd.path}:${terms[0]}` : `${fd.path}:(${terms.join(' ')})`;
  }
  if (fd.type === 'date' || fd.type === 'date_nanos') {
    const format = fd.format ?? 'strict_date_optional_time||epoch_millis';
    const res = fd.type === 'date_nanos' ? 'nanos' : 'millis';
    const bounds = values.map((v) => {
      const lo = resolveDateMath(scalarText(v), format, res, { roundUp: false, nowMillis: env.nowMillis });
      const hi = resolveDateMath(scalarText(v), format, res, { roundUp: true, nowMillis: env.nowMillis });
      return `${fd.path}:[${lo} TO ${hi}]`;
    });
    return bounds.length === 1 ? bounds[0]! : bounds.join(' ');
  }
  // Point set queries keep their values sorted.
  const nums = values
    .map((v) => toFieldNumber(fd.type, v, env, false, fd.scalingFactor))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((v) => numberText(fd.type, v));
  return nums.length === 1 ? `${fd.path}:[${nums[0]} TO ${nums[0]}]` : `${fd.path}:{${nums.join(' ')}}`;
}

/** A range as the field type builds it: points with inclusive bounds, or a TermRangeQuery. */
function rangeText(node: Extract<QueryNode, { type: 'range' }>, env: CompileEnv): string {
  const fd = env.mapping.field(node.field);
  if (!fd) return 'MatchNoDocsQuery("")';
  const has = (v: JsonScalar | undefined): v is JsonScalar => v !== undefined && v !== null;
  const lower = node.gt ?? node.gte;
  const upper = node.lt ?? node.lte;
  const loInc = node.gt === undefined;
  const hiInc = node.lt === undefined;
  const path = fd.path;
  if (fd.type === 'keyword' || fd.type === 'text' || fd.type === 'boolean' || fd.type === 'ip') {
    const lo = has(lower) ? scalarText(lower) : '*';
    const hi = has(upper) ? scalarText(upper) : '*';
    return `${path}:${loInc ? '[' : '{'}${lo} TO ${hi}${hiInc ? ']' : '}'}`;
  }
  if (fd.type === 'date' || fd.type === 'date_nanos') {
    const format = node.format ?? fd.format ?? 'strict_date_optional_time||epoch_millis';
    const res = fd.type === 'date_nanos' ? 'nanos' : 'millis';
    const bound = (v: JsonScalar, roundUp: boolean) =>
      BigInt(
        resolveDateMath(scalarText(v), format, res, {
          roundUp,
          timeZone: node.timeZone,
          nowMillis: env.nowMillis,
        }),
      );
    let lo = has(lower) ? bound(lower, !loInc) : LONG_MIN;
    let hi = has(upper) ? bound(upper, hiInc) : LONG_MAX;
    if (has(lower) && !loInc) lo += 1n;
    if (has(upper) && !hiInc) hi -= 1n;
    return `${path}:[${lo} TO ${hi}]`;
  }
  if (isIntegerType(fd.type)) {
    const wide = fd.type === 'long';
    let lo = has(lower) ? BigInt(Math.ceil(Number(toFieldNumber(fd.type, lower, env, true)))) : undefined;
    let hi = has(upper) ? BigInt(Math.floor(Number(toFieldNumber(fd.type, upper, env, true)))) : undefined;
    if (has(lower)) {
      const exact = toFieldNumber(fd.type, lower, env, true);
      if (typeof exact === 'bigint') lo = exact;
      if (!loInc && (typeof exact === 'bigint' || Number.isInteger(exact))) lo = lo! + 1n;
    }
    if (has(upper)) {
      const exact = toFieldNumber(fd.type, upper, env, true);
      if (typeof exact === 'bigint') hi = exact;
      if (!hiInc && (typeof exact === 'bigint' || Number.isInteger(exact))) hi = hi! - 1n;
    }
    const min = wide ? LONG_MIN : BigInt(INT_MIN);
    const max = wide ? LONG_MAX : BigInt(INT_MAX);
    return `${path}:[${lo ?? min} TO ${hi ?? max}]`;
  }
  const float = fd.type === 'float' || fd.type === 'half_float';
  const step = (v: number, up: boolean) => (float ? nextFloat(v, up) : nextDouble(v, up));
  let lo = has(lower) ? Number(toFieldNumber(fd.type, lower, env, true)) : Number.NEGATIVE_INFINITY;
  let hi = has(upper) ? Number(toFieldNumber(fd.type, upper, env, true)) : Number.POSITIVE_INFINITY;
  if (has(lower) && !loInc) lo = step(lo, true);
  if (has(upper) && !hiInc) hi = step(hi, false);
  const text = (v: number) => (float ? javaFloat(f(v)) : javaDouble(v));
  return `${path}:[${text(lo)} TO ${text(hi)}]`;
}

const view = new DataView(new ArrayBuffer(8));

/** Math.nextUp / nextDown of a double. */
export function nextDouble(v: number, up: boolean): number {
  if (Number.isNaN(v) || v === (up ? Infinity : -Infinity)) return v;
  if (v === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  view.setFloat64(0, v);
  let bits = view.getBigInt64(0);
  bits += v > 0 === up ? 1n : -1n;
  view.setBigInt64(0, bits);
  return view.getFloat64(0);
}

/** Math.nextUp / nextDown of a float. */
function nextFloat(v: number, up: boolean): number {
  if (Number.isNaN(v) || v === (up ? Infinity : -Infinity)) return v;
  if (v === 0) return up ? 1.401298464324817e-45 : -1.401298464324817e-45;
  view.setFloat32(0, v);
  let bits = view.getInt32(0);
  bits += v > 0 === up ? 1 : -1;
  view.setInt32(0, bits);
  return view.getFloat32(0);
}

/** `_id` terms as Elasticsearch's Uid.encodeId stores them, printed as Lucene's Term.toString. */
export function idsText(ids: string[]): string {
  const encoded = [...new Set(ids)].map(encodeId).sort(compareBytes);
  return `_id:(${encoded.map(termText).join(' ')})`;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Uid.encodeId: numeric ids packed two digits a byte, url-safe base64 ids decoded, others as UTF-8. */
export function encodeId(id: string): Uint8Array {
  if (/^\d+$/.test(id) && (id.length === 1 || id[0] !== '0')) {
    const out = new Uint8Array(1 + ((id.length + 1) >> 1));
    out[0] = 0xfe;
    for (let i = 0; i < id.length; i += 2) {
      const hi = id.charCodeAt(i) - 48;
      const lo = i + 1 === id.length ? 0x0f : id.charCodeAt(i + 1) - 48;
      out[1 + (i >> 1)] = (hi << 4) | lo;
    }
    return out;
  }
  if (id.length % 4 !== 1 && BASE64URL.test(id)) {
    const bytes = Buffer.from(id, 'base64url');
    // Only ids that decode and encode back to themselves (no stray bits in the last character).
    if (bytes.toString('base64url') === id) {
      const b = new Uint8Array(bytes);
      if (b.length > 0 && b[0]! < 0xfd) return b;
      const out = new Uint8Array(b.length + 1);
      out[0] = 0xfd;
      out.set(b, 1);
      return out;
    }
  }
  const utf8 = Buffer.from(id, 'utf8');
  const out = new Uint8Array(utf8.length + 1);
  out[0] = 0xff;
  out.set(utf8, 1);
  return out;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Term.toString(BytesRef): the UTF-8 text when the bytes are valid UTF-8, else `[hex bytes]`. */
function termText(b: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(b);
  } catch {
    return `[${[...b].map((x) => x.toString(16)).join(' ')}]`;
  }
}

/** Script#toString. */
export function scriptText(s: ScriptSpec): string {
  const type = s.id !== undefined ? 'stored' : 'inline';
  const code = s.id ?? s.source ?? '';
  return `Script{type=${type}, lang='${s.lang}', idOrCode='${code}', options={}, params=${javaMap(s.params)}}`;
}

/** A Java map's toString: `{a=1, b=x}`. */
export function javaMap(m: Record<string, unknown>): string {
  const text = (v: unknown): string => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      return javaMap(v as Record<string, unknown>);
    if (Array.isArray(v)) return `[${v.map(text).join(', ')}]`;
    if (typeof v === 'number' && !Number.isInteger(v)) return javaDouble(v);
    return String(v);
  };
  return `{${Object.entries(m)
    .map(([k, v]) => `${k}=${text(v)}`)
    .join(', ')}}`;
}
