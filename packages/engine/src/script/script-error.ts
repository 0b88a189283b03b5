/**
 * Failures of a script, as Painless reports them: a compile error or a runtime error at an
 * offset of the source, with the Java exception behind it (`illegal_argument_exception`,
 * `null_pointer_exception`, `arithmetic_exception`, …). `scriptException` turns one into
 * Elasticsearch's `script_exception` (PainlessScriptEngine.convertToScriptException): the
 * statement around the offset and a `^---- HERE` pointer as `script_stack`, the source, the
 * language and the position.
 */
import {
  type ScriptCauseType,
  type ShoalError,
  scriptCause,
  scriptException as scriptFailure,
} from '@shoal/protocol';

export class ScriptCompileError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number,
    readonly javaType: ScriptCauseType = 'illegal_argument_exception',
  ) {
    super(reason);
  }
}

/** Thrown while a script runs; `offset` is filled in by the node that was running. */
export class ScriptRuntimeError extends Error {
  offset = -1;
  constructor(
    readonly javaType: ScriptCauseType,
    readonly reason: string | null,
  ) {
    super(reason ?? javaType);
  }
}

/** Where statements start, for the snippet of the script stack. */
export type StatementStarts = readonly number[];

export function scriptException(
  kind: 'compile error' | 'runtime error',
  source: string,
  offset: number,
  statements: StatementStarts,
  cause: { javaType: ScriptCauseType; reason: string | null },
): ShoalError {
  let start = 0;
  let end = source.length;
  for (const s of statements) {
    if (s <= offset) start = Math.max(start, s);
    else if (s < end) end = s;
  }
  const at = Math.max(0, Math.min(offset, source.length));
  const snippet = source.slice(start, end);
  const pointer = `${' '.repeat(Math.max(0, at - start))}^---- HERE`;
  return scriptFailure(
    kind,
    {
      scriptStack: [snippet, pointer],
      script: source,
      lang: 'painless',
      position: { offset: at, start, end },
    },
    scriptCause(cause.javaType, cause.reason),
  );
}
