import { describe, expect, it } from 'vitest';
import { flattenRuntimeFields, parseRuntimeMappings, renderRuntimeField } from './runtime-mappings.ts';

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
    expect(reason({ y: { type: 'composite', fields: { a: { type: 'long' } } } })).toBe(
      'composite runtime field [y] must declare a [script]',
    );
    expect(reason({ y: { type: 'composite', script: 'emit([:])', fields: {} } })).toBe(
      'composite runtime field [y] must declare its [fields]',
    );
    expect(
      reason({ y: { type: 'composite', script: 'emit([:])', fields: { a: { type: 'composite' } } } }),
    ).toBe('Composite field [a] cannot be a child of composite field [y]');
    expect(
      reason({
        y: {
          type: 'composite',
          script: 'emit([:])',
          fields: { a: { type: 'long', on_script_error: 'fail' } },
        },
      }),
    ).toBe('runtime field [a] must have a [script] to use [on_script_error]');
  });

  it('flattens a composite field into its typed sub-fields, each reading its key', () => {
    const m = parseRuntimeMappings({
      x: { type: 'keyword' },
      y: {
        type: 'composite',
        script: 'emit(params._source)',
        on_script_error: 'continue',
        fields: { b: { type: 'long' }, a: { type: 'date', format: 'yyyy' } },
      },
    });
    expect(renderRuntimeField(m.y!)).toEqual({
      type: 'composite',
      on_script_error: 'continue',
      fields: { a: { type: 'date', format: 'yyyy' }, b: { type: 'long' } },
      script: { source: 'emit(params._source)', lang: 'painless' },
    });
    const flat = flattenRuntimeFields(m);
    expect(Object.keys(flat)).toEqual(['x', 'y.b', 'y.a']);
    expect(flat['y.a']).toMatchObject({
      type: 'date',
      format: 'yyyy',
      compositeKey: 'a',
      onScriptError: 'continue',
    });
    expect(flat['y.a']!.script?.source).toBe('emit(params._source)');
  });
});
