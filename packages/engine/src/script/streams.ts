/**
 * Java streams as Painless scripts use them: `list.stream()` (and IntStream, LongStream,
 * DoubleStream from `mapToInt`, `mapToLong`, `mapToDouble`), evaluated eagerly over an array —
 * a script's streams are finite and small. `Optional` values come from `findFirst`, `max`,
 * `min`, `average` and `reduce`.
 */
import {
  CollectorValue,
  callFunction,
  comparator,
  equalityKey,
  naturalCompare,
  predicate,
} from './functions.ts';
import { ScriptRuntimeError } from './script-error.ts';
import { javaClassOf } from './values.ts';

export const NO_METHOD = Symbol('no method');

export type StreamKind = 'obj' | 'int' | 'long' | 'double';

const STREAM_CLASS: Record<StreamKind, string> = {
  obj: 'java.util.stream.Stream',
  int: 'java.util.stream.IntStream',
  long: 'java.util.stream.LongStream',
  double: 'java.util.stream.DoubleStream',
};

export class StreamValue {
  constructor(
    readonly items: unknown[],
    readonly kind: StreamKind,
  ) {}
  get javaClass(): string {
    return STREAM_CLASS[this.kind];
  }
}

export class OptionalValue {
  constructor(
    readonly present: boolean,
    readonly value: unknown,
    readonly kind: StreamKind,
  ) {}
  get javaClass(): string {
    return this.kind === 'obj'
      ? 'java.util.Optional'
      : `java.util.Optional${this.kind[0]!.toUpperCase()}${this.kind.slice(1)}`;
  }
}

function numberOf(v: unknown, kind: StreamKind): number {
  if (typeof v !== 'number') {
    const target = kind === 'int' ? 'Integer' : kind === 'long' ? 'Long' : 'Double';
    throw new ScriptRuntimeError(
      'class_cast_exception',
      `Cannot cast ${javaClassOf(v)} to java.lang.${target}`,
    );
  }
  return kind === 'int' ? Math.trunc(v) | 0 : kind === 'long' ? Math.trunc(v) : v;
}

function mapped(s: StreamValue, fn: unknown, kind: StreamKind): StreamValue {
  const out = s.items.map((v) => callFunction(fn, [v]));
  return new StreamValue(kind === 'obj' ? out : out.map((v) => numberOf(v, kind)), kind);
}

function sum(s: StreamValue): number {
  let t = 0;
  for (const v of s.items) t += v as number;
  return s.kind === 'int' ? t | 0 : t;
}

function extreme(s: StreamValue, cmp: (a: unknown, b: unknown) => number, sign: number): OptionalValue {
  if (s.items.length === 0) return new OptionalValue(false, null, s.kind);
  let best = s.items[0];
  for (const v of s.items) if (sign * cmp(v, best) > 0) best = v;
  return new OptionalValue(true, best, s.kind);
}

function primitive(s: StreamValue, name: string): void {
  if (s.kind === 'obj') {
    throw new ScriptRuntimeError(
      'illegal_argument_exception',
      `dynamic method [${s.javaClass}, ${name}/0] not found`,
    );
  }
}

