import { type MoreLikeThisQuery, parseQuery } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { corpus } from './test-corpus.test-support.ts';

const c = corpus(
  { body: { type: 'text' }, title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'integer' } },
  [
    ['1', { body: 'apple banana cherry', title: 'fruit salad', tag: 'food' }],
    ['2', { body: 'apple banana', title: 'fruit', tag: 'food' }],
    ['3', { body: 'apple', title: 'tree', tag: 'plant' }],
    ['4', { body: 'cherry cherry blossom', title: 'tree flowers', tag: 'plant' }],
    ['5', { body: 'granite basalt', title: 'rocks', tag: 'stone' }],
  ],
  2,
);
const mlt = (body: Record<string, unknown>) => parseQuery({ more_like_this: body }) as MoreLikeThisQuery;
const ids = (body: Record<string, unknown>) => c.ids(mlt(body)).sort();

describe('more_like_this', () => {
  it('keeps the words frequent enough in the like text and in the shard', () => {
    // With the defaults (min_term_freq 2, min_doc_freq 5) no word of a short text survives.
    expect(ids({ like: 'apple banana', fields: ['body'] })).toEqual([]);
    expect(ids({ like: 'apple banana', fields: ['body'], min_term_freq: 1, min_doc_freq: 1 })).toEqual([
      '1',
      '2',
      '3',
    ]);
    // 30% of 2 clauses rounds down to none required; 100% asks for both.
    expect(
      ids({
        like: 'apple banana',
        fields: ['body'],
        min_term_freq: 1,
        min_doc_freq: 1,
        minimum_should_match: '100%',
      }),
    ).toEqual(['1', '2']);
    expect(ids({ like: 'apple banana', fields: ['body'], min_term_freq: 1, min_doc_freq: 3 })).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(
      ids({ like: 'apple banana', fields: ['body'], min_term_freq: 1, min_doc_freq: 1, max_doc_freq: 2 }),
    ).toEqual(['1', '2']);
  });

  it('selects the best max_query_terms words by tf × idf', () => {
    // "cherry" twice outranks "apple" (tf 1, more common): one term left, it is cherry.
    const r = ids({
      like: 'apple cherry cherry',
      fields: ['body'],
      min_term_freq: 1,
      min_doc_freq: 1,
      max_query_terms: 1,
    });
    expect(r).toEqual(['1', '4']);
  });

  it('reads like documents field by field, leaves them out unless include, and removes unlike terms', () => {
    const doc = { _index: 'idx', doc: { body: 'cherry blossom', tag: 'plant' } };
    expect(ids({ like: [doc], min_term_freq: 1, min_doc_freq: 1 })).toEqual(['1', '3', '4']);
    const withId = mlt({ like: [{ _index: 'idx', _id: '4' }], min_term_freq: 1, min_doc_freq: 1 });
    // The coordinator fills in a stored item's source.
    withId.likeItems[0] = { ...withId.likeItems[0]!, doc: { body: 'cherry cherry blossom' }, fetched: true };
    expect(c.ids(withId).sort()).toEqual(['1']);
    withId.include = true;
    expect(c.ids(withId).sort()).toEqual(['1', '4']);
    expect(
      ids({ like: 'apple banana', unlike: 'banana', fields: ['body'], min_term_freq: 1, min_doc_freq: 1 }),
    ).toEqual(['1', '2', '3']);
    expect(
      ids({
        like: 'apple banana',
        unlike: 'apple',
        fields: ['body'],
        min_term_freq: 1,
        min_doc_freq: 1,
        minimum_should_match: '100%',
      }),
    ).toEqual(['1', '2']);
  });

  it('refuses fields other than text and keyword unless told not to fail', () => {
    expect(() => c.search(mlt({ like: 'x', fields: ['n'] }))).toThrow(
      'more_like_this only supports text/keyword fields: [n]',
    );
    expect(ids({ like: '1', fields: ['n'], fail_on_unsupported_field: false })).toEqual([]);
  });
});
