import { describe, expect, it } from 'vitest';
import { errorBody } from '../errors/error-body.ts';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { parseJson } from './parse.ts';

function failure(input: string | Uint8Array): ShoalError {
  try {
    parseJson(input);
  } catch (e) {
    if (isShoalError(e)) return e;
    throw e;
  }
  throw new Error('parsed');
}

const SOURCE = 'REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled)';

describe('parseJson values', () => {
  it('parses like JSON.parse when nothing is special', () => {
    expect(parseJson('{"a":[1,2.5,"x",true,null],"b":{}}')).toEqual({ a: [1, 2.5, 'x', true, null], b: {} });
    expect(parseJson(' 42 ')).toBe(42);
  });

  it('keeps integers beyond 2^53 exact as bigint, and safe ones as numbers', () => {
    const v = parseJson(
      '{"max":9223372036854775807,"min":-9223372036854775808,"safe":9007199254740991,"s2":1234567890123456}',
    ) as Record<string, unknown>;
    expect(v.max).toBe(9223372036854775807n);
    expect(v.min).toBe(-9223372036854775808n);
    expect(v.safe).toBe(9007199254740991);
    expect(v.s2).toBe(1234567890123456);
    expect(parseJson('[9007199254740993]')).toEqual([9007199254740993n]);
    expect(parseJson('[1571646604828733000]')).toEqual([1571646604828733000n]);
  });

  it('keeps long decimals as numbers (where json-bigint would throw)', () => {
    expect(parseJson('{"pi":3.14159265358979323846,"e":1.2345678901234567e5}')).toEqual({
      pi: Math.PI,
      e: 123456.78901234567,
    });
  });

  it('accepts comments, as Elasticsearch enables ALLOW_COMMENTS', () => {
    expect(parseJson('{ /* size */ "size": 1, // line\n "from": 0 }')).toEqual({ size: 1, from: 0 });
  });

  it('reads UTF-8 bytes, dropping a BOM', () => {
    const bytes = new TextEncoder().encode('\uFEFF{"t":"héllo","n":12345678901234567890}');
    expect(parseJson(bytes)).toEqual({ t: 'héllo', n: 12345678901234567890n });
  });

  it('keeps a __proto__ key as data', () => {
    const v = parseJson('{"__proto__":{"x":1},"constructor":2,"n":12345678901234567}') as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'constructor', 'n']);
  });
});

describe('parseJson errors', () => {
  it('requires a body', () => {
    const e = failure('');
    expect([e.type, e.reason, e.status]).toEqual(['parse_exception', 'request body is required', 400]);
    expect(failure('  \n').reason).toBe('request body is required');
    expect(() => parseJson('', 'source')).toThrow('source is required');
  });

  it('reports an unquoted field name as Jackson does through x-content', () => {
    const e = failure('{ query: { match_all: {} } }');
    const jackson = `Unexpected character ('q' (code 113)): was expecting double-quote to start field name\n at [Source: ${SOURCE}; line: 1, column: 4]`;
    expect(e.type).toBe('x_content_parse_exception');
    expect(e.status).toBe(400);
    expect(e.reason).toBe(`[1:4] ${jackson}`);
    expect(e.causedBy?.type).toBe('json_parse_exception');
    expect(e.causedBy?.reason).toBe(jackson);
    const body = errorBody(e).body as { error: { root_cause: { type: string }[] } };
    expect(body.error.root_cause[0]!.type).toBe('x_content_parse_exception');
  });

  it('counts lines and UTF-8 columns like Jackson (column just past the character)', () => {
    // medcl/elasticsearch-analysis-mmseg#39: body "\n{content:…}" → line: 2, column: 3.
    expect(failure('\n{content:"x"}').reason).toMatch(/^\[2:3\] Unexpected character \('c' \(code 99\)\)/);
    expect(failure('{"é":1 "b":2}').reason).toMatch(
      /^\[1:10\] Unexpected character \('"' \(code 34\)\): was expecting comma to separate Object entries/,
    );
  });

  it('gives Jackson texts for the common mistakes', () => {
    const r = (s: string) => failure(s).reason.split('\n')[0];
    expect(r('{"a": }')).toBe("[1:8] Unexpected character ('}' (code 125)): expected a value");
    expect(r('{"a" 1}')).toBe(
      "[1:7] Unexpected character ('1' (code 49)): was expecting a colon to separate field name and value",
    );
    expect(r('[1 2]')).toBe(
      "[1:5] Unexpected character ('2' (code 50)): was expecting comma to separate Array entries",
    );
    expect(r('{"a":tru}')).toBe(
      "[1:9] Unrecognized token 'tru': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
    );
    expect(r('{"a":01}')).toBe('[1:8] Invalid numeric value: Leading zeroes not allowed');
    expect(r('{"a":"x\ny"}')).toBe(
      '[1:9] Illegal unquoted character ((CTRL-CHAR, code 10)): has to be escaped using backslash to be included in string value',
    );
    expect(r('{"a":NaN}')).toBe(
      "[1:9] Non-standard token 'NaN': enable `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow",
    );
    expect(r('{"a":"\\x"}')).toBe("[1:9] Unrecognized character escape 'x' (code 120)");
  });

  it('rejects duplicate keys, as Elasticsearch enables STRICT_DUPLICATE_DETECTION', () => {
    const e = failure('{"size":1,"size":2}');
    expect(e.type).toBe('x_content_parse_exception');
    expect(e.reason.split('\n')[0]).toBe("[1:17] Duplicate field 'size'");
    expect(failure('{"a":{"b":1,"b":2}}').reason).toContain("Duplicate field 'b'");
    // Same key in sibling objects is fine.
    expect(parseJson('[{"a":1},{"a":2}]')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parseJson('{"k":"a\\"b:","a":{"k":1}}')).toEqual({ k: 'a"b:', a: { k: 1 } });
  });

  it('reports a truncated body as x_content_e_o_f_exception (400, Elasticsearch 8.16+)', () => {
    const e = failure('{"query": {"match_all": {}}');
    expect(e.type).toBe('x_content_e_o_f_exception');
    expect(e.status).toBe(400);
    expect(e.reason).toBe('[1:28] Unexpected end of file');
    expect(e.causedBy?.type).toBe('json_e_o_f_exception');
    expect(e.causedBy?.reason).toBe(
      `Unexpected end-of-input: expected close marker for Object (start marker at [Source: ${SOURCE}; line: 1, column: 1])\n` +
        ` at [Source: ${SOURCE}; line: 1, column: 28]`,
    );
    expect(failure('{"a":"abc').causedBy?.reason).toMatch(
      /^Unexpected end-of-input: was expecting closing quote for a string value/,
    );
  });

  it('rejects content after the root value', () => {
    expect(failure('{"a":1} {"b":2}').reason).toMatch(/^\[1:10\] Unexpected character \('\{' \(code 123\)\)/);
  });

  it('reports invalid UTF-8', () => {
    const e = failure(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
    expect(e.reason).toMatch(/^\[1:8\] Invalid UTF-8 start byte 0xff/);
  });

  it('errors the same with big numbers present (strict path)', () => {
    expect(failure('{"a":12345678901234567890,"a":1}').reason).toContain("Duplicate field 'a'");
  });
});
