/**
 * Document parsing for the field types kept as another type (special-types.ts): a `binary`
 * value is checked as base64, a `wildcard` is a keyword, a `constant_keyword` must equal the
 * mapping's value (or sets it), a `token_count` counts its analyser's tokens, a `flattened`
 * object gives its leaves to the field and each leaf to its keyed sub-field (`labels.env`),
 * and a range becomes its encoded term.
 */

import { illegalArgument, numberFormat, type ShoalError, xContentParse } from '@shoal/protocol';
import type { IndexableField } from '../contract.ts';
import type { CField } from './compiled.ts';
import { vectorTerm } from './dense-vector.ts';
import { addNumber, addTerm, type Ctx, location, markIgnored, text } from './document-values.ts';
import { javaToString } from './java-text.ts';
import { isPlainObject } from './nodes.ts';
import { rangeTerm } from './range-values.ts';
import { isRangeType } from './special-types.ts';

const BASE64 = /^[A-Za-z0-9+/]*$/;

function jsonToken(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint')
    return Number.isInteger(Number(value)) ? 'VALUE_NUMBER_INT' : 'VALUE_NUMBER_FLOAT';
  if (typeof value === 'boolean') return value ? 'VALUE_TRUE' : 'VALUE_FALSE';
  if (Array.isArray(value)) return 'START_ARRAY';
  return 'START_OBJECT';
}

function parseFailure(ctx: Ctx, message: string): ShoalError {
  const [line, col] = (location(ctx) ?? '0:0').split(':').map(Number);
  return xContentParse(line ?? 0, col ?? 0, message);
}

/**
 * BinaryFieldMapper reads the value with Jackson's base64 decoder (MIME without line feeds):
 * whitespace is skipped, padding is required, any other character is refused.
 */
function checkBase64(value: unknown, ctx: Ctx): string {
  if (typeof value !== 'string') {
    throw parseFailure(
      ctx,
      `Current token (${jsonToken(value)}) not VALUE_STRING or VALUE_EMBEDDED_OBJECT, can not access as binary`,
    );
  }
  let s = '';
  for (const ch of value) if (ch > ' ') s += ch;
  const body = s.replace(/={1,2}$/, '');
  if (!BASE64.test(body)) {
    const bad = [...body].find((c) => !/[A-Za-z0-9+/]/.test(c))!;
    const code = bad.codePointAt(0)!.toString(16);
    throw parseFailure(
      ctx,
      `Failed to decode VALUE_STRING as base64 (MIME-NO-LINEFEEDS): Illegal character '${bad}' (code 0x${code}) in base64 content`,
    );
  }
  if (s.length % 4 !== 0 || body.length % 4 === 1) {
    throw parseFailure(
      ctx,
      `Failed to decode VALUE_STRING as base64 (MIME-NO-LINEFEEDS): Unexpected end of base64-encoded String: base64 variant 'MIME-NO-LINEFEEDS' expects padding (one or more '=' characters) at the end`,
    );
  }
  return value;
}

function keyedSlot(path: string, ctx: Ctx): IndexableField {
  ctx.keyed ??= new Map();
  let s = ctx.keyed.get(path);
  if (!s) {
    s = { path, type: 'keyword', terms: [] };
    ctx.keyed.set(path, s);
    ctx.fields.push(s);
  }
  return s;
}

