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

describe('intervals', () => {
  it('parses nested rules with their defaults and filters', () => {
    expect(
      parseQuery({
        intervals: {
          text: {
            all_of: {
              intervals: [{ match: { query: 'a b' } }, { prefix: { prefix: 'x', use_field: 'other' } }],
              ordered: true,
              filter: { not_containing: { match: { query: 'c', max_gaps: 2, ordered: true } } },
            },
            boost: 2,
          },
        },
      }),
    ).toEqual({
      type: 'intervals',
      field: 'text',
      boost: 2,
      rule: {
        kind: 'all_of',
        maxGaps: -1,
        ordered: true,
        intervals: [
          { kind: 'match', query: 'a b', maxGaps: -1, ordered: false },
          { kind: 'prefix', prefix: 'x', useField: 'other' },
        ],
        filter: { kind: 'not_containing', rule: { kind: 'match', query: 'c', maxGaps: 2, ordered: true } },
      },
    });
    expect(parseQuery({ intervals: { t: { fuzzy: { term: 'x' } } } })).toMatchObject({
      rule: { kind: 'fuzzy', term: 'x', fuzziness: 'AUTO', prefixLength: 0, transpositions: true },
    });
  });

  it("reports Elasticsearch's errors", () => {
    expect(err(() => parseQuery({ intervals: { t: {} } })).reason).toBe(
      'Missing intervals from interval query definition',
    );
    expect(
      err(() => parseQuery({ intervals: { t: { match: { query: 'a' }, prefix: { prefix: 'b' } } } })).reason,
    ).toBe('Only one interval rule can be specified, found [match] and [prefix]');
    expect(err(() => parseQuery({ intervals: { t: { near: {} } } })).reason).toBe(
      'Unknown interval type [near], expecting one of [match, any_of, all_of, prefix, wildcard, fuzzy, regexp, range]',
    );
    expect(err(() => parseQuery({ intervals: { t: { match: { query: 'a', slop: 1 } } } })).reason).toContain(
      '[match] unknown field [slop]',
    );
    expect(err(() => parseQuery({ intervals: { t: { match: {} } } })).reason).toBe('Required [query]');
    expect(
      err(() =>
        parseQuery({ intervals: { t: { match: { query: 'a', filter: { script: { source: 'x' } } } } } }),
      ),
    ).toMatchObject({ status: 501 });
  });
});
