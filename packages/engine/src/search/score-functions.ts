/**
 * function_score's functions for one shard (ScoreFunctionBuilder.toFunction): per segment, a
 * doc's value as a double, as Elasticsearch's LeafScoreFunction.score gives it. Building one
 * fails the way doToFunction fails: inside SearchExecutionContext.toQuery, so that most errors
 * become `failed to create query: …` query_shard_exceptions.
 */
import {
  illegalArgument,
  javaDouble,
  javaStringHash,
  longHash,
  murmur3x86_32,
  type QueryNode,
  ShoalError,
} from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import type { NumericValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { scriptScoreFunction } from '../script/script-query.ts';
import type { CompileEnv } from './compile-env.ts';
import { decay } from './decay-functions.ts';
import { failedToCreateQuery, isNumericType } from './field-values.ts';

type FunctionSpec = Extract<QueryNode, { type: 'function_score' }>['functions'][number];
type Body = FunctionSpec['fn'];
type FieldValueFactor = Extract<Body, { kind: 'field_value_factor' }>;
export type Decay = Extract<Body, { kind: 'decay' }>;

/** A function's value for a segment doc (a double, as LeafScoreFunction.score); `score` is the inner query's. */
export type LeafFunction = (doc: number, score?: number) => number;

/** A ScoreFunction: its per-segment values and ScoreFunction.getWeight() (1 without a weight). */
export interface ScoreFunction {
  readonly weight: number;
  leaf(rs: ReaderSegment): LeafFunction;
  /** Whether it reads the inner query's score (a script using `_score`). */
  readonly needsScore?: boolean;
}

/** ScoreFunctionBuilder.toFunction: the function, times its weight when it has one. */
export function scoreFunction(spec: FunctionSpec, env: CompileEnv): ScoreFunction {
  let needsScore = false;
  let inner: (rs: ReaderSegment) => LeafFunction;
  if (spec.fn.kind === 'script') {
    const s = scriptScoreFunction(env, spec.fn.script);
    needsScore = s.needsScore;
    inner = (rs) => s.leaf(rs);
  } else {
    inner = bodyFunction(spec.fn, env);
  }
  const w = spec.weight;
  if (w === undefined) return { weight: 1, leaf: inner, needsScore };
  // WeightFactorFunction: the function's double times the float weight.
  return {
    weight: w,
    needsScore,
    leaf: (rs) => {
      const fn = inner(rs);
      return (doc, score) => fn(doc, score) * w;
    },
  };
}

function bodyFunction(
  fn: Exclude<Body, { kind: 'script' }>,
  env: CompileEnv,
): (rs: ReaderSegment) => LeafFunction {
  switch (fn.kind) {
    case 'weight':
      return () => () => 1;
    case 'field_value_factor':
      return fieldValueFactor(fn, env);
    case 'random_score':
      return randomScore(fn, env);
    case 'decay':
      return decay(fn, env);
  }
}

// ------------------------------------------------------------ field_value_factor

const MODIFIERS: Record<FieldValueFactor['modifier'], (n: number) => number> = {
  none: (n) => n,
  log: Math.log10,
  log1p: (n) => Math.log10(n + 1),
  log2p: (n) => Math.log10(n + 2),
  ln: Math.log,
  ln1p: Math.log1p,
  ln2p: (n) => Math.log1p(n + 1),
  square: (n) => n * n,
  sqrt: Math.sqrt,
  reciprocal: (n) => 1.0 / n,
};

/** FieldValueFactorFunction: modifier(first value × factor), never negative. */
function fieldValueFactor(fn: FieldValueFactor, env: CompileEnv): (rs: ReaderSegment) => LeafFunction {
  const field = env.mapping.field(fn.field);
  const { missing, factor, modifier } = fn;
  if (!field && missing === undefined) {
    throw failedToCreateQuery(
      env,
      new ShoalError(
        'exception',
        `Unable to find a field mapper for field [${fn.field}]. No 'missing' value defined.`,
        500,
      ),
    );
  }
  if (field) numericFieldData(env, field);
  const apply = MODIFIERS[modifier];
  return (rs) => {
    const n = field ? rs.segment.field(field.path)?.numeric : undefined;
    return (doc) => {
      let value: number;
      if (n && n.starts[doc]! < n.starts[doc + 1]!) value = Number(n.values[n.starts[doc]!]!);
      else if (missing !== undefined) value = missing;
      else throw new ShoalError('exception', `Missing value for field [${fn.field}]`, 500);
      const result = apply(value * factor);
      if (result < 0) {
        let message = `field value function must not produce negative scores, but got: [${javaDouble(result)}] for field value: [${javaDouble(value)}]`;
        if (modifier === 'ln')
          message += '; consider using ln1p or ln2p instead of ln to avoid negative scores';
        else if (modifier === 'log')
          message += '; consider using log1p or log2p instead of log to avoid negative scores';
        throw illegalArgument(message);
      }
      return result;
    };
  };
}

/** What context.getForField gives for a field read as numbers: only numbers and dates are. */
function numericFieldData(env: CompileEnv, field: ResolvedField): void {
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

// ------------------------------------------------------------ random_score

/** hppc BitMixer.mix32: MurmurHash3's finalisation step. */
export function mix32(k: number): number {
  k = Math.imul(k ^ (k >>> 16), 0x85ebca6b);
  k = Math.imul(k ^ (k >>> 13), 0xc2b2ae35);
  return k ^ (k >>> 16);
}

const UTF8 = new TextEncoder();

/** The lower 24 bits of a hash as a float in [0, 1). */
function unit(hash: number): number {
  return (hash & 0x00ffffff) / (1 << 24);
}

/**
 * RandomScoreFunctionBuilder.doToFunction / RandomScoreFunction. The seed is salted with the
 * index name and shard. Without a seed the source is the reader's doc ids and the seed the
 * request's `now` (reproducible only within a request); with one, a hash of the field's first
 * value (`_seq_no` by default), as its field data prints it.
 */
function randomScore(
  fn: Extract<Body, { kind: 'random_score' }>,
  env: CompileEnv,
): (rs: ReaderSegment) => LeafFunction {
  const salt = (javaStringHash(env.index) << 10) | (env.shardId ?? 0);
  const byDoc = () => {
    const salted = mix32(longHash(BigInt(env.nowMillis)) ^ salt);
    return (rs: ReaderSegment): LeafFunction =>
      (doc) =>
        unit(mix32((rs.docBase + doc) ^ salted));
  };
  if (fn.seed === undefined) return byDoc();
  const name = fn.field ?? '_seq_no';
  const salted = mix32(fn.seed ^ salt);
  if (name === '_seq_no') {
    return (rs) => {
      const seqNos = rs.segment.stored.seqNos;
      return (doc) => unit(murmur3x86_32(UTF8.encode(String(seqNos[doc]!)), salted));
    };
  }
  if (name === '_id') {
    throw failedToCreateQuery(
      env,
      illegalArgument(
        'Fielddata access on the _id field is disallowed, you can re-enable it by updating the dynamic cluster setting: indices.id_field_data.enabled',
      ),
    );
  }
  const field = env.mapping.field(name);
  if (!field) {
    // No mappings at all: the index is empty anyway.
    if (env.mapping.fieldsMatching('*').length === 0) return byDoc();
    throw failedToCreateQuery(
      env,
      illegalArgument(
        `Field [${fn.field}] is not mapped on [[${env.index}/${env.indexUuid}]] and cannot be used as a source of random numbers.`,
      ),
    );
  }
  if (field.type === 'text') numericFieldData(env, field);
  return (rs) => {
    const sf = rs.segment.field(field.path);
    const first = firstValueText(sf?.numeric, sf?.sortedSet, field);
    return (doc) => {
      const text = first(doc);
      return unit(text === null ? salted : murmur3x86_32(UTF8.encode(text), salted));
    };
  };
}

/** A doc's first value as field data's bytes print it: Long.toString, Double.toString, the term. */
function firstValueText(
  n: NumericValues | undefined,
  ss: { terms: readonly string[]; starts: Uint32Array; ords: Int32Array } | undefined,
  field: ResolvedField,
): (doc: number) => string | null {
  if (n) {
    const asLong =
      n.kind === 'long' || field.type === 'date' || !isNumericType(field.type) || isIntegral(field);
    return (doc) => {
      const s = n.starts[doc]!;
      if (s === n.starts[doc + 1]!) return null;
      const v = n.values[s]!;
      return asLong ? String(v) : javaDouble(v as number);
    };
  }
  if (ss) {
    return (doc) => {
      const s = ss.starts[doc]!;
      return s === ss.starts[doc + 1]! ? null : ss.terms[ss.ords[s]!]!;
    };
  }
  return () => null;
}

function isIntegral(field: ResolvedField): boolean {
  return field.type === 'long' || field.type === 'integer' || field.type === 'short' || field.type === 'byte';
}

// ------------------------------------------------------------ decay functions
