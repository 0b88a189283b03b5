/**
 * Script failures (ScriptException and the Java exceptions a script raises while it runs).
 */
import { ShoalError } from './shoal-error.ts';

/** The Java exceptions a Painless script may raise; their wire types, all 400 inside a script_exception. */
export type ScriptCauseType =
  | 'illegal_argument_exception'
  | 'illegal_state_exception'
  | 'null_pointer_exception'
  | 'arithmetic_exception'
  | 'class_cast_exception'
  | 'index_out_of_bounds_exception'
  | 'number_format_exception'
  | 'unsupported_operation_exception'
  | 'no_such_element_exception'
  | 'circuit_breaking_exception';

export function scriptCause(type: ScriptCauseType, reason: string | null): ShoalError {
  return new ShoalError(type, reason as string, 400);
}

/**
 * ScriptException: `compile error` or `runtime error`, with the statement around the failure
 * and its `^---- HERE` pointer (`script_stack`), the source, the language and the position.
 */
export function scriptException(
  reason: 'compile error' | 'runtime error',
  detail: {
    scriptStack: string[];
    script: string;
    lang: string;
    position?: { offset: number; start: number; end: number };
  },
  causedBy: ShoalError,
): ShoalError {
  const meta: Record<string, unknown> = {
    script_stack: detail.scriptStack,
    script: detail.script,
    lang: detail.lang,
  };
  if (detail.position) meta.position = detail.position;
  return new ShoalError('script_exception', reason, 400, meta, causedBy);
}
