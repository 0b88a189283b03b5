import { isShoalError, type QueryNode } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { compileRegExp, matchesWhole } from './regexp-automaton.ts';
import { parseRegExp } from './regexp-syntax.ts';
import { corpus } from './test-corpus.test-support.ts';

const ALL = 0xff;
const NONE = 0;
const matches = (pattern: string, term: string, flags = ALL, ci = false) =>
  compileRegExp(pattern, flags, ci).matches(term);

function syntaxError(pattern: string, flags = ALL): string {
  try {
    compileRegExp(pattern, flags, false);
  } catch (e) {
    if (isShoalError(e)) return `${e.type}: ${e.reason}`;
    throw e;
  }
  throw new Error(`expected [${pattern}] to fail`);
}

describe('Lucene RegExp syntax', () => {
  it('is anchored to the whole term', () => {
    expect(matches('ab.*', 'abcd')).toBe(true);
    expect(matches('ab.*', 'xabcd')).toBe(false);
    expect(matches('b', 'abc')).toBe(false);
    expect(matches('', '')).toBe(true);
    expect(matches('()', '')).toBe(true);
    expect(matches('()', 'a')).toBe(false);
  });

  it('repetitions ? * + {n} {n,} {n,m}', () => {
    expect(['', 'a', 'aa'].map((t) => matches('a?', t))).toEqual([true, true, false]);
    expect(['', 'aaaa'].map((t) => matches('a*', t))).toEqual([true, true]);
    expect(['', 'a', 'aaa'].map((t) => matches('a+', t))).toEqual([false, true, true]);
    expect(['aa', 'aaa'].map((t) => matches('a{2}', t))).toEqual([true, false]);
    expect(['a', 'aa', 'aaaaa'].map((t) => matches('a{2,}', t))).toEqual([false, true, true]);
    expect(['a', 'aa', 'aaa', 'aaaa'].map((t) => matches('a{2,3}', t))).toEqual([false, true, true, false]);
    expect(matches('(ab){2}c', 'ababc')).toBe(true);
    // Lucene 9's Operations.repeat: {n,m} with n > m is the empty language, not an error.
    expect(matches('a{3,2}', 'aa')).toBe(false);
  });

  it('alternation, grouping and precedence', () => {
    expect(['abc', 'abd', 'abe'].map((t) => matches('ab(c|d)', t))).toEqual([true, true, false]);
    expect(['ab', 'cd', 'abd'].map((t) => matches('ab|cd', t))).toEqual([true, true, false]);
  });

  it('classes, negated classes, ranges and predefined classes', () => {
    expect(['a', 'q', 'z', 'A'].map((t) => matches('[a-mq]', t))).toEqual([true, true, false, false]);
    expect(['d', 'b', ''].map((t) => matches('[^a-c]', t))).toEqual([true, false, false]);
    expect(matches('[]a]+', ']a]')).toBe(true);
    expect(['42', '4a'].map((t) => matches('\\d+', t))).toEqual([true, false]);
    expect(['a_Z9', 'a-b'].map((t) => matches('\\w+', t))).toEqual([true, false]);
    expect(['x y', 'xy'].map((t) => matches('x\\sy', t))).toEqual([true, false]);
    expect(['ab', 'a1'].map((t) => matches('a\\D', t))).toEqual([true, false]);
    expect(['a-', 'a1'].map((t) => matches('a[\\W]', t))).toEqual([true, false]);
  });

  it('reserved characters are literal when quoted or escaped; ^ and $ are plain characters', () => {
    expect(matches('"a.b"', 'a.b')).toBe(true);
    expect(matches('"a.b"', 'axb')).toBe(false);
    expect(matches('a\\.b', 'a.b')).toBe(true);
    expect(matches('a\\\\b', 'a\\b')).toBe(true);
    expect(matches('^ab$', 'ab')).toBe(false);
    expect(matches('^ab$', '^ab$')).toBe(true);
    // A quantifier with nothing before it is a character.
    expect(matches('*a', '*a')).toBe(true);
  });

  it('the optional operators: @ # ~ & <n-m>', () => {
    expect(matches('ab@', 'abzzz')).toBe(true);
    expect(matches('a#|b', 'a')).toBe(false);
    expect(matches('a#|b', 'b')).toBe(true);
    expect(['abd', 'abcd', 'ab'].map((t) => matches('ab~(c.*)', t))).toEqual([true, false, true]);
    expect(['aaa', 'aba'].map((t) => matches('@&~(.*b.*)', t))).toEqual([true, false]);
    expect(['abc', 'abd', 'xbc'].map((t) => matches('a.+&.+c', t))).toEqual([true, false, false]);
    expect(['foo42', 'foo0042', 'foo101', 'foo'].map((t) => matches('foo<1-100>', t))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    // Bounds of the same width fix the width: zero padding is required.
    expect(['05', '5', '10'].map((t) => matches('<01-10>', t))).toEqual([true, false, true]);
    expect(matches('<10-1>', '7')).toBe(true);
  });

  it('without their flags the optional operators are plain characters', () => {
    expect(matches('a@', 'a@', NONE)).toBe(true);
    expect(matches('a@', 'abc', NONE)).toBe(false);
    expect(matches('~a', '~a', NONE)).toBe(true);
    expect(matches('a&b', 'a&b', NONE)).toBe(true);
    expect(matches('<1-2>', '<1-2>', NONE)).toBe(true);
    expect(matches('a#', 'a#', 0x08)).toBe(true);
  });

  it('case_insensitive folds ASCII letters of characters and strings, not ranges', () => {
    expect(matches('ABC', 'abc', ALL, true)).toBe(true);
    expect(matches('"AbC"d', 'aBcD', ALL, true)).toBe(true);
    expect(matches('[a]', 'A', ALL, true)).toBe(true);
    expect(matches('[a-c]', 'B', ALL, true)).toBe(false);
    expect(matches('[^a]', 'A', ALL, true)).toBe(false);
    expect(matches('é', 'É', ALL, true)).toBe(false);
    expect(matches('ABC', 'abc')).toBe(false);
  });

  it('code points beyond the BMP are one character', () => {
    expect(matches('a.b', 'a😀b')).toBe(true);
    expect(matches('[😀-😂]', '😁')).toBe(true);
  });

  it('nested repetitions stay linear', () => {
    const started = performance.now();
    expect(matches('(a*)*b', `${'a'.repeat(5000)}c`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('the literal start of a pattern narrows the term dictionary', () => {
    expect(compileRegExp('abc.*', ALL, false).prefix).toBe('abc');
    expect(compileRegExp('"a.b"x?', ALL, false).prefix).toBe('a.b');
    expect(compileRegExp('ab*', ALL, false).prefix).toBe('a');
    expect(compileRegExp('ab|ac', ALL, false).prefix).toBe('');
    expect(compileRegExp('~ab', ALL, false).prefix).toBe('');
    expect(compileRegExp('1aB', ALL, true).prefix).toBe('1');
  });
});

describe('Lucene RegExp errors', () => {
  it('reports the IllegalArgumentException texts of RegExp with their positions', () => {
    expect(syntaxError('(ab')).toBe("illegal_argument_exception: expected ')' at position 3");
    expect(syntaxError('[ab')).toBe("illegal_argument_exception: expected ']' at position 3");
    expect(syntaxError('[]')).toBe("illegal_argument_exception: expected ']' at position 2");
    expect(syntaxError('"ab')).toBe("illegal_argument_exception: expected '\"' at position 3");
    expect(syntaxError('a{')).toBe('illegal_argument_exception: integer expected at position 2');
    expect(syntaxError('a{2')).toBe("illegal_argument_exception: expected '}' at position 3");
    expect(syntaxError('a)')).toBe('illegal_argument_exception: end-of-string expected at position 1');
    expect(syntaxError('a|')).toBe('illegal_argument_exception: unexpected end-of-string');
    expect(syntaxError('ab\\')).toBe('illegal_argument_exception: unexpected end-of-string');
    expect(syntaxError('[z-a]')).toBe(
      'illegal_argument_exception: invalid range: from (122) cannot be > to (97)',
    );
    expect(syntaxError('a\\q')).toBe('illegal_argument_exception: invalid character class \\113');
    expect(syntaxError('a{99999999999}')).toBe('number_format_exception: For input string: "99999999999"');
  });

  it('angle brackets: intervals, and named automata that RegexpQuery does not know', () => {
    expect(syntaxError('<1-2')).toBe("illegal_argument_exception: expected '>' at position 4");
    expect(syntaxError('<a-b>')).toBe('illegal_argument_exception: interval syntax error at position 4');
    expect(syntaxError('<1-2-3>')).toBe('illegal_argument_exception: interval syntax error at position 6');
    expect(syntaxError('<abc>')).toBe("illegal_argument_exception: 'abc' not found");
    expect(syntaxError('<abc>', 0x20)).toBe(
      'illegal_argument_exception: interval syntax error at position 4',
    );
    expect(syntaxError('<1-2>', 0x10)).toBe('illegal_argument_exception: illegal identifier at position 4');
  });
});

describe('the automaton and the end sets agree', () => {
  // Two matchers, one contract: random patterns over a small alphabet, every short term.
  const alphabet = ['a', 'b', 'c'];
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const atom = (depth: number): string => {
    const r = rnd(depth > 2 ? 3 : 9);
    if (r < 3) return alphabet[r]!;
    if (r === 3) return '.';
    if (r === 4) return `(${pattern(depth + 1)})`;
    if (r === 5) return `~(${pattern(depth + 1)})`;
    if (r === 6) return `(${pattern(depth + 1)}&${pattern(depth + 1)})`;
    if (r === 7) return '[^b]';
    return '@';
  };
  const piece = (depth: number): string => {
    const a = atom(depth);
    return a + ['', '*', '+', '?', '{1,2}', '{2}'][rnd(6)]!;
  };
  const pattern = (depth: number): string => {
    const parts = Array.from({ length: 1 + rnd(3) }, () => piece(depth));
    return rnd(4) === 0 ? `${parts.join('')}|${piece(depth)}` : parts.join('');
  };
  const terms = [''];
  for (let len = 1; len <= 4; len++) {
    for (let i = 0; i < 3 ** len; i++) {
      let t = '';
      for (let k = 0, x = i; k < len; k++, x = Math.floor(x / 3)) t += alphabet[x % 3];
      terms.push(t);
    }
  }

  it('on 200 random patterns', () => {
    for (let i = 0; i < 200; i++) {
      const p = pattern(0);
      const compiled = compileRegExp(p, ALL, false);
      const root = parseRegExp(p, ALL, false);
      for (const t of terms) expect([p, t, compiled.matches(t)]).toEqual([p, t, matchesWhole(root, t)]);
    }
  });
});

describe('the regexp query', () => {
  const c = corpus(
    {
      title: { type: 'text' },
      tag: { type: 'keyword' },
      n: { type: 'integer' },
    },
    [
      ['1', { title: 'Quick brown fox', tag: 'Fox-1', n: 1 }],
      ['2', { title: 'brawny dogs', tag: 'dog-22' }],
      ['3', { title: 'slow fox', tag: 'fox-3' }],
      ['4', { title: 'foxes everywhere', tag: 'cat' }],
    ],
    2,
  );
  const regexp = (field: string, value: string, extra: Record<string, unknown> = {}): QueryNode =>
    ({
      type: 'regexp',
      field,
      value,
      flags: ALL,
      caseInsensitive: false,
      maxDeterminizedStates: 10000,
      boost: 1,
      ...extra,
    }) as QueryNode;
  const ids = (query: QueryNode) => c.ids(query).sort();

  it('matches indexed terms, not the text: the pattern is not analysed', () => {
    expect(ids(regexp('title', 'fox.*'))).toEqual(['1', '3', '4']);
    expect(ids(regexp('title', 'br.wny?'))).toEqual(['1', '2']);
    expect(ids(regexp('title', 'Quick'))).toEqual([]);
    expect(ids(regexp('title', 'quick brown'))).toEqual([]);
  });

  it('keyword values are whole terms; case_insensitive folds ASCII', () => {
    expect(ids(regexp('tag', 'fox-\\d+'))).toEqual(['3']);
    expect(ids(regexp('tag', 'fox-\\d+', { caseInsensitive: true }))).toEqual(['1', '3']);
    expect(ids(regexp('tag', '[a-z]+-<1-30>'))).toEqual(['2', '3']);
    expect(ids(regexp('tag', '~(fox.*)&[a-z]+-.*'))).toEqual(['2']);
  });

  it('scores every hit with the boost by default; scoring rewrites score the terms', () => {
    const hits = c.search(regexp('title', 'fox.*', { boost: 3 })).hits;
    expect(hits.map((h) => h.score)).toEqual([3, 3, 3]);
    const scored = c.search(regexp('title', 'fox.*', { rewrite: 'scoring_boolean' })).hits;
    expect(scored.length).toBe(3);
    expect(new Set(scored.map((h) => h.score)).size).toBeGreaterThan(1);
    // top_terms_1 keeps the smallest matching term: "fox" (docs 1 and 3), not "foxes".
    expect(ids(regexp('title', 'fox.*', { rewrite: 'top_terms_1' }))).toEqual(['1', '3']);
  });

  it('an unmapped field matches nothing, but its pattern must still parse', () => {
    expect(ids(regexp('nope', 'a.*'))).toEqual([]);
    expect(() => c.search(regexp('nope', '(a'))).toThrow(
      "failed to create query: expected ')' at position 2",
    );
  });

  it('fails as Elasticsearch does', () => {
    expect(() => c.search(regexp('n', '1'))).toThrow(
      'Can only use regexp queries on keyword and text fields - not on [n] which is of type [integer]',
    );
    expect(() => c.search(regexp('_id', '1'))).toThrow(
      'Can only use regexp queries on keyword and text fields - not on [_id] which is of type [_id]',
    );
    expect(() => c.search(regexp('title', 'a{'))).toThrow(
      'failed to create query: integer expected at position 2',
    );
    expect(() => c.search(regexp('title', 'a', { rewrite: 'nonsense' }))).toThrow(
      'failed to create query: Failed to parse rewrite_method [nonsense]',
    );
    expect(() => c.search(regexp('title', 'a'.repeat(1001)))).toThrow(
      'failed to create query: The length of regex [1001] used in the Regexp Query request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.',
    );
  });
});
