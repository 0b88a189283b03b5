import { describe, expect, it } from 'vitest';
import { parseRuntimeMappings, renderRuntimeField } from './runtime-mappings.ts';

function failure(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    return e as { type: string; reason: string; status: number };
  }
  throw new Error('no failure');
}

describe('runtime_mappings', () => {
  it('reads each field: type, script (string or object), date format, on_script_error', () => {
    const m = parseRuntimeMappings({
      a: { type: 'keyword' },
      b: { type: 'long', script: "emit(doc['n'].value)" },
      c: {
        type: 'date',
        format: 'yyyy',
        script: { source: 'emit(params.t)', params: { t: 1 } },
        on_script_error: 'continue',
      },
    });
    expect(m.a).toEqual({ type: 'keyword' });
    expect(m.b).toEqual({
      type: 'long',
      script: { source: "emit(doc['n'].value)", lang: 'painless', params: {} },
    });
    expect(renderRuntimeField(m.c!)).toEqual({
      type: 'date',
      format: 'yyyy',
      on_script_error: 'continue',
      script: { source: 'emit(params.t)', lang: 'painless', params: { t: 1 } },
    });
  });

  it("refuses what Elasticsearch's RuntimeField parser refuses", () => {
    const reason = (v: unknown) => failure(() => parseRuntimeMappings(v)).reason;
    expect(reason({ x: 'long' })).toBe(
      'Expected map for runtime field [x] definition but got a java.lang.String',
    );
    expect(reason({ x: {} })).toBe('No type specified for runtime field [x]');
    expect(reason({ x: { type: 'text' } })).toBe('No handler for type [text] declared on runtime field [x]');
    expect(reason({ x: { type: 'ip', foo: 1 } })).toBe(
      'unknown parameter [foo] on runtime field [x] of type [ip]',
    );
    expect(
      failure(() => parseRuntimeMappings({ x: { type: 'long' }, y: { type: 'composite' } })).status,
    ).toBe(501);
  });
});
