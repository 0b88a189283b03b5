/**
 * Scripts as the engine runs them: `compileScript` parses and compiles a Painless source once
 * (kept in a small per-thread cache, as Elasticsearch's ScriptCache keeps compiled scripts)
 * and gives back a runner; compile and runtime failures come out as Elasticsearch's
 * `script_exception`, with the statement around the failure and the position.
 */
import { illegalArgument, type ScriptSpec } from '@shoal/protocol';
import { type CompiledProgram, compileProgram, type ScriptContext } from './compiler.ts';
import { parseScript } from './parser.ts';
import {
  ScriptCompileError,
  ScriptRuntimeError,
  type StatementStarts,
  scriptException,
} from './script-error.ts';

export interface CompiledScript {
  readonly source: string;
  readonly needsScore: boolean;
  /** Runs the script; failures are thrown as `script_exception`. */
  run(ctx: ScriptContext): unknown;
}

/** ScriptService's `script.cache.max_size` default. */
const CACHE_SIZE = 100;
const cache = new Map<string, CompiledScript>();

export function compileScript(source: string): CompiledScript {
  const hit = cache.get(source);
  if (hit) {
    cache.delete(source);
    cache.set(source, hit);
    return hit;
  }
  let statements: StatementStarts = [0];
  let program: CompiledProgram;
  try {
    const parsed = parseScript(source);
    statements = parsed.statements;
    program = compileProgram(parsed);
  } catch (e) {
    if (e instanceof ScriptCompileError) {
      throw scriptException('compile error', source, e.offset, statements, {
        javaType: e.javaType,
        reason: e.reason,
      });
    }
    throw e;
  }
  const inner = program.run;
  const compiled: CompiledScript = {
    source,
    needsScore: program.needsScore,
    run(ctx) {
      try {
        return inner(ctx);
      } catch (e) {
        if (e instanceof ScriptRuntimeError) {
          throw scriptException('runtime error', source, Math.max(0, e.offset), statements, {
            javaType: e.javaType,
            reason: e.reason,
          });
        }
        throw e;
      }
    },
  };
  cache.set(source, compiled);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return compiled;
}

/** A script of a request, compiled: inline sources only reach the shard (stored ones are resolved before). */
export function compileSpec(spec: ScriptSpec): CompiledScript {
  if (spec.source === undefined) throw illegalArgument(`unable to find script [${spec.id}] in cluster state`);
  return compileScript(spec.source);
}
