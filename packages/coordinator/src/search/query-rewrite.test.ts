import { parseQuery } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { findLookups } from './query-rewrite.ts';

describe('findLookups', () => {
  it('finds terms lookups and more_like_this queries with stored items anywhere in a request', () => {
    const lookup = parseQuery({ terms: { user: { index: 'u', id: '1', path: 'f' } } });
    const mlt = parseQuery({ more_like_this: { like: [{ _index: 'i', _id: '1' }] } });
    const request = {
      query: { type: 'bool', must: [lookup], filter: [], should: [], mustNot: [], boost: 1 },
      postFilter: mlt,
      size: 10,
    };
    expect(findLookups(request)).toEqual([lookup, mlt]);
  });

  it('leaves out plain terms queries and more_like_this queries that need no document', () => {
    const request = {
      query: parseQuery({ terms: { user: ['a'] } }),
      postFilter: parseQuery({ more_like_this: { like: ['text', { doc: { a: 1 } }] } }),
    };
    expect(findLookups(request)).toEqual([]);
  });
});
