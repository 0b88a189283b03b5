import { describe, expect, it } from 'vitest';
import { errorBody } from '../errors/error-body.ts';
import { invalidIndexNameReason, validateIndexName } from './index-name.ts';

describe('validateIndexName', () => {
  it('accepts ordinary names', () => {
    for (const n of ['logs-2024.01', 'a', '.hidden', 'my_index', 'ü'])
      expect(invalidIndexNameReason(n)).toBeUndefined();
  });

  it('gives Elasticsearch 8 reasons in its order', () => {
    expect(invalidIndexNameReason('Foo')).toBe('must be lowercase');
    expect(invalidIndexNameReason('_foo')).toBe("must not start with '_', '-', or '+'");
    expect(invalidIndexNameReason('-foo')).toBe("must not start with '_', '-', or '+'");
    expect(invalidIndexNameReason('+foo')).toBe("must not start with '_', '-', or '+'");
    expect(invalidIndexNameReason('a#b')).toBe("must not contain '#'");
    expect(invalidIndexNameReason('a:b')).toBe("must not contain ':'");
    expect(invalidIndexNameReason('')).toBe('must not be empty');
    expect(invalidIndexNameReason('.')).toBe("must not be '.' or '..'");
    expect(invalidIndexNameReason('..')).toBe("must not be '.' or '..'");
    expect(invalidIndexNameReason('x'.repeat(256))).toBe('index name is too long, (256 > 255)');
    expect(invalidIndexNameReason('é'.repeat(128))).toBe('index name is too long, (256 > 255)');
    for (const c of ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ',']) {
      expect(invalidIndexNameReason(`a${c}b`)).toBe(
        `must not contain the following characters ['\\','/','*','?','"','<','>','|',' ',',']`,
      );
    }
    // The character check comes first, even for an upper-case name.
    expect(invalidIndexNameReason('A B')).toMatch(/^must not contain the following characters/);
  });

  it('throws invalid_index_name_exception with index metadata', () => {
    try {
      validateIndexName('Foo');
      expect.unreachable();
    } catch (e) {
      expect(JSON.stringify(errorBody(e).body)).toBe(
        '{"error":{"root_cause":[{"type":"invalid_index_name_exception","reason":"Invalid index name [Foo], must be lowercase",' +
          '"index_uuid":"_na_","index":"Foo"}],"type":"invalid_index_name_exception",' +
          '"reason":"Invalid index name [Foo], must be lowercase","index_uuid":"_na_","index":"Foo"},"status":400}',
      );
    }
  });
});
