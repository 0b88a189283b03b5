/**
 * What a composite runtime field's script emits, as one of its sub-fields sees it: `emit(map)`
 * hands a map whose keys (nested maps read as dotted keys) name the sub-fields, and
 * `emit(key, value)` one sub-field's value; a list value is several values. CompositeFieldScript.
 */
import { ScriptRuntimeError } from '../script/script-error.ts';
import { javaClassOf } from '../script/values.ts';

function entriesOf(v: unknown): [string, unknown][] | null {
  if (v instanceof Map) return [...v].map(([k, x]) => [String(k), x]);
  if (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    Object.getPrototypeOf(v) === Object.prototype
  ) {
    return Object.entries(v);
  }
  return null;
}

function valuesAt(map: [string, unknown][], key: string, prefix: string, out: unknown[]): void {
  for (const [k, v] of map) {
    const full = prefix === '' ? k : `${prefix}.${k}`;
    const nested = entriesOf(v);
    if (nested) {
      if (key.startsWith(`${full}.`)) valuesAt(nested, key, full, out);
      continue;
    }
    if (full !== key || v === null || v === undefined) continue;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && x !== undefined) out.push(x);
    } else out.push(v);
  }
}

/** The values for sub-field `key` of one `emit(...)` call's arguments. */
export function compositeValues(args: unknown[], key: string): unknown[] {
  const out: unknown[] = [];
  if (args.length === 1) {
    const map = entriesOf(args[0]);
    if (!map) {
      throw new ScriptRuntimeError(
        'class_cast_exception',
        `Cannot cast ${javaClassOf(args[0])} to java.util.Map`,
      );
    }
    valuesAt(map, key, '', out);
    return out;
  }
  if (args.length === 2 && typeof args[0] === 'string') {
    if (args[0] === key) valuesAt([[key, args[1]]], key, '', out);
    return out;
  }
  throw new ScriptRuntimeError(
    'illegal_argument_exception',
    `Unknown call [emit] with [${args.length}] arguments.`,
  );
}
