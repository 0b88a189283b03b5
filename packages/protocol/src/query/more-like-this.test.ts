import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseQuery } from './parse-query.ts';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, status: e.status };
    throw e;
  }
  throw new Error('expected an error');
}

describe('more_like_this', () => {
  it('reads texts and items, with the defaults of MoreLikeThisQueryBuilder', () => {
    expect(
      parseQuery({
        more_like_this: { like: ['some text', { _index: 'i', _id: '1' }, { doc: { a: 1 } }], fields: ['a'] },
      }),
    ).toEqual({
      type: 'more_like_this',
      fields: ['a'],
      likeTexts: ['some text'],
      likeItems: [{ index: 'i', id: '1' }, { doc: { a: 1 } }],
      unlikeTexts: [],
      unlikeItems: [],
      maxQueryTerms: 25,
      minTermFreq: 2,
      minDocFreq: 5,
      maxDocFreq: 2147483647,
      minWordLength: 0,
      maxWordLength: 0,
      stopWords: [],
      minimumShouldMatch: '30%',
      boostTerms: 0,
      include: false,
      failOnUnsupportedField: true,
      boost: 1,
    });
    expect(parseQuery({ more_like_this: { like: 'x', unlike: 'y', stop_words: ['a'] } })).toMatchObject({
      likeTexts: ['x'],
      unlikeTexts: ['y'],
      stopWords: ['a'],
    });
  });

  it("reports Elasticsearch's errors", () => {
    expect(err(() => parseQuery({ more_like_this: { fields: ['a'] } })).reason).toBe(
      "more_like_this requires 'like' to be specified",
    );
    expect(err(() => parseQuery({ more_like_this: { like: 'x', fields: [] } })).reason).toBe(
      "more_like_this requires 'fields' to be non-empty",
    );
    expect(err(() => parseQuery({ more_like_this: { like: 'x', colour: 1 } })).reason).toBe(
      '[mlt] query does not support [colour]',
    );
    expect(err(() => parseQuery({ more_like_this: { like: { _index: 'i' } } }))).toMatchObject({
      type: 'parse_exception',
      reason: 'failed to parse More Like This item. neither [id] nor [doc] is specified!',
    });
    expect(err(() => parseQuery({ more_like_this: { like: { _id: '1', colour: 1 } } })).reason).toBe(
      'failed to parse More Like This item. unknown field [colour]',
    );
  });
});