/** A stream method, or NO_METHOD when the stream has none of that name and arity. */
export function streamMethod(s: StreamValue, name: string, a: unknown[]): unknown {
  switch (`${name}/${a.length}`) {
    case 'filter/1':
      return new StreamValue(s.items.filter(predicate(a[0])), s.kind);
    case 'map/1':
      return mapped(s, a[0], s.kind);
    case 'mapToObj/1':
      return mapped(s, a[0], 'obj');
    case 'mapToInt/1':
      return mapped(s, a[0], 'int');
    case 'mapToLong/1':
      return mapped(s, a[0], 'long');
    case 'mapToDouble/1':
      return mapped(s, a[0], 'double');
    case 'asDoubleStream/0':
      return new StreamValue(s.items, 'double');
    case 'asLongStream/0':
      return new StreamValue(s.items, 'long');
    case 'boxed/0':
      return new StreamValue(s.items, 'obj');
    case 'flatMap/1': {
      const out: unknown[] = [];
      for (const v of s.items) {
        const r = callFunction(a[0], [v]);
        if (!(r instanceof StreamValue)) {
          throw new ScriptRuntimeError(
            'class_cast_exception',
            `Cannot cast ${javaClassOf(r)} to java.util.stream.Stream`,
          );
        }
        out.push(...r.items);
      }
      return new StreamValue(out, s.kind);
    }
    case 'distinct/0': {
      const seen = new Set<unknown>();
      return new StreamValue(
        s.items.filter((v) => {
          const k = equalityKey(v);
          if (seen.has(k)) return false;
          seen.add(k);
          return true;
        }),
        s.kind,
      );
    }
    case 'sorted/0':
      return new StreamValue(s.items.slice().sort(naturalCompare), s.kind);
    case 'sorted/1':
      return new StreamValue(s.items.slice().sort(comparator(a[0])), s.kind);
    case 'limit/1':
      return new StreamValue(s.items.slice(0, Math.max(0, numberOf(a[0], 'long'))), s.kind);
    case 'skip/1':
      return new StreamValue(s.items.slice(Math.max(0, numberOf(a[0], 'long'))), s.kind);
    case 'peek/1':
      for (const v of s.items) callFunction(a[0], [v]);
      return s;
    case 'forEach/1':
      for (const v of s.items) callFunction(a[0], [v]);
      return null;
    case 'count/0':
      return s.items.length;
    case 'anyMatch/1':
      return s.items.some(predicate(a[0]));
    case 'allMatch/1':
      return s.items.every(predicate(a[0]));
    case 'noneMatch/1':
      return !s.items.some(predicate(a[0]));
    case 'findFirst/0':
    case 'findAny/0':
      return new OptionalValue(s.items.length > 0, s.items[0] ?? null, s.kind);
    case 'collect/1': {
      const c = a[0];
      if (!(c instanceof CollectorValue)) {
        throw new ScriptRuntimeError(
          'class_cast_exception',
          `Cannot cast ${javaClassOf(c)} to java.util.stream.Collector`,
        );
      }
      return c.finish(s.items);
    }
    case 'toList/0':
      return s.items.slice();
    case 'reduce/2': {
      let acc = a[0];
      for (const v of s.items) acc = callFunction(a[1], [acc, v]);
      return s.kind === 'obj' ? acc : numberOf(acc, s.kind);
    }
    case 'reduce/1': {
      if (s.items.length === 0) return new OptionalValue(false, null, s.kind);
      let acc = s.items[0];
      for (const v of s.items.slice(1)) acc = callFunction(a[0], [acc, v]);
      return new OptionalValue(true, acc, s.kind);
    }
    case 'max/1':
      return extreme(s, comparator(a[0]), 1);
    case 'min/1':
      return extreme(s, comparator(a[0]), -1);
    case 'max/0':
      primitive(s, name);
      return extreme(s, naturalCompare, 1);
    case 'min/0':
      primitive(s, name);
      return extreme(s, naturalCompare, -1);
    case 'sum/0':
      primitive(s, name);
      return sum(s);
    case 'average/0':
      primitive(s, name);
      return new OptionalValue(
        s.items.length > 0,
        s.items.length > 0 ? sum(s) / s.items.length : null,
        'double',
      );
  }
  return NO_METHOD;
}

function absent(): never {
  throw new ScriptRuntimeError('no_such_element_exception', 'No value present');
}

export function optionalMethod(o: OptionalValue, name: string, a: unknown[]): unknown {
  switch (`${name}/${a.length}`) {
    case 'isPresent/0':
      return o.present;
    case 'isEmpty/0':
      return !o.present;
    case 'get/0':
    case 'getAsInt/0':
    case 'getAsLong/0':
    case 'getAsDouble/0':
    case 'orElseThrow/0':
      return o.present ? o.value : absent();
    case 'orElse/1':
      return o.present ? o.value : a[0];
    case 'orElseGet/1':
      return o.present ? o.value : callFunction(a[0], []);
    case 'ifPresent/1':
      if (o.present) callFunction(a[0], [o.value]);
      return null;
    case 'map/1':
      return o.present ? new OptionalValue(true, callFunction(a[0], [o.value]), 'obj') : o;
    case 'filter/1':
      return o.present && predicate(a[0])(o.value) ? o : new OptionalValue(false, null, o.kind);
  }
  return NO_METHOD;
}
