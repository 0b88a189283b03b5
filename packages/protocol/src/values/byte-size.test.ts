import { describe, expect, it } from 'vitest';
import { formatByteSize, formatByteSizeIn, parseByteSize } from './byte-size.ts';

describe('parseByteSize', () => {
  it('parses units in any case, 1024-based', () => {
    expect(parseByteSize('512mb', 'x')).toBe(512 * 1024 * 1024);
    expect(parseByteSize('10GB', 'x')).toBe(10 * 1024 ** 3);
    expect(parseByteSize('1k', 'x')).toBe(1024);
    expect(parseByteSize('100b', 'x')).toBe(100);
    expect(parseByteSize(' 2 tb ', 'x')).toBe(2 * 1024 ** 4);
    expect(parseByteSize('1p', 'x')).toBe(1024 ** 5);
    expect(parseByteSize('-1', 'x')).toBe(-1);
    expect(parseByteSize('0', 'x')).toBe(0);
  });

  it('accepts fractions with the deprecation message', () => {
    const warnings: string[] = [];
    expect(parseByteSize('1.5kb', 'indices.x', (m) => warnings.push(m))).toBe(1536);
    expect(warnings).toEqual([
      'Fractional bytes values are deprecated. Use non-fractional bytes values instead: [1.5kb] found for setting [indices.x]',
    ]);
  });

  it('rejects what Elasticsearch rejects', () => {
    expect(() => parseByteSize('12', 'index.translog.flush_threshold_size')).toThrow(
      'failed to parse setting [index.translog.flush_threshold_size] with value [12] as a size in bytes: unit is missing or unrecognized',
    );
    expect(() => parseByteSize('abcmb', 'x')).toThrow('failed to parse setting [x] with value [abcmb]');
    expect(() => parseByteSize('-2kb', 'x')).toThrow(
      'failed to parse setting [x] with value [-2kb] as a size in bytes',
    );
  });
});

describe('formatByteSize', () => {
  it('prints the human form', () => {
    expect(formatByteSize(1536)).toBe('1.5kb');
    expect(formatByteSize(1024)).toBe('1kb');
    expect(formatByteSize(1000)).toBe('1000b');
    expect(formatByteSize(3.45 * 1024 * 1024)).toBe('3.4mb');
    expect(formatByteSize(2.3 * 1024 ** 3)).toBe('2.3gb');
    expect(formatByteSize(0)).toBe('0b');
    expect(formatByteSize(-1)).toBe('-1b');
  });

  it('prints the _cat ?bytes= form', () => {
    expect(formatByteSizeIn(5000, 'kb')).toBe('4');
    expect(formatByteSizeIn(5000, 'b')).toBe('5000');
  });
});
