import { describe, expect, it } from 'vitest';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import type { QueryNode } from './ast.ts';
import { parseQueryString } from './parse-query-string.ts';

function chain(e: ShoalError): string[] {
  const out = [`${e.type}: ${e.reason}`];
  if (e.causedBy) out.push(...chain(e.causedBy));
  return out;
}
function err(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return chain(e);
    throw e;
  }
  throw new Error('expected an error');
}

const all = (query: string, extra: Partial<QueryNode> = {}) => ({
  type: 'multi_match',
  fields: [{ field: '*', boost: 1, indexDefault: true }],
  query,
  matchType: 'best_fields',
  operator: 'or',
  tieBreaker: 0,
  slop: 0,
  lenient: true,
  zeroTermsQuery: 'none',
  boost: 1,
  ...extra,
});
const match = (field: string, query: string, extra: Record<string, unknown> = {}) => ({
  type: 'match',
  field,
  query,
  operator: 'or',
  zeroTermsQuery: 'none',
  lenient: true,
  boost: 1,
  ...extra,
});
const bool = (parts: Partial<Record<'must' | 'should' | 'mustNot', unknown[]>>) => ({
  type: 'bool',
  must: [],
  filter: [],
  should: [],
  mustNot: [],
  boost: 1,
  ...parts,
});

describe('parseQueryString: what each piece becomes', () => {
  it('analyses bare terms together on the default field (`*`)', () => {
    expect(parseQueryString('quick brown fox')).toEqual(all('quick brown fox'));
  });

  it('uses df, default_operator, analyzer and lenient', () => {
    expect(
      parseQueryString('a b', {
        defaultField: 'title',
        defaultOperator: 'and',
        analyzer: 'std',
        lenient: false,
      }),
    ).toEqual(match('title', 'a b', { operator: 'and', analyzer: 'std', lenient: false }));
  });

  it('reads fields and phrases', () => {
    expect(parseQueryString('title:fox')).toEqual(match('title', 'fox'));
    expect(parseQueryString('title:"quick fox"~2')).toEqual({
      type: 'match_phrase',
      field: 'title',
      query: 'quick fox',
      slop: 2,
      zeroTermsQuery: 'none',
      boost: 1,
    });
    expect(parseQueryString('"quick fox"')).toEqual(all('quick fox', { matchType: 'phrase' }));
    // A field pattern needs its `*` escaped, or `tit*` is a prefix term.
    expect(parseQueryString('tit\\*:fox')).toEqual({ ...all('fox'), fields: [{ field: 'tit*', boost: 1 }] });
    expect(err(() => parseQueryString('tit*:fox'))[0]).toBe(
      'query_shard_exception: Failed to parse query [tit*:fox]',
    );
  });

  it('combines clauses the way Lucene does', () => {
    expect(parseQueryString('a AND b')).toEqual(bool({ must: [all('a'), all('b')] }));
    expect(parseQueryString('a OR b')).toEqual(bool({ should: [all('a'), all('b')] }));
    expect(parseQueryString('+a -b c')).toEqual(
      bool({ must: [all('a')], mustNot: [all('b')], should: [all('c')] }),
    );
    expect(parseQueryString('a && !b')).toEqual(bool({ must: [all('a')], mustNot: [all('b')] }));
    expect(parseQueryString('NOT a')).toEqual(bool({ mustNot: [all('a')] }));
    expect(parseQueryString('a b', { defaultOperator: 'and' })).toEqual(all('a b', { operator: 'and' }));
    expect(parseQueryString('x:1 OR y:2', { defaultOperator: 'and' })).toEqual(
      bool({ should: [match('x', '1', { operator: 'and' }), match('y', '2', { operator: 'and' })] }),
    );
  });

  it('groups with parentheses and boosts', () => {
    expect(parseQueryString('title:(a b)^2')).toEqual(match('title', 'a b', { boost: 2 }));
    expect(parseQueryString('(a OR b) AND c^3')).toEqual(
      bool({ must: [bool({ should: [all('a'), all('b')] }), all('c', { boost: 3 })] }),
    );
  });

  it('reads ranges, one-sided ranges, prefixes, wildcards and existence', () => {
    expect(parseQueryString('age:[1 TO 5}')).toEqual({
      type: 'range',
      field: 'age',
      gte: '1',
      lt: '5',
      boost: 1,
    });
    expect(parseQueryString('age:{* TO "9"]')).toEqual({ type: 'range', field: 'age', lte: '9', boost: 1 });
    expect(parseQueryString('age:>=5')).toEqual({ type: 'range', field: 'age', gte: '5', boost: 1 });
    expect(parseQueryString('age:<5')).toEqual({ type: 'range', field: 'age', lt: '5', boost: 1 });
    expect(parseQueryString('>=5')).toEqual(all('>=5'));
    expect(parseQueryString('user:ki*')).toEqual({
      type: 'prefix',
      field: 'user',
      value: 'ki',
      boost: 1,
      caseInsensitive: false,
    });
    expect(parseQueryString('user:k?m*y')).toEqual({
      type: 'wildcard',
      field: 'user',
      value: 'k?m*y',
      boost: 1,
      caseInsensitive: false,
    });
    expect(parseQueryString('_exists_:title')).toEqual({ type: 'exists', field: 'title', boost: 1 });
    expect(parseQueryString('title:*')).toEqual({ type: 'exists', field: 'title', boost: 1 });
    expect(parseQueryString('*:*')).toEqual({ type: 'match_all', boost: 1 });
    expect(parseQueryString('*')).toEqual({ type: 'match_all', boost: 1 });
  });

  it('handles fuzziness, escapes and blank queries', () => {
    expect(parseQueryString('title:quikc~1')).toEqual(match('title', 'quikc', { fuzziness: '1' }));
    expect(parseQueryString('title:quikc~')).toEqual(match('title', 'quikc', { fuzziness: 'AUTO' }));
    expect(parseQueryString('a\\:b')).toEqual(all('a:b'));
    expect(parseQueryString('  ')).toEqual({ type: 'match_none' });
  });
});

