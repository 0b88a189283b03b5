/**
 * The static members of Collections, Collectors and Comparator that scripts use with lists,
 * streams and lambdas.
 */
import {
  CollectorValue,
  callFunction,
  comparator,
  comparatorFunction,
  comparing,
  naturalCompare,
} from './functions.ts';
import { javaString, num } from './members.ts';
import { ScriptRuntimeError } from './script-error.ts';
import type { StaticMember } from './statics.ts';
import { javaClassOf } from './values.ts';

function list(v: unknown): unknown[] {
  if (!Array.isArray(v)) {
    throw new ScriptRuntimeError('class_cast_exception', `Cannot cast ${javaClassOf(v)} to java.util.List`);
  }
  return v;
}

function extreme(items: unknown[], cmp: (a: unknown, b: unknown) => number, sign: number): unknown {
  if (items.length === 0) throw new ScriptRuntimeError('no_such_element_exception', 'No value present');
  let best = items[0];
  for (const v of items) if (sign * cmp(v, best) > 0) best = v;
  return best;
}

const def = (call: (a: unknown[]) => unknown): StaticMember => ({ type: 'def', call });

function joining(sep: unknown, prefix: unknown, suffix: unknown): CollectorValue {
  return new CollectorValue(
    (items) => `${javaString(prefix)}${items.map(javaString).join(javaString(sep))}${javaString(suffix)}`,
  );
}

export const COLLECTION_STATICS: Record<string, StaticMember> = {
  'Collections.sort/1': def((a) => {
    list(a[0]).sort(naturalCompare);
    return null;
  }),
  'Collections.sort/2': def((a) => {
    list(a[0]).sort(comparator(a[1]));
    return null;
  }),
  'Collections.reverse/1': def((a) => {
    list(a[0]).reverse();
    return null;
  }),
  'Collections.max/1': def((a) => extreme(list(a[0]), naturalCompare, 1)),
  'Collections.min/1': def((a) => extreme(list(a[0]), naturalCompare, -1)),
  'Collections.max/2': def((a) => extreme(list(a[0]), comparator(a[1]), 1)),
  'Collections.min/2': def((a) => extreme(list(a[0]), comparator(a[1]), -1)),
  'Collections.emptyList/0': def(() => []),
  'Collections.singletonList/1': def((a) => [a[0]]),
  'String.join/2': {
    type: 'String',
    call: (a) => list(a[1]).map(javaString).join(javaString(a[0])),
  },
  'Collectors.toList/0': def(() => new CollectorValue((items) => items.slice())),
  'Collectors.joining/0': def(() => joining('', '', '')),
  'Collectors.joining/1': def((a) => joining(a[0], '', '')),
  'Collectors.joining/3': def((a) => joining(a[0], a[1], a[2])),
  'Collectors.counting/0': def(() => new CollectorValue((items) => items.length)),
  'Collectors.summingInt/1': def(
    (a) =>
      new CollectorValue((items) =>
        items.reduce<number>((t, v) => (t + num(callFunction(a[0], [v]))) | 0, 0),
      ),
  ),
  'Collectors.summingDouble/1': def(
    (a) => new CollectorValue((items) => items.reduce<number>((t, v) => t + num(callFunction(a[0], [v])), 0)),
  ),
  'Collectors.groupingBy/1': def(
    (a) =>
      new CollectorValue((items) => {
        const m = new Map<unknown, unknown[]>();
        for (const v of items) {
          const k = callFunction(a[0], [v]);
          const g = m.get(k);
          if (g) g.push(v);
          else m.set(k, [v]);
        }
        return m;
      }),
  ),
  'Collectors.toMap/2': def(
    (a) =>
      new CollectorValue((items) => {
        const m = new Map<unknown, unknown>();
        for (const v of items) {
          const k = callFunction(a[0], [v]);
          if (m.has(k)) {
            throw new ScriptRuntimeError(
              'illegal_state_exception',
              `Duplicate key ${javaString(k)} (attempted merging values ${javaString(m.get(k))} and ${javaString(callFunction(a[1], [v]))})`,
            );
          }
          m.set(k, callFunction(a[1], [v]));
        }
        return m;
      }),
  ),
  'Comparator.comparing/1': def((a) => comparing(a[0])),
  'Comparator.comparingInt/1': def((a) => comparing(a[0])),
  'Comparator.comparingLong/1': def((a) => comparing(a[0])),
  'Comparator.comparingDouble/1': def((a) => comparing(a[0])),
  'Comparator.naturalOrder/0': def(() => comparatorFunction(naturalCompare)),
  'Comparator.reverseOrder/0': def(() => comparatorFunction((x, y) => naturalCompare(y, x))),
  'Integer.compare/2': { type: 'int', call: (a) => naturalCompare(num(a[0]), num(a[1])) },
  'Long.compare/2': { type: 'int', call: (a) => naturalCompare(num(a[0]), num(a[1])) },
  'Double.compare/2': { type: 'int', call: (a) => naturalCompare(num(a[0]), num(a[1])) },
};