/** FlattenedFieldParser: every leaf under the field, with its dotted key. */
function indexFlattened(f: CField, value: unknown, ctx: Ctx): void {
  if (!isPlainObject(value)) {
    throw illegalArgument(
      `Failed to parse object: expecting token of type [START_OBJECT] but found [${jsonToken(value) === 'START_OBJECT' ? 'VALUE_STRING' : jsonToken(value)}]`,
    );
  }
  const leaf = (key: string, v: unknown) => {
    if (v === null) {
      if (f.nullValue === undefined) return;
      v = f.nullValue;
    }
    const s = typeof v === 'string' ? v : javaToString(v);
    if (s.length > f.ignoreAbove) {
      markIgnored(f, ctx);
      return;
    }
    addTerm(f, s, ctx);
    keyedSlot(`${f.path}.${key}`, ctx).terms!.push(s);
  };
  const walk = (obj: Record<string, unknown>, prefix: string, depth: number) => {
    if (depth > f.depthLimit) {
      throw illegalArgument(
        `the provided [flattened] field [${f.path}] exceeds the maximum depth limit of [${f.depthLimit}]`,
      );
    }
    for (const [k, v] of Object.entries(obj)) {
      const key = prefix === '' ? k : `${prefix}.${k}`;
      const values = Array.isArray(v) ? v.flat(Number.POSITIVE_INFINITY) : [v];
      for (const x of values) {
        if (isPlainObject(x)) walk(x, key, depth + 1);
        else leaf(key, x);
      }
    }
  };
  walk(value, '', 1);
}

/** Float.MIN_NORMAL: the smallest value Lucene's FeatureField takes. */
const MIN_NORMAL = 1.1754943508222875e-38;

/** FeatureField's checks; a negative score impact keeps 1/value (RankFeatureFieldMapper). */
function featureValue(value: number, feature: string, positive: boolean): number {
  let v = Math.fround(value);
  if (!positive) v = Math.fround(1 / v);
  if (!Number.isFinite(v))
    throw illegalArgument(`featureValue must be finite, got: ${javaFloat(v)} for feature: ${feature}`);
  if (v < MIN_NORMAL) {
    throw illegalArgument(
      `featureValue must be a positive normal float, got: ${javaFloat(v)} for feature: ${feature} which is less than the minimum positive normal float: 1.17549435E-38`,
    );
  }
  return v;
}

/** Float.toString for the values FeatureField's errors show. */
function javaFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
  return Number.isInteger(v) && Math.abs(v) < 1e7 ? `${v}.0` : String(v);
}

/** XContentParser.floatValue() of a feature's value: numbers, and numeric strings. */
function floatOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value))
    return Number(value);
  if (typeof value === 'string') throw numberFormat(value);
  throw illegalArgument(
    `Current token (${jsonToken(value)}) not numeric, can not use numeric value accessors`,
  );
}

/** RankFeatureFieldMapper: one positive float per document. */
function indexRankFeature(f: CField, value: unknown, ctx: Ctx): void {
  if (ctx.fields.some((x) => x.path === f.path && x.numbers && x.numbers.length > 0)) {
    throw illegalArgument(
      `[rank_feature] fields do not support indexing multiple values for the same field [${f.path}] in the same document`,
    );
  }
  addNumber(f, featureValue(floatOf(value), f.path, f.positiveScoreImpact), ctx);
}

/**
 * RankFeaturesFieldMapper: an object of feature → positive float. The field keeps the feature
 * names as terms (what `exists` finds) and each value under `field.feature`, which the
 * rank_feature query reads.
 */
function indexRankFeatures(f: CField, value: unknown, ctx: Ctx): void {
  if (!isPlainObject(value)) {
    throw illegalArgument(
      `[rank_features] fields must be json objects, expected a START_OBJECT but got: ${jsonToken(value) === 'START_OBJECT' ? 'VALUE_STRING' : jsonToken(value)}`,
    );
  }
  for (const [feature, v] of Object.entries(value)) {
    if (typeof v !== 'number' && typeof v !== 'bigint' && typeof v !== 'string') {
      throw illegalArgument(
        `[rank_features] fields take hashes that map a feature to a strictly positive float, but got unexpected token ${v === null ? 'VALUE_NULL' : jsonToken(v)}`,
      );
    }
    const path = `${f.path}.${feature}`;
    ctx.keyed ??= new Map();
    if (ctx.keyed.has(path)) {
      throw illegalArgument(
        `[rank_features] fields do not support indexing multiple values for the same rank feature [${path}] in the same document`,
      );
    }
    const slotField: IndexableField = {
      path,
      type: 'float',
      numbers: [featureValue(floatOf(v), feature, f.positiveScoreImpact)],
    };
    ctx.keyed.set(path, slotField);
    ctx.fields.push(slotField);
    addTerm(f, feature, ctx);
  }
}

