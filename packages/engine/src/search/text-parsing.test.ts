import { describe, expect, it } from 'vitest';
import { editDistance } from './fuzzy.ts';
import { formatIp, parseCidr, parseIp } from './ip.ts';
import { minimumShouldMatch } from './minimum-should-match.ts';
import { phraseFreq } from './phrase-matcher.ts';
import { parseSimpleQuery, type SqsLeaves } from './simple-query-string.ts';

describe('minimum_should_match', () => {
  it.each([
    ['3', 5, 3],
    ['-2', 5, 3],
    ['75%', 4, 3],
    ['-25%', 4, 3],
    ['-25%', 5, 4],
    ['66%', 3, 1],
    ['10', 3, 10],
    ['-10', 3, 0],
    ['3<90%', 3, 3],
    ['3<90%', 10, 9],
    ['2<-25% 9<-3', 2, 2],
    ['2<-25% 9<-3', 8, 6],
    ['2<-25% 9<-3', 12, 9],
  ])('%s of %i optional clauses is %i', (spec, n, want) => {
    expect(minimumShouldMatch(n, spec)).toBe(want);
  });
  it('rejects garbage as Integer.parseInt does', () => {
    expect(() => minimumShouldMatch(3, 'abc')).toThrow('For input string: "abc"');
  });
});

/** Renders the parsed tree as text, to pin SimpleQueryParser's structure. */
const show: SqsLeaves<string> = {
  text: (t) => t,
  phrase: (t, s) => `"${t}"~${s}`,
  prefix: (t) => `${t}*`,
  fuzzy: (t, e) => `${t}~${e}`,
  not: (b) => `-${b}`,
  bool: (cs) => `(${cs.map((c) => (c.occur === 'must' ? `+${c.q}` : c.q)).join(' ')})`,
};
const parse = (s: string, op: 'must' | 'should' = 'should') => parseSimpleQuery(s, op, show).top;

describe('simple_query_string parser', () => {
  it('builds the tree left to right like Lucene SimpleQueryParser', () => {
    expect(parse('a')).toBe('a');
    expect(parse('a b')).toBe('(a b)');
    expect(parse('a b', 'must')).toBe('(+a +b)');
    expect(parse('a +b')).toBe('(+a +b)');
    expect(parse('a b +c')).toBe('(+(a b) +c)');
    expect(parse('a | b c', 'must')).toBe('(+(a b) +c)');
    expect(parse('a -b')).toBe('(a -b)');
    expect(parse('--a')).toBe('a');
    expect(parse('(a b) +c')).toBe('(+(a b) +c)');
    expect(parse('"a b"~3 c*')).toBe('("a b"~3 c*)');
    expect(parse('foo~ bar~1 baz~0')).toBe('(foo~2 bar~1 baz)');
    expect(parse('"unclosed a')).toBe('(unclosed a)');
    expect(parse('(a')).toBe('a');
    expect(parse('a\\+b')).toBe('a+b');
    expect(parse('')).toBeUndefined();
    expect(parse('+')).toBeUndefined();
  });
});

describe('phrase frequency', () => {
  const p = (...xs: number[]) => Int32Array.from(xs);
  it('counts exact matches', () => {
    expect(phraseFreq([p(0, 5), p(1, 9)], [0, 1], 0)).toBe(1);
    expect(phraseFreq([p(0, 1), p(1, 2)], [0, 1], 0)).toBe(2);
    expect(phraseFreq([p(0), p(2)], [0, 1], 0)).toBe(0);
  });
  it('weights sloppy matches by 1 / (1 + distance)', () => {
    expect(phraseFreq([p(0), p(2)], [0, 1], 1)).toBeCloseTo(0.5, 6);
    // Reversed order needs slop 2.
    expect(phraseFreq([p(1), p(0)], [0, 1], 1)).toBe(0);
    expect(phraseFreq([p(1), p(0)], [0, 1], 2)).toBeCloseTo(1 / 3, 6);
  });
  it('does not let a repeated phrase term reuse one occurrence', () => {
    const once = p(0);
    expect(phraseFreq([once, once], [0, 1], 1)).toBe(0);
    const twice = p(0, 2);
    expect(phraseFreq([twice, twice], [0, 1], 1)).toBeGreaterThan(0);
  });
});

describe('helpers', () => {
  it('parses and formats ip addresses', () => {
    expect(parseIp('1.2.3.4')).toBe(0xffff01020304n);
    expect(parseIp('::ffff:1.2.3.4')).toBe(0xffff01020304n);
    expect(parseIp('2001:db8::1')).toBe(0x20010db8000000000000000000000001n);
    expect(parseIp('1.2.3')).toBeUndefined();
    expect(parseCidr('10.0.0.0/8')).toEqual([0xffff0a000000n, 0xffff0affffffn]);
    expect(formatIp(parseIp('2001:db8:0:0:1:0:0:1')!)).toBe('2001:db8::1:0:0:1');
    expect(formatIp(parseIp('10.1.2.3')!)).toBe('10.1.2.3');
    expect(formatIp(parseIp('::')!)).toBe('::');
  });
  it('computes edit distances with transpositions', () => {
    expect(editDistance([...'quikc'], [...'quick'], 2)).toBe(1);
    expect(editDistance([...'abc'], [...'xyz'], 1)).toBe(2);
    expect(editDistance([...'kitten'], [...'sitting'], 3)).toBe(3);
  });
});
