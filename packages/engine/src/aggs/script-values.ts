/**
 * The values an aggregation's `script` gives a document (AggregationScript / value scripts):
 * a script alone is run once per document and may give a value, a list of values or none
 * (null); a script with a `field` is run on each of the field's values as `_value`, and
 * receives them as the field's own type — a number for a numeric field, a geo point for a
 * `geo_point` field, never their string form (the 7.8 rule for `value_count`, PR #54854).
 */
import { illegalArgument, type ScriptSpec } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { ScriptContext } from '../script/compiler.ts';
import { SegmentDocLookup } from '../script/doc-lookup.ts';
import { javaString } from '../script/members.ts';
import { type CompiledScript, compileSpec } from '../script/script.ts';
import { DateValue, DocField } from '../script/values.ts';
import type { AggEnv } from './field-source.ts';

export class ScriptValues {
  private readonly script: CompiledScript;
  private readonly lookup: SegmentDocLookup;
  private readonly params: Record<string, unknown>;
  /** The last document's values, `n` of them. */
  readonly buf: unknown[] = [];
  private n = 0;
  /** One context, refilled for every run (runs never overlap). */
  private readonly ctx: ScriptContext;

  constructor(
    spec: ScriptSpec,
    private readonly field: string,
    env: AggEnv,
  ) {
    this.script = compileSpec(spec);
    this.params = spec.params;
    this.lookup = new SegmentDocLookup(env.mapping, env.ctx.index);
    this.ctx = { doc: this.lookup, params: this.params, value: undefined, valueKind: 0 };
  }

  setSegment(rs: ReaderSegment): void {
    this.lookup.setSegment(rs);
  }

  /** The document's values: fills `buf` and returns how many there are. */
  fill(doc: number): number {
    const lookup = this.lookup;
    lookup.setDoc(doc);
    const ctx = this.ctx;
    this.n = 0;
    if (this.field !== '') {
      const f = lookup.get(this.field);
      ctx.valueKind = f.kind === 'long' ? 1 : f.kind === 'double' ? 2 : 0;
      // The field's values are copied first: the script may read the same field through `doc`.
      const k = f.values.length;
      if (k === 1) {
        ctx.value = f.values[0];
        this.add(this.script.run(ctx));
      } else {
        const values = f.values.slice();
        for (let i = 0; i < k; i++) {
          ctx.value = values[i];
          this.add(this.script.run(ctx));
        }
      }
      return this.n;
    }
    this.add(this.script.run(ctx));
    return this.n;
  }

  /** The document's values, as a fresh array. */
  values(doc: number): unknown[] {
    const n = this.fill(doc);
    return this.buf.slice(0, n);
  }

  private add(v: unknown): void {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && x !== undefined) this.buf[this.n++] = x;
    } else if (v instanceof DocField) {
      for (const x of v.values) this.buf[this.n++] = x;
    } else {
      this.buf[this.n++] = v;
    }
  }
}

/** ScriptDoubleValues: numbers, dates (as millis) and booleans (1/0) count; anything else fails. */
export function scriptDouble(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof DateValue) return v.millis;
  throw illegalArgument(`Unsupported script value [${String(v)}], expected a number, date, or boolean`);
}

/** A script value as a terms key of a string kind (Java's toString). */
export function scriptString(v: unknown): string {
  return javaString(v);
}
