/**
 * What compiled scripts run on: the context a script is given, the frame of one run, the shape
 * of a compiled expression, and the runtime checks and conversions Painless applies (casts,
 * numeric checks, equality, string conversion).
 */
import { javaDouble } from '@shoal/protocol';
import { javaString } from './members.ts';
import { ScriptRuntimeError } from './script-error.ts';
import type { StaticType } from './statics.ts';
import type { DocLookup } from './values.ts';
import { javaClassOf } from './values.ts';

/** What a script runs against. */
export interface ScriptContext {
  doc?: DocLookup;
  params: Readonly<Record<string, unknown>>;
  score?: number;
  /** A value script's input (`_value`): one value of the aggregation's field. */
  value?: unknown;
  /** Set by the value's reader: the value came from an integral (1) or floating (2) field. */
  valueKind?: number;
  /** A write script's `ctx` (`_source`, `op` and the document's metadata). */
  ctx?: Map<unknown, unknown>;
  /** A runtime field script's `emit(...)`: receives the call's arguments. */
  emit?: (args: unknown[]) => void;
  /** Params that hold Java doubles (bucket_script's path values), whole or not. */
  doubleParams?: ReadonlySet<string>;
  /** moving_fn's window of bucket values (`values`). */
  values?: readonly number[];
}

export const MAX_LOOP_COUNTER = 1_000_000;

export type SType = StaticType | 'void';

/** The frame of one run: locals by slot, the context, and the run's bookkeeping. */
export interface Frame {
  locals: unknown[];
  ctx: ScriptContext;
  ret: unknown;
  /** Whether the last doc value read was integral (1), floating (2) or neither (0). */
  kind: number;
  loops: number;
}

export type Ev = (f: Frame) => unknown;
export interface CExpr {
  ev: Ev;
  type: SType;
}

/** 0 go on, 1 break, 2 continue, 3 return. */
export type Exec = (f: Frame) => number;

export const NUMERIC: ReadonlySet<string> = new Set(['int', 'long', 'double', 'def']);

export function normType(t: string): StaticType {
  switch (t) {
    case 'int':
    case 'short':
    case 'byte':
    case 'char':
    case 'Integer':
      return 'int';
    case 'long':
    case 'Long':
      return 'long';
    case 'float':
    case 'double':
    case 'Float':
    case 'Double':
      return 'double';
    case 'boolean':
    case 'Boolean':
      return 'boolean';
    case 'String':
      return 'String';
    default:
      return 'def';
  }
}

/** Wraps a runtime failure with the offset of the node that raised it. */
export function at<R>(offset: number, fn: (f: Frame) => R): (f: Frame) => R {
  return (f) => {
    try {
      return fn(f);
    } catch (e) {
      if (e instanceof ScriptRuntimeError && e.offset < 0) e.offset = offset;
      else if (e instanceof RangeError) {
        const err = new ScriptRuntimeError('illegal_argument_exception', 'stack overflow');
        err.offset = offset;
        throw err;
      }
      throw e;
    }
  };
}

export function isIntegralValue(v: unknown, kind: number): boolean {
  if (kind === 2) return false;
  return typeof v === 'number' && Number.isInteger(v);
}

export function binaryType(a: SType, b: SType): SType {
  if (a === 'double' || b === 'double') return 'double';
  if (a === 'def' || b === 'def') return 'def';
  if (a === 'long' || b === 'long') return 'long';
  return 'int';
}

export function checkNum(op: string, a: unknown, b: unknown): void {
  if (typeof a !== 'number' || typeof b !== 'number') {
    throw new ScriptRuntimeError(
      'class_cast_exception',
      `Cannot apply [${op}] operation to types [${javaClassOf(a)}] and [${javaClassOf(b)}].`,
    );
  }
}

export function truthy(v: unknown, what: string): boolean {
  if (typeof v !== 'boolean') {
    throw new ScriptRuntimeError(
      'class_cast_exception',
      `Cannot cast ${javaClassOf(v)} to java.lang.Boolean (${what})`,
    );
  }
  return v;
}

export function castTo(type: StaticType, v: unknown): unknown {
  switch (type) {
    case 'int':
      if (typeof v !== 'number') break;
      return Math.trunc(v) | 0;
    case 'long':
      if (typeof v !== 'number') break;
      return Math.trunc(v);
    case 'double':
      if (typeof v !== 'number') break;
      return v;
    case 'boolean':
      if (typeof v !== 'boolean') break;
      return v;
    case 'String':
      if (v !== null && typeof v !== 'string') break;
      return v;
    default:
      return v;
  }
  throw new ScriptRuntimeError(
    'class_cast_exception',
    `Cannot cast ${javaClassOf(v)} to ${type === 'String' ? 'java.lang.String' : type}`,
  );
}

/** Java's `==` on boxed values as Painless's def equality does it: numbers by value, others by equals. */
export function equalsValue(a: unknown, b: unknown): boolean {
  return a === b || (a !== null && b !== null && typeof a === 'object' && javaString(a) === javaString(b));
}

/** Java's string conversion of a value of a static type: a double keeps its `.0`. */
export function stringOf(type: SType): (v: unknown) => string {
  return type === 'double' ? (v) => (typeof v === 'number' ? javaDouble(v) : javaString(v)) : javaString;
}

export function defaultOf(type: StaticType): unknown {
  switch (type) {
    case 'int':
    case 'long':
    case 'double':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}
