/**
 * The bodies of function_score's functions, as the ScoreFunctionParsers Elasticsearch 8
 * registers read them (SearchModule.registerScoreFunctions): field_value_factor, random_score
 * and the gauss / exp / linear decay functions. Decay parameters stay as sent: how origin, scale
 * and offset read depends on the field's type, which only the shard knows (as
 * DecayFunctionBuilder keeps them as bytes until doToFunction).
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { parseScriptSpec, type ScriptSpec } from '../script/script-spec.ts';
import { javaStringHash } from '../settings/java-hash-order.ts';
import type { ScoreFunctionBody } from './ast.ts';
import { namedObjectNotFound, parsingError } from './local-errors.ts';
import { here, isObject, isValue, type ParseCtx } from './parse-context.ts';
import { doubleValue, floatValue, text } from './xcontent-values.ts';

type FieldValueFactor = Extract<ScoreFunctionBody, { kind: 'field_value_factor' }>;
type Decay = Extract<ScoreFunctionBody, { kind: 'decay' }>;

const MODIFIERS: readonly FieldValueFactor['modifier'][] = [
  'none',
  'log',
  'log1p',
  'log2p',
  'ln',
  'ln1p',
  'ln2p',
  'square',
  'sqrt',
  'reciprocal',
];
const MULTI_VALUE_MODES: readonly Decay['multiValueMode'][] = ['sum', 'avg', 'median', 'min', 'max'];

/** parser.namedObject(ScoreFunctionBuilder.class, name): `body` sits at `ctx.path`. */
export function parseScoreFunction(
  name: string,
  body: Record<string, unknown>,
  ctx: ParseCtx,
): ScoreFunctionBody {
  switch (name) {
    case 'field_value_factor':
      return parseFieldValueFactor(body, ctx);
    case 'random_score':
      return parseRandomScore(body, ctx);
    case 'gauss':
    case 'exp':
    case 'linear':
      return parseDecay(name, body, ctx);
    case 'script_score':
      return parseScriptScoreFunction(body, ctx);
    default: {
      ctx.path.pop();
      const loc = here(ctx, 'value', name);
      ctx.path.push(name);
      throw namedObjectNotFound(name, loc);
    }
  }
}

/** FieldValueFactorFunctionBuilder.fromXContent. */
function parseFieldValueFactor(body: Record<string, unknown>, ctx: ParseCtx): ScoreFunctionBody {
  let field: string | undefined;
  let factor = 1;
  let modifier: FieldValueFactor['modifier'] = 'none';
  let missing: number | undefined;
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (isValue(v)) {
      if (key === 'field') field = text(ctx, v, key);
      else if (key === 'factor') factor = floatValue(ctx, v, key);
      else if (key === 'modifier') {
        const m = text(ctx, v, key);
        here(ctx, 'value', key);
        modifier = enumValue(
          MODIFIERS,
          m,
          'org.elasticsearch.common.lucene.search.function.FieldValueFactorFunction.Modifier',
        );
      } else if (key === 'missing') missing = doubleValue(ctx, v, key);
      else {
        throw parsingError(`field_value_factor query does not support [${key}]`, here(ctx, 'value', key));
      }
    } else if (key === 'factor' && v !== null) {
      throw parsingError(
        "[field_value_factor] field 'factor' does not support lists or objects",
        here(ctx, 'value', key),
      );
    } else if (v !== null) {
      throw parsingError(`field_value_factor query does not support [${key}]`, here(ctx, 'value', key));
    }
  }
  if (field === undefined) {
    throw parsingError("[field_value_factor] required field 'field' missing", here(ctx, 'end'));
  }
  const fn: FieldValueFactor = { kind: 'field_value_factor', field, factor, modifier };
  if (missing !== undefined) fn.missing = missing;
  return fn;
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** RandomScoreFunctionBuilder.fromXContent: the seed becomes an int as Elasticsearch hashes it. */
function parseRandomScore(body: Record<string, unknown>, ctx: ParseCtx): ScoreFunctionBody {
  const fn: Extract<ScoreFunctionBody, { kind: 'random_score' }> = { kind: 'random_score' };
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (!isValue(v)) continue;
    if (key === 'seed') {
      if (typeof v === 'string') fn.seed = javaStringHash(v);
      else if (typeof v === 'boolean') {
        throw parsingError(
          "random_score seed must be an int/long or string, not 'VALUE_BOOLEAN'",
          here(ctx, 'value', key),
        );
      } else if (typeof v === 'bigint' || Number.isInteger(v)) {
        const n = BigInt(v);
        // An int is the seed; a long is Long.hashCode'd.
        fn.seed = n >= INT_MIN && n <= INT_MAX ? Number(n) : longHash(n);
      } else {
        throw parsingError(
          "random_score seed must be an int, long or string, not 'VALUE_NUMBER'",
          here(ctx, 'value', key),
        );
      }
    } else if (key === 'field') {
      fn.field = text(ctx, v, key);
    } else {
      throw parsingError(`random_score query does not support [${key}]`, here(ctx, 'value', key));
    }
  }
  return fn;
}

