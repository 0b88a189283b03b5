import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseQuery } from './parse-query.ts';
import { extractRawValues, type TermsLookupQuery, termsFromLookup } from './terms-lookup.ts';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, status: e.status };
    throw e;
  }
  throw new Error('expected an error');
}

describe('terms lookup', () => {
  it('parses the lookup object, with routing and boost', () => {
    expect(
      parseQuery({ terms: { user: { index: 'u', id: '1', path: 'f', routing: 'r' }, boost: 2, _name: 'n' } }),
    ).toEqual({
      type: 'terms_lookup',
      field: 'user',
      lookup: { index: 'u', id: '1', path: 'f', routing: 'r' },
      boost: 2,
      queryName: 'n',
    });
  });

  it('refuses a lookup missing its parts, with unknown keys or non-string values', () => {
    expect(err(() => parseQuery({ terms: { user: { path: 'f' } } }))).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Required [index, id]',
    });
    expect(
      err(() => parseQuery({ terms: { user: { index: 'u', id: '1', path: 'f', type: 't' } } })).reason,
    ).toContain('[terms_lookup] unknown field [type]');
    expect(err(() => parseQuery({ terms: { user: { index: 'u', id: 1, path: 'f' } } })).reason).toContain(
      "[terms_lookup] id doesn't support values of type: VALUE_NUMBER",
    );
  });

  it('extracts values through arrays and dotted keys, and builds the terms query', () => {
    const src = { a: [{ b: 1 }, { b: [2, 3] }, { c: 4 }], 'x.y': 'dotted', n: null };
    expect(extractRawValues(src, 'a.b')).toEqual([1, 2, 3]);
    expect(extractRawValues(src, 'x.y')).toEqual(['dotted']);
    expect(extractRawValues(src, 'n')).toEqual([]);
    const node = { type: 'terms_lookup', field: 'f', lookup: { index: 'i', id: '1', path: 'a' }, boost: 3 };
    expect(termsFromLookup(node as TermsLookupQuery, ['x', 1, { o: 1 }])).toEqual({
      type: 'terms',
      field: 'f',
      values: ['x', 1],
      boost: 3,
    });
  });
});
