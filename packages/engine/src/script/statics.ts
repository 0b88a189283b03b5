/**
 * The static members a script may use (`Math.*`, `Integer.parseInt`, `Double.MAX_VALUE`, …),
 * with the static type of what they give, so arithmetic on them keeps Java's typing.
 */
import { javaDouble } from '@shoal/protocol';
import { COLLECTION_STATICS } from './collection-statics.ts';
import { int, javaString, num, str, toRad } from './members.ts';
import { MOVING_FUNCTIONS } from './moving-functions.ts';
import { ScriptRuntimeError } from './script-error.ts';

export type StaticType = 'int' | 'long' | 'double' | 'boolean' | 'String' | 'def';

export interface StaticMember {
  type: StaticType;
  /** A constant (fields), or a function of the arguments (methods). */
  value?: unknown;
  call?: (args: unknown[]) => unknown;
  /** For methods whose result type follows their arguments (Math.abs/max/min). */
  promote?: boolean;
}

function parseJavaInt(s: unknown, long: boolean): number {
  const t = str(s, 'parse');
  if (!/^[+-]?\d+$/.test(t))
    throw new ScriptRuntimeError('number_format_exception', `For input string: "${t}"`);
  const v = Number(t);
  if (!long && (v > 2147483647 || v < -2147483648)) {
    throw new ScriptRuntimeError('number_format_exception', `For input string: "${t}"`);
  }
  return v;
}

const math1 = (f: (x: number) => number): StaticMember => ({ type: 'double', call: (a) => f(num(a[0])) });

/** `Class.member` → its declaration, keyed `Class.name/arity` (arity -1 for fields). */
export const STATICS: Record<string, StaticMember> = {
  'Math.PI/-1': { type: 'double', value: Math.PI },
  'Math.E/-1': { type: 'double', value: Math.E },
  'Math.abs/1': { type: 'def', promote: true, call: (a) => Math.abs(num(a[0])) },
  'Math.max/2': { type: 'def', promote: true, call: (a) => Math.max(num(a[0]), num(a[1])) },
  'Math.min/2': { type: 'def', promote: true, call: (a) => Math.min(num(a[0]), num(a[1])) },
  'Math.pow/2': { type: 'double', call: (a) => num(a[0]) ** num(a[1]) },
  'Math.atan2/2': { type: 'double', call: (a) => Math.atan2(num(a[0]), num(a[1])) },
  'Math.hypot/2': { type: 'double', call: (a) => Math.hypot(num(a[0]), num(a[1])) },
  'Math.round/1': { type: 'long', call: (a) => Math.floor(num(a[0]) + 0.5) },
  'Math.sqrt/1': math1(Math.sqrt),
  'Math.cbrt/1': math1(Math.cbrt),
  'Math.log/1': math1(Math.log),
  'Math.log10/1': math1(Math.log10),
  'Math.log1p/1': math1(Math.log1p),
  'Math.exp/1': math1(Math.exp),
  'Math.expm1/1': math1(Math.expm1),
  'Math.floor/1': math1(Math.floor),
  'Math.ceil/1': math1(Math.ceil),
  'Math.rint/1': math1((x) => {
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  }),
  'Math.sin/1': math1(Math.sin),
  'Math.cos/1': math1(Math.cos),
  'Math.tan/1': math1(Math.tan),
  'Math.asin/1': math1(Math.asin),
  'Math.acos/1': math1(Math.acos),
  'Math.atan/1': math1(Math.atan),
  'Math.sinh/1': math1(Math.sinh),
  'Math.cosh/1': math1(Math.cosh),
  'Math.tanh/1': math1(Math.tanh),
  'Math.signum/1': math1(Math.sign),
  'Math.toRadians/1': math1(toRad),
  'Math.toDegrees/1': math1((x) => (x * 180) / Math.PI),
  'Integer.MAX_VALUE/-1': { type: 'int', value: 2147483647 },
  'Integer.MIN_VALUE/-1': { type: 'int', value: -2147483648 },
  'Integer.parseInt/1': { type: 'int', call: (a) => parseJavaInt(a[0], false) },
  'Integer.valueOf/1': {
    type: 'int',
    call: (a) => (typeof a[0] === 'number' ? a[0] : parseJavaInt(a[0], false)),
  },
  'Integer.toString/1': { type: 'String', call: (a) => javaString(int(a[0])) },
  'Long.MAX_VALUE/-1': { type: 'long', value: Number.MAX_SAFE_INTEGER },
  'Long.MIN_VALUE/-1': { type: 'long', value: Number.MIN_SAFE_INTEGER },
  'Long.parseLong/1': { type: 'long', call: (a) => parseJavaInt(a[0], true) },
  'Long.valueOf/1': {
    type: 'long',
    call: (a) => (typeof a[0] === 'number' ? a[0] : parseJavaInt(a[0], true)),
  },
  'Long.toString/1': { type: 'String', call: (a) => javaString(int(a[0])) },
  'Double.MAX_VALUE/-1': { type: 'double', value: Number.MAX_VALUE },
  'Double.MIN_VALUE/-1': { type: 'double', value: Number.MIN_VALUE },
  'Double.POSITIVE_INFINITY/-1': { type: 'double', value: Number.POSITIVE_INFINITY },
  'Double.NEGATIVE_INFINITY/-1': { type: 'double', value: Number.NEGATIVE_INFINITY },
  'Double.NaN/-1': { type: 'double', value: Number.NaN },
  'Double.parseDouble/1': {
    type: 'double',
    call: (a) => {
      const t = str(a[0], 'parseDouble').trim();
      const v = Number(t);
      if (t === '' || Number.isNaN(v))
        throw new ScriptRuntimeError('number_format_exception', `For input string: "${t}"`);
      return v;
    },
  },
  'Double.isNaN/1': { type: 'boolean', call: (a) => Number.isNaN(num(a[0])) },
  'Double.toString/1': { type: 'String', call: (a) => javaDouble(num(a[0])) },
  'Float.parseFloat/1': { type: 'double', call: (a) => Math.fround(Number(str(a[0], 'parseFloat'))) },
  'String.valueOf/1': { type: 'String', call: (a) => javaString(a[0]) },
  'Boolean.parseBoolean/1': {
    type: 'boolean',
    call: (a) => typeof a[0] === 'string' && a[0].toLowerCase() === 'true',
  },
  ...MOVING_FUNCTIONS,
  ...COLLECTION_STATICS,
};