/** DecayFunctionParser.fromXContent: one field's object, and multi_value_mode. */
function parseDecay(curve: Decay['curve'], body: Record<string, unknown>, ctx: ParseCtx): ScoreFunctionBody {
  let field: string | undefined;
  let params: Record<string, unknown> | undefined;
  let multiValueMode: Decay['multiValueMode'] = 'min';
  for (const key of Object.keys(body)) {
    const v = body[key];
    if (isObject(v)) {
      field = key;
      params = v;
    } else if (key === 'multi_value_mode') {
      const mode = isValue(v) ? text(ctx, v, key) : String(v);
      const lower = mode.toLowerCase() as Decay['multiValueMode'];
      if (!MULTI_VALUE_MODES.includes(lower)) {
        here(ctx, 'value', key);
        throw illegalSortMode(mode);
      }
      multiValueMode = lower;
    } else {
      throw parsingError('malformed score function score parameters.', here(ctx, 'value', key));
    }
  }
  if (field === undefined || params === undefined) {
    throw parsingError('malformed score function score parameters.', here(ctx, 'end'));
  }
  return { kind: 'decay', curve, field, params, multiValueMode };
}

/** MultiValueMode.fromString's IllegalArgumentException. */
function illegalSortMode(mode: string) {
  return illegalArgument(`Illegal sort mode: ${mode}`);
}

/** Java's Enum.valueOf over `value.toUpperCase(Locale.ROOT)`. */
export function enumValue<T extends string>(allowed: readonly T[], value: string, javaClass: string): T {
  const lower = value.toLowerCase() as T;
  if (allowed.includes(lower)) return lower;
  throw illegalArgument(`No enum constant ${javaClass}.${value.toUpperCase()}`);
}

/** Java's Long.hashCode: the two halves xor'ed. */
export function longHash(v: bigint): number {
  const u = BigInt.asUintN(64, v);
  return Number(BigInt.asIntN(32, (u ^ (u >> 32n)) & 0xffffffffn));
}

/** ScriptScoreFunctionBuilder.fromXContent: `{"script": …}`. */
function parseScriptScoreFunction(body: Record<string, unknown>, ctx: ParseCtx): ScoreFunctionBody {
  let script: ScriptSpec | undefined;
  for (const [key, v] of Object.entries(body)) {
    if (key !== 'script')
      throw parsingError(`script_score query does not support [${key}]`, here(ctx, 'value', key));
    ctx.path.push(key);
    try {
      script = parseScriptSpec(ctx, v);
    } catch (e) {
      here(ctx, 'value');
      throw e;
    } finally {
      ctx.path.pop();
    }
  }
  if (script === undefined)
    throw parsingError('script_score function must be provided with a [script]', here(ctx, 'end'));
  return { kind: 'script', script };
}
