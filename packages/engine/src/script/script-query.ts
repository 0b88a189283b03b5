/**
 * Scripts in queries: the `script` query (ScriptQuery: the documents the script returns true
 * for, scored constantly) and function_score's `script_score` function (ScriptScoreFunction:
 * the script's value, with the inner query's score as `_score`).
 */
import type { ScriptSpec } from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { CompileEnv } from '../search/compile-env.ts';
import { ConstantWeight, type Weight } from '../search/weights.ts';
import type { ScriptContext } from './compiler.ts';
import { SegmentDocLookup } from './doc-lookup.ts';
import { compileSpec } from './script.ts';
import { ScriptRuntimeError, scriptException } from './script-error.ts';
import { javaClassOf } from './values.ts';

export function scriptQuery(env: CompileEnv, spec: ScriptSpec, boost: number): Weight {
  const script = compileSpec(spec);
  const params = spec.params;
  return new ConstantWeight((rs) => {
    const lookup = new SegmentDocLookup(env.mapping, env.index);
    lookup.setSegment(rs);
    const out: number[] = [];
    const max = rs.segment.maxDoc;
    const ctx = { doc: lookup, params };
    for (let d = 0; d < max; d++) {
      lookup.setDoc(d);
      const r = script.run(ctx);
      if (r === true) out.push(d);
      else if (r !== false) throw notBoolean(script.source, r);
    }
    return Int32Array.from(out);
  }, Math.fround(boost));
}

function notBoolean(source: string, r: unknown): Error {
  const e = new ScriptRuntimeError(
    'class_cast_exception',
    `Cannot cast ${javaClassOf(r)} to java.lang.Boolean`,
  );
  return scriptException('runtime error', source, 0, [0], e);
}

/** script_score's per-segment values; `score` is the inner query's score of the doc. */
export function scriptScoreFunction(
  env: CompileEnv,
  spec: ScriptSpec,
): { needsScore: boolean; leaf(rs: ReaderSegment): (doc: number, score?: number) => number } {
  const script = compileSpec(spec);
  const params = spec.params;
  return {
    needsScore: script.needsScore,
    leaf(rs) {
      const lookup = new SegmentDocLookup(env.mapping, env.index);
      lookup.setSegment(rs);
      const ctx: ScriptContext = { doc: lookup, params, score: 0 };
      return (doc, score) => {
        lookup.setDoc(doc);
        ctx.score = score ?? 0;
        const r = script.run(ctx);
        if (typeof r !== 'number') {
          const e = new ScriptRuntimeError(
            'class_cast_exception',
            `Cannot cast ${javaClassOf(r)} to java.lang.Number`,
          );
          throw scriptException('runtime error', script.source, 0, [0], e);
        }
        return r;
      };
    },
  };
}
