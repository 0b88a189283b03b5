/**
 * The state a request parser carries while it walks a decoded JSON body, and the helpers that
 * reproduce what Elasticsearch's XContent layer says when a value has the wrong shape.
 *
 * `path` is kept as a mutable stack (push on descent, pop on return): errors snapshot it into a
 * location, so the happy path pays one push/pop per level and nothing else.
 */
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import type { ScriptSpec } from '../script/script-spec.ts';
import { type At, type Loc, locate, type PathSeg } from './json-location.ts';
import { xContentParseError } from './local-errors.ts';
import { suggest } from './suggest.ts';

export interface ParseCtx {
  /** The whole decoded body: positions are computed against it. */
  readonly root: unknown;
  /** Path from `root` to the value being parsed. */
  readonly path: PathSeg[];
  /** How many named queries enclose the current one (indices.query.bool.max_nested_depth). */
  depth: number;
  /**
   * Where the parser stood when the innermost error was raised. Wrapping errors (ObjectParser's
   * `failed to parse field`) report this position, as the Java parser has not moved since.
   */
  errorLoc: Loc | undefined;
  /** Every script the body names, when the caller collects them (stored-script lookup, compilation limit). */
  scripts?: ScriptSpec[];
  /** The stored scripts a script `id` names (absent: ids stay unresolved). */
  storedScript?: (id: string) => { source: string; lang: string } | undefined;
}

export function newCtx(root: unknown, basePath: readonly PathSeg[] = []): ParseCtx {
  return { root, path: [...basePath], depth: 0, errorLoc: undefined };
}

/** The location of the current path (or of its child `key`), remembered as the error position. */
export function here(ctx: ParseCtx, at: At, key?: PathSeg): Loc {
  if (key !== undefined) ctx.path.push(key);
  const loc = locate(ctx.root, ctx.path, at);
  if (key !== undefined) ctx.path.pop();
  ctx.errorLoc = loc;
  return loc;
}

export type Token =
  | 'VALUE_STRING'
  | 'VALUE_NUMBER'
  | 'VALUE_BOOLEAN'
  | 'VALUE_NULL'
  | 'START_ARRAY'
  | 'START_OBJECT';

/** The XContent token a decoded JSON value started with. */
export function tokenOf(v: unknown): Token {
  switch (typeof v) {
    case 'string':
      return 'VALUE_STRING';
    case 'number':
    case 'bigint':
      return 'VALUE_NUMBER';
    case 'boolean':
      return 'VALUE_BOOLEAN';
    default:
      if (v === null || v === undefined) return 'VALUE_NULL';
      return Array.isArray(v) ? 'START_ARRAY' : 'START_OBJECT';
  }
}

/** XContentParser.Token.isValue(): strings, numbers and booleans (not null). */
export function isValue(v: unknown): v is string | number | bigint | boolean {
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'bigint' || t === 'boolean';
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Runs a check on the value of `key` (or of `ctx.path`): any failure is positioned on it. */
export function onValue<T>(ctx: ParseCtx, key: PathSeg | undefined, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    here(ctx, 'value', key);
    throw e;
  }
}

// ------------------------------------------------------------ ObjectParser behaviour

/** The token sets of ObjectParser.ValueType that the request parsers declare. */
export const VT = {
  STRING: new Set<Token>(['VALUE_STRING']),
  FLOAT: new Set<Token>(['VALUE_NUMBER', 'VALUE_STRING']),
  INT: new Set<Token>(['VALUE_NUMBER', 'VALUE_STRING']),
  BOOLEAN: new Set<Token>(['VALUE_BOOLEAN', 'VALUE_STRING']),
  VALUE: new Set<Token>(['VALUE_STRING', 'VALUE_NUMBER', 'VALUE_BOOLEAN', 'VALUE_NULL']),
  STRING_ARRAY: new Set<Token>(['START_ARRAY', 'VALUE_STRING']),
  OBJECT: new Set<Token>(['START_OBJECT']),
  OBJECT_ARRAY_OR_NULL: new Set<Token>(['START_OBJECT', 'START_ARRAY', 'VALUE_NULL']),
} as const;

/** ObjectParser.FieldParser.assertSupports. */
export function assertSupports(
  ctx: ParseCtx,
  parser: string,
  key: string,
  v: unknown,
  allowed: ReadonlySet<Token>,
): void {
  const t = tokenOf(v);
  if (!allowed.has(t)) {
    throw xContentParseError(
      `[${parser}] ${key} doesn't support values of type: ${t}`,
      here(ctx, 'value', key),
    );
  }
}

/**
 * ObjectParser's unknown-field error. The message points at the field name; the parser itself has
 * already moved on to the value, which is where a wrapping ParsingException points.
 */
export function unknownField(
  ctx: ParseCtx,
  parser: string,
  key: string,
  candidates: readonly string[],
): ShoalError {
  const keyLoc = here(ctx, 'key', key);
  here(ctx, 'value', key);
  return xContentParseError(`[${parser}] unknown field [${key}]${suggest(key, candidates)}`, keyLoc);
}

/**
 * Runs one field's parser the way ObjectParser.parseValue does: any failure is wrapped in
 * `[parser] failed to parse field [key]`, positioned where the inner failure left the parser.
 */
export function parseField<T>(ctx: ParseCtx, parser: string, key: string, fn: () => T): T {
  ctx.path.push(key);
  ctx.errorLoc = undefined;
  try {
    const r = fn();
    ctx.path.pop();
    return r;
  } catch (e) {
    if (!isShoalError(e)) throw e;
    const loc = ctx.errorLoc ?? locate(ctx.root, ctx.path, 'value');
    throw xContentParseError(`[${parser}] failed to parse field [${key}]`, loc, e);
  }
}