const LONG_MAX = (1n << 63n) - 1n;
const UNSIGNED_MAX = (1n << 64n) - 1n;

/**
 * An unsigned_long value (UnsignedLongFieldMapper): a whole number from 0 to 2^64-1, a decimal
 * one truncated when coerce allows it. Shoal keeps them as signed longs, so values above
 * 2^63-1 are refused with that limit named rather than stored wrong.
 */
export function unsignedLong(value: unknown, coerce: boolean): bigint {
  let s: string;
  if (typeof value === 'bigint') s = value.toString();
  else if (typeof value === 'number') s = Number.isInteger(value) ? BigInt(value).toString() : String(value);
  else if (typeof value === 'string') s = value.trim();
  else
    throw illegalArgument(
      `Current token (${jsonToken(value)}) not numeric, can not use numeric value accessors`,
    );
  let whole: bigint;
  if (/^[+-]?\d+$/.test(s)) whole = BigInt(s);
  else if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) {
    if (!coerce) throw illegalArgument(`Value "${s}" has a decimal part`);
    const n = Number(s);
    if (!Number.isFinite(n)) throw illegalArgument(`Value [${s}] is out of range for unsigned long`);
    whole = BigInt(Math.trunc(n));
  } else throw numberFormat(s);
  if (whole < 0n || whole > UNSIGNED_MAX)
    throw illegalArgument(`Value [${s}] is out of range for unsigned long`);
  if (whole > LONG_MAX) {
    throw illegalArgument(`Value [${s}] is above [${LONG_MAX}], the largest unsigned_long value Shoal keeps`);
  }
  return whole;
}

export function indexSpecialValue(f: CField, value: unknown, ctx: Ctx): void {
  switch (f.type) {
    case 'binary':
      addTerm(f, checkBase64(value, ctx), ctx);
      return;
    case 'wildcard': {
      const s = text(value);
      if (s.length > f.ignoreAbove) {
        markIgnored(f, ctx);
        return;
      }
      addTerm(f, s, ctx);
      return;
    }
    case 'constant_keyword': {
      const s = text(value);
      if (f.constantValue === undefined) {
        ctx.constants ??= new Map();
        if (!ctx.constants.has(f)) ctx.constants.set(f, s);
      } else if (s !== f.constantValue) {
        throw illegalArgument(
          `[constant_keyword] field [${f.path}] only accepts values that are equal to the value defined in the mappings [${f.constantValue}], but got [${s}]`,
        );
      }
      // The term itself is added to every document (document-parser.ts).
      return;
    }
    case 'token_count': {
      const tokens = f.analyzer!.analyze(text(value));
      // enable_position_increments counts positions, so that removed stop words still count.
      const count =
        f.positionIncrements && tokens.length > 0 ? tokens[tokens.length - 1]!.position + 1 : tokens.length;
      addNumber(f, count, ctx);
      return;
    }
    case 'flattened':
      indexFlattened(f, value, ctx);
      return;
    case 'dense_vector':
      addTerm(f, vectorTerm(f.path, f.vector!, value, ctx.id), ctx);
      return;
    case 'unsigned_long':
      addNumber(f, unsignedLong(value, f.coerce), ctx);
      return;
    case 'rank_feature':
      indexRankFeature(f, value, ctx);
      return;
    case 'rank_features':
      indexRankFeatures(f, value, ctx);
      return;
    default:
      if (isRangeType(f.type)) addTerm(f, rangeTerm(f.path, f.type, value, f.coerce, f.format), ctx);
  }
}
