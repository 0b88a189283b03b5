/**
 * The `_script` sort on a shard (ScriptSortBuilder.build): each document's key is the script's
 * value — a double for `type: number`, a string for `type: string` — with `_score` available.
 * A script value that is a list is reduced by the sort mode (min ascending, max descending).
 */
import { illegalArgument, type SortSpec, type SortValue } from '@shoal/protocol';
import type { IndexMapping } from '../contract.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { ShardContext } from '../search/field-values.ts';
import type { FieldSort } from '../search/sort-keys.ts';
import type { ScriptContext } from './compiler.ts';
import { SegmentDocLookup } from './doc-lookup.ts';
import { javaString } from './members.ts';
import { type CompiledScript, compileSpec } from './script.ts';
import { DocField } from './values.ts';

type FieldSpec = Extract<SortSpec, { kind: 'field' }>;

export interface ScriptSortPlan {
  compiled: CompiledScript;
  params: Record<string, unknown>;
  mapping: IndexMapping;
  index: string;
}

export function resolveScriptSort(spec: FieldSpec, mapping: IndexMapping, ctx: ShardContext): FieldSort {
  const opts = spec.script!;
  const number = opts.type === 'number';
  const reverse = spec.order === 'desc';
  return {
    path: '_script',
    type: number ? 'double' : 'keyword',
    unmapped: false,
    source: 'script',
    mode: spec.mode ?? (reverse ? 'max' : 'min'),
    longSemantics: false,
    conversion: 'none',
    kind: number ? 'double' : 'string',
    missing: number ? (reverse ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY) : null,
    display: undefined,
    target: { name: '_script', kind: number ? 'double' : 'string' },
    script: { compiled: compileSpec(opts.script), params: opts.script.params, mapping, index: ctx.index },
  };
}

export function scriptSortReader(
  fs: FieldSort,
  rs: ReaderSegment,
): (doc: number, score: number) => SortValue {
  const plan = fs.script!;
  const lookup = new SegmentDocLookup(plan.mapping, plan.index);
  lookup.setSegment(rs);
  const number = fs.kind === 'double';
  const useMax = fs.mode === 'max';
  const one = (v: unknown): SortValue => {
    if (number) {
      if (typeof v !== 'number')
        throw illegalArgument(`Unsupported script value [${javaString(v)}], expected a number`);
      return v;
    }
    return javaString(v);
  };
  const ctx: ScriptContext = { doc: lookup, params: plan.params, score: 0 };
  return (doc, score) => {
    lookup.setDoc(doc);
    ctx.score = score;
    const r = plan.compiled.run(ctx);
    const list = Array.isArray(r) ? r : r instanceof DocField ? r.values : null;
    if (list === null) return r === null || r === undefined ? fs.missing : one(r);
    if (list.length === 0) return fs.missing;
    let best = one(list[0]);
    for (let i = 1; i < list.length; i++) {
      const v = one(list[i]);
      if (
        useMax
          ? (v as number | string) > (best as number | string)
          : (v as number | string) < (best as number | string)
      )
        best = v;
    }
    return best;
  };
}
