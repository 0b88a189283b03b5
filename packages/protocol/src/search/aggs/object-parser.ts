/**
 * Aggregation bodies are read the way Elasticsearch's ObjectParser reads them: each key must be
 * declared (`[terms] unknown field [x]`), must hold a value of an accepted token
 * (`[terms] size doesn't support values of type: START_ARRAY`), and a failure while reading its
 * value is wrapped in `[terms] failed to parse field [size]`, positioned on the value.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { ShoalError } from '../../errors/shoal-error.ts';
import { xContentParseError } from '../../query/local-errors.ts';
import {
  assertSupports,
  here,
  type ParseCtx,
  parseField,
  type Token,
  tokenOf,
  unknownField,
} from '../../query/parse-context.ts';
import { javaParseDouble } from '../../query/xcontent-values.ts';

/** ObjectParser.ValueType token sets used by the aggregation parsers. */
export const TOKENS = {
  STRING: new Set<Token>(['VALUE_STRING']),
  NUMBER: new Set<Token>(['VALUE_NUMBER', 'VALUE_STRING']),
  BOOLEAN: new Set<Token>(['VALUE_BOOLEAN', 'VALUE_STRING']),
  VALUE: new Set<Token>(['VALUE_STRING', 'VALUE_NUMBER', 'VALUE_BOOLEAN', 'VALUE_NULL']),
  OBJECT: new Set<Token>(['START_OBJECT']),
  ARRAY: new Set<Token>(['START_ARRAY']),
  OBJECT_ARRAY: new Set<Token>(['START_OBJECT', 'START_ARRAY']),
  OBJECT_OR_STRING: new Set<Token>(['START_OBJECT', 'VALUE_STRING']),
  OBJECT_ARRAY_OR_STRING: new Set<Token>(['START_OBJECT', 'START_ARRAY', 'VALUE_STRING']),
  STRING_ARRAY: new Set<Token>(['START_ARRAY', 'VALUE_STRING']),
  ANY: new Set<Token>([
    'VALUE_STRING',
    'VALUE_NUMBER',
    'VALUE_BOOLEAN',
    'VALUE_NULL',
    'START_ARRAY',
    'START_OBJECT',
  ]),
} as const;

export interface DeclaredField {
  readonly tokens: ReadonlySet<Token>;
  /** Reads the value; `ctx.path` ends with the key while it runs. */
  readonly read: (v: unknown) => void;
}

/**
 * Reads `body` (at `ctx.path`) with the declared fields, in the body's key order. Returns the
 * keys that were present, for the required-field checks made once the object is read.
 */
export function readDeclared(
  ctx: ParseCtx,
  parser: string,
  body: Record<string, unknown>,
  fields: Readonly<Record<string, DeclaredField>>,
): Set<string> {
  const seen = new Set<string>();
  const names = Object.keys(fields);
  for (const key of Object.keys(body)) {
    const f = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (f === undefined) throw unknownField(ctx, parser, key, names);
    const v = body[key];
    assertSupports(ctx, parser, key, v, f.tokens);
    let unsupported: ShoalError | undefined;
    parseField(ctx, parser, key, () => {
      try {
        f.read(v);
      } catch (e) {
        // A feature Shoal lacks is no parse failure: its 501 is answered as it is.
        if (!(e instanceof ShoalError) || e.status !== 501) throw e;
        unsupported = e;
      }
    });
    if (unsupported) throw unsupported;
    seen.add(key);
  }
  return seen;
}

/** ObjectParser.declareRequiredFieldSet: at least one of `names` must have been present. */
export function requireOneOf(seen: ReadonlySet<string>, names: readonly string[]): void {
  if (names.some((n) => seen.has(n))) return;
  throw illegalArgument(`Required one of fields [${names.join(', ')}], but none were specified. `);
}

/** XContentParser.longValue() with coercion: numbers truncate, numeric strings are parsed. */
export function longValue(ctx: ParseCtx, v: unknown): number {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string') {
    try {
      return Math.trunc(javaParseDouble(v));
    } catch (e) {
      here(ctx, 'value');
      throw e;
    }
  }
  throw xContentParseError(
    `Current token (${tokenOf(v)}) not numeric, can not use numeric value accessors`,
    here(ctx, 'value'),
  );
}

/** AggregationInitializationException; Shoal answers 400 (a client mistake, not a server fault). */
export function aggregationInitialization(reason: string): ShoalError {
  return new ShoalError('aggregation_initialization_exception', reason, 400);
}

/** AggregationExecutionException; Shoal answers 400 where the request itself is at fault. */
export function aggregationExecution(reason: string): ShoalError {
  return new ShoalError('aggregation_execution_exception', reason, 400);
}