describe('parseQueryString: syntax errors', () => {
  const EXPECT_CLAUSE =
    'Was expecting one of:\n    <BAREOPER> ...\n    "(" ...\n    "*" ...\n    <QUOTED> ...\n    <TERM> ...\n' +
    '    <PREFIXTERM> ...\n    <WILDTERM> ...\n    <REGEXPTERM> ...\n    "[" ...\n    "{" ...\n    <NUMBER> ...\n    ';

  it('wraps Lucene’s ParseException as Elasticsearch does', () => {
    expect(err(() => parseQueryString('foo:'))).toEqual([
      'query_shard_exception: Failed to parse query [foo:]',
      `parse_exception: Cannot parse 'foo:': Encountered "<EOF>" at line 1, column 4.\n${EXPECT_CLAUSE}`,
      `parse_exception: Encountered "<EOF>" at line 1, column 4.\n${EXPECT_CLAUSE}`,
    ]);
  });

  it('lists what could follow a complete clause', () => {
    const [, cause] = err(() => parseQueryString('a)'));
    expect(cause).toBe(
      `parse_exception: Cannot parse 'a)': Encountered " ")" ") "" at line 1, column 1.\nWas expecting one of:\n` +
        '    <EOF> \n    <AND> ...\n    <OR> ...\n    <NOT> ...\n    "+" ...\n    "-" ...\n    <BAREOPER> ...\n' +
        '    "(" ...\n    "*" ...\n    "^" ...\n    <QUOTED> ...\n    <TERM> ...\n    <FUZZY_SLOP> ...\n' +
        '    <PREFIXTERM> ...\n    <WILDTERM> ...\n    <REGEXPTERM> ...\n    "[" ...\n    "{" ...\n    <NUMBER> ...\n    ',
    );
  });

  it('reports unclosed groups and malformed ranges', () => {
    expect(err(() => parseQueryString('(a'))[2]).toMatch(
      /^parse_exception: Encountered "<EOF>" at line 1, column 2\.\n/,
    );
    expect(err(() => parseQueryString('f:[1 5]'))[2]).toBe(
      'parse_exception: Encountered " <RANGE_GOOP> "5 "" at line 1, column 5.\nWas expecting:\n    "TO" ...\n    ',
    );
    expect(err(() => parseQueryString('AND'))[2]).toMatch(
      /^parse_exception: Encountered " <AND> "AND "" at line 1, column 0\./,
    );
  });

  it('reports lexical errors with their own cause', () => {
    expect(err(() => parseQueryString('"abc'))).toEqual([
      'query_shard_exception: Failed to parse query ["abc]',
      `parse_exception: Cannot parse '"abc': Lexical error at line 1, column 5.  Encountered: <EOF> after : "\\"abc"`,
      'token_mgr_error: Lexical error at line 1, column 5.  Encountered: <EOF> after : "\\"abc"',
    ]);
  });

  it('reports a dangling escape', () => {
    expect(err(() => parseQueryString('a\\u00'))[2]).toBe(
      'parse_exception: Truncated unicode escape sequence.',
    );
  });

  it('reads regular expressions, on one field or on every field a pattern resolves to', () => {
    expect(parseQueryString('title:/ab.*/')).toEqual({
      type: 'regexp',
      field: 'title',
      value: 'ab.*',
      flags: 0xff,
      caseInsensitive: false,
      maxDeterminizedStates: 10000,
      boost: 1,
    });
    expect(parseQueryString('/ab.*/')).toMatchObject({
      type: 'per_field',
      fields: [{ field: '*', boost: 1, indexDefault: true }],
      template: { type: 'regexp', value: 'ab.*' },
      lenient: true,
    });
  });
});
