import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseMgetBody } from './mget-body.ts';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, ...e.metadata };
    throw e;
  }
  throw new Error('expected an error');
}

describe('parseMgetBody', () => {
  it('reads docs and ids', () => {
    expect(parseMgetBody({ ids: ['1', 2] }, 't')).toEqual([
      { index: 't', id: '1' },
      { index: 't', id: '2' },
    ]);
    expect(
      parseMgetBody({ docs: [{ _index: 'u', _id: '1', routing: 'r', _source: ['a'] }] }, undefined),
    ).toEqual([{ index: 'u', id: '1', routing: 'r', source: ['a'] }]);
  });

  it('needs documents', () => {
    expect(err(() => parseMgetBody({}, 't'))).toEqual({
      type: 'action_request_validation_exception',
      reason: 'Validation Failed: 1: no documents to get;',
    });
    expect(err(() => parseMgetBody({ docs: [{ _id: '1' }, {}] }, undefined)).reason).toBe(
      'Validation Failed: 1: index is missing for doc 0;2: index is missing for doc 1;3: id is missing for doc 1;',
    );
  });

  it('refuses unknown keys as MultiGetRequest does', () => {
    expect(err(() => parseMgetBody({ ids: ['1'], foo: ['x'] }, 't'))).toEqual({
      type: 'parsing_exception',
      reason: 'unknown key [foo] for a START_ARRAY, expected [docs] or [ids]',
      line: 1,
      col: 20,
    });
    expect(err(() => parseMgetBody({ foo: 1 }, 't'))).toEqual({
      type: 'parsing_exception',
      reason: 'unexpected token [VALUE_NUMBER], expected [FIELD_NAME] or [START_ARRAY]',
      line: 1,
      col: 8,
    });
    expect(err(() => parseMgetBody({ docs: [{ _id: '1', foo: 'x' }] }, 't'))).toEqual({
      type: 'parse_exception',
      reason: 'failed to parse multi get request. unknown field [foo]',
    });
    expect(err(() => parseMgetBody({ docs: [{ _type: '_doc', _id: '1' }] }, 't')).reason).toBe(
      'failed to parse multi get request. unknown field [_type]',
    );
    expect(err(() => parseMgetBody({ docs: [1] }, 't'))).toEqual({
      type: 'illegal_argument_exception',
      reason: 'docs array element should include an object',
    });
    expect(err(() => parseMgetBody({ ids: [{}] }, 't')).reason).toBe(
      'ids array element should only contain ids',
    );
  });
});
