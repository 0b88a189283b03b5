import { parseQuery } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { describeQuery } from './describe-query.ts';
import { corpus, ctx } from './test-corpus.test-support.ts';

const props = {
  title: { type: 'text' },
  body: { type: 'text' },
  tag: { type: 'keyword' },
  n: { type: 'long' },
} as const;
const c = corpus(props, [['1', { title: 'foo bar', body: 'bar', tag: 'a', n: 1 }]], 1);

const text = (json: unknown, withReader = false) =>
  describeQuery(withReader ? c.reader : null, c.mapping, parseQuery(json), ctx);

describe('describeQuery', () => {
  it('prints queries as Lucene does', () => {
    expect(text({ match_all: {} })).toBe('*:*');
    expect(text({ match: { title: 'Foo BAR' } })).toBe('title:foo title:bar');
    expect(
      text({ bool: { should: [{ match: { title: 'foo' } }], must: [{ match: { body: 'bar' } }] } }),
    ).toBe('+body:bar title:foo');
    expect(
      text({ bool: { filter: [{ term: { tag: 'a' } }], must_not: [{ range: { n: { lt: 5 } } }] } }),
    ).toBe('-n:[-9223372036854775808 TO 4] #tag:a');
    expect(text({ match_phrase: { title: { query: 'foo bar', slop: 1 } } })).toBe('title:"foo bar"~1');
    expect(text({ term: { tag: { value: 'a', boost: 2 } } })).toBe('(tag:a)^2.0');
    expect(text({ multi_match: { query: 'foo', fields: ['title', 'body'], tie_breaker: 0.3 } })).toBe(
      '(title:foo | body:foo)~0.3',
    );
    expect(text({ prefix: { title: 'fo' } })).toBe('title:fo*');
    expect(text({ terms: { n: [2, 1] } })).toBe('n:{1 2}');
    expect(text({ constant_score: { filter: { term: { tag: 'a' } }, boost: 3 } })).toBe(
      '(ConstantScore(tag:a))^3.0',
    );
    expect(text({ bool: { must: [{ range: { n: { gte: 1, boost: 2 } } }] } })).toBe(
      '+(n:[1 TO 9223372036854775807])^2.0',
    );
    expect(text({ bool: { must_not: [{ term: { tag: 'a' } }] } })).toBe('-tag:a #*:*');
  });

  it('rewrites against a shard reader when given one', () => {
    expect(text({ match: { title: { query: 'fop', fuzziness: 1 } } }, true)).toContain('title:foo');
    expect(text({ bool: { must: [{ match: { title: 'foo' } }] } })).toBe('+title:foo');
    expect(text({ bool: { must: [{ match: { title: 'foo' } }] } }, true)).toBe('title:foo');
  });
});
