/**
 * The values lambdas and method references become, and what the functional methods of lists,
 * maps and streams need of them: a `ScriptFunction` is called with its arguments (the frame it
 * was made in is captured), `Comparator`s are functions of two values giving an int, and Java's
 * natural order compares numbers, strings, booleans and dates.
 */
import { ScriptRuntimeError } from './script-error.ts';
import { DateValue, InstantValue, javaClassOf } from './values.ts';

export class ScriptFunction {
  readonly javaClass = 'java.util.function.Function';
  constructor(
    /** The number of parameters, or -1 when any count fits (a method reference). */
    readonly arity: number,
    readonly invoke: (args: unknown[]) => unknown,
  ) {}
}

/** A collector of `stream.collect(...)` (Collectors.toList(), joining(), groupingBy(), …). */
export class CollectorValue {
  readonly javaClass = 'java.util.stream.Collector';
  constructor(readonly finish: (items: unknown[]) => unknown) {}
}

/** Calls a function argument with `args`; anything but a function is Painless's cast error. */
export function callFunction(fn: unknown, args: unknown[]): unknown {
  if (!(fn instanceof ScriptFunction)) {
    throw new ScriptRuntimeError(
      'class_cast_exception',
      `Cannot cast ${javaClassOf(fn)} to a functional interface`,
    );
  }
  if (fn.arity >= 0 && fn.arity !== args.length) {
    throw new ScriptRuntimeError(
      'illegal_argument_exception',
      `Incorrect number of parameters for [lambda] in [java.util.function.Function]: expected [${args.length}] but found [${fn.arity}]`,
    );
  }
  return fn.invoke(args);
}

export function predicate(fn: unknown): (v: unknown) => boolean {
  return (v) => {
    const r = callFunction(fn, [v]);
    if (typeof r !== 'boolean') {
      throw new ScriptRuntimeError(
        'class_cast_exception',
        `Cannot cast ${javaClassOf(r)} to java.lang.Boolean`,
      );
    }
    return r;
  };
}

/** Java's natural order (Comparable.compareTo) over the values scripts hold. */
export function naturalCompare(a: unknown, b: unknown): number {
  if (a === null || a === undefined || b === null || b === undefined) {
    throw new ScriptRuntimeError('null_pointer_exception', 'Cannot compare a null value');
  }
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (
    (a instanceof DateValue || a instanceof InstantValue) &&
    (b instanceof DateValue || b instanceof InstantValue)
  ) {
    return a.millis < b.millis ? -1 : a.millis > b.millis ? 1 : 0;
  }
  throw new ScriptRuntimeError(
    'class_cast_exception',
    `class ${javaClassOf(a)} cannot be cast to class java.lang.Comparable with ${javaClassOf(b)}`,
  );
}

/** A comparator argument as a JavaScript compare function; `null` means natural order. */
export function comparator(fn: unknown): (a: unknown, b: unknown) => number {
  if (fn === null || fn === undefined) return naturalCompare;
  return (a, b) => {
    const r = callFunction(fn, [a, b]);
    if (typeof r !== 'number') {
      throw new ScriptRuntimeError(
        'class_cast_exception',
        `Cannot cast ${javaClassOf(r)} to java.lang.Integer`,
      );
    }
    return r;
  };
}

export function comparatorFunction(cmp: (a: unknown, b: unknown) => number): ScriptFunction {
  return new ScriptFunction(2, (args) => cmp(args[0], args[1]));
}

/** `Comparator.comparing(keyExtractor)`. */
export function comparing(key: unknown): ScriptFunction {
  return comparatorFunction((a, b) => naturalCompare(callFunction(key, [a]), callFunction(key, [b])));
}

/** A key under which Java's `equals` holds for lists, maps and primitives alike (for distinct, sets). */
export function equalityKey(v: unknown): unknown {
  if (v === null || v === undefined || typeof v !== 'object') return v;
  if (v instanceof DateValue || v instanceof InstantValue) return `\u0000date:${v.millis}`;
  return `\u0000${JSON.stringify(v, (_k, x) => (x instanceof Map ? Object.fromEntries(x) : x))}`;
}
