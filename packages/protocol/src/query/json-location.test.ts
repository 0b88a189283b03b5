import { describe, expect, it } from 'vitest';
import { compactLength, locate } from './json-location.ts';

describe('compactLength', () => {
  it('measures JSON.stringify output, with bigints as digits', () => {
    const v = { a: [1, 'x', null, true], b: { c: 12345678901234567890n } };
    expect(compactLength(v)).toBe(
      JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? Number(x) : x)).length + 0,
    );
    expect(compactLength('é"')).toBe(JSON.stringify('é"').length);
    expect(compactLength([])).toBe(2);
    expect(compactLength({})).toBe(2);
  });
});

describe('locate', () => {
  const body = { query: { bool: { must: [{ match_all: {} }, { foo: {} }] } } };
  // {"query":{"bool":{"must":[{"match_all":{}},{"foo":{}}]}}}
  const text = JSON.stringify(body);

  it('points at a value (1-based columns on the compact form)', () => {
    expect(locate(body, ['query', 'bool', 'must', 1, 'foo'], 'value').col).toBe(text.indexOf('{}}]') + 1);
  });

  it('points at a field name', () => {
    expect(locate(body, ['query', 'bool', 'must', 1, 'foo'], 'key')).toEqual({
      line: 1,
      col: text.indexOf('"foo"') + 1,
    });
  });

  it('points at the closing char of a value', () => {
    expect(locate({ query: {} }, ['query'], 'end')).toEqual({ line: 1, col: 11 });
  });
});
