import { parseQuery, type QueryNode } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { corpus } from './test-corpus.test-support.ts';

// Elasticsearch's 230_interval_query documents, over two segments.
const c = corpus(
  {
    text: { type: 'text', analyzer: 'standard' },
    alt: { type: 'text', analyzer: 'whitespace' },
    tag: { type: 'keyword' },
  },
  [
    ['1', { text: 'Some like it hot, some like it cold', alt: 'Wolf Cold' }],
    ['2', { text: 'Its cold outside, theres no kind of atmosphere' }],
    ['3', { text: 'Baby its cold there outside' }],
    ['4', { text: 'Outside it is cold and wet' }],
    ['5', { text: 'the big bad wolf' }],
    ['6', { text: 'the big wolf' }],
  ],
  3,
);
const q = (rule: Record<string, unknown>): QueryNode => parseQuery({ intervals: { text: rule } });
const count = (rule: Record<string, unknown>) => c.search(q(rule)).totalHits;
const match = (query: string, extra: Record<string, unknown> = {}) => ({ match: { query, ...extra } });
const coldOutside = [match('cold'), match('outside')];

describe('intervals (Elasticsearch 230_interval_query)', () => {
  it('matches ordered, unordered, phrase-like and max_gaps texts', () => {
    expect(count(match('cold outside', { ordered: true }))).toBe(2);
    expect(count(match('cold outside'))).toBe(3);
    expect(count(match('cold outside', { ordered: false }))).toBe(3);
    expect(count(match('cold outside', { ordered: true, max_gaps: 0 }))).toBe(1);
    expect(count(match('cold outside', { max_gaps: 1 }))).toBe(2);
  });

  it('combines rules with all_of and any_of', () => {
    expect(
      count({
        all_of: {
          intervals: [{ any_of: { intervals: coldOutside } }, match('atmosphere')],
          ordered: true,
        },
      }),
    ).toBe(1);
    expect(count({ all_of: { intervals: coldOutside, max_gaps: 0, ordered: true } })).toBe(1);
    expect(count({ all_of: { intervals: coldOutside, ordered: true } })).toBe(2);
    expect(count({ all_of: { intervals: coldOutside, max_gaps: 1, ordered: false } })).toBe(2);
  });

  it('filters by containing, contained_by, overlapping, before and after', () => {
    const allOf = (filter: Record<string, unknown>, ordered = false) => ({
      all_of: { intervals: coldOutside, ordered, filter },
    });
    expect(count(allOf({ containing: match('is') }))).toBe(1);
    expect(count(allOf({ not_containing: match('is') }))).toBe(2);
    const unordered = { all_of: { intervals: coldOutside, ordered: false } };
    expect(count(match('is', { filter: { contained_by: unordered } }))).toBe(1);
    expect(count(match('it', { filter: { not_contained_by: { all_of: { intervals: coldOutside } } } }))).toBe(
      1,
    );
    expect(
      count(
        allOf(
          { not_overlapping: { all_of: { intervals: [match('baby'), match('there')], ordered: false } } },
          true,
        ),
      ),
    ).toBe(1);
    const overlapping = c.ids(
      q(
        match('cold outside', {
          ordered: true,
          filter: { overlapping: match('baby there', { ordered: false }) },
        }),
      ),
    );
    expect(overlapping).toEqual(['3']);
    expect(count(match('cold', { filter: { before: match('outside') } }))).toBe(2);
    expect(c.ids(q(match('cold', { filter: { after: match('outside') } })))).toEqual(['4']);
  });

  it('expands prefix, wildcard, fuzzy, regexp and range rules', () => {
    expect(count({ all_of: { intervals: [match('cold'), { prefix: { prefix: 'out' } }] } })).toBe(3);
    expect(count({ all_of: { intervals: [match('cold'), { wildcard: { pattern: 'out?ide' } }] } })).toBe(3);
    expect(
      count({ all_of: { intervals: [{ fuzzy: { term: 'cald' } }, { prefix: { prefix: 'out' } }] } }),
    ).toBe(3);
    expect(count({ all_of: { intervals: [match('cold'), { regexp: { pattern: 'ou.*ide' } }] } })).toBe(3);
    expect(count({ all_of: { intervals: [match('cold'), { range: { gte: 'out', lte: 'ouu' } }] } })).toBe(3);
  });

  it('pulls disjunctions up out of a phrase, and scores narrower matches higher', () => {
    const rule = {
      all_of: {
        intervals: [match('the'), { any_of: { intervals: [match('big'), match('big bad')] } }, match('wolf')],
        max_gaps: 0,
        ordered: true,
      },
    };
    const r = c.search(q(rule));
    expect(r.totalHits).toBe(2);
    expect(c.ids(q(rule))).toEqual(['6', '5']);
    // One interval of the minimal width scores 1 / (1 + 1); one position wider, (1/2) / (1 + 1/2).
    expect(r.hits[0]!.score).toBeCloseTo(0.5, 6);
    expect(r.hits[1]!.score).toBeCloseTo(1 / 3, 6);
  });

  it('reads another field with use_field, and analyses with the analyzer asked', () => {
    expect(c.ids(q(match('Wolf', { use_field: 'alt' })))).toEqual(['1']);
    expect(c.ids(q(match('wolf', { use_field: 'alt' })))).toEqual([]);
    expect(c.ids(q(match('wolf', { use_field: 'alt', analyzer: 'standard' })))).toEqual([]);
    expect(c.ids(q(match('WOLF', { analyzer: 'standard' }))).sort()).toEqual(['5', '6']);
  });

  it('needs a word given twice to be there twice', () => {
    expect(c.ids(q(match('like like'))).sort()).toEqual(['1']);
    expect(count(match('cold cold'))).toBe(0);
  });

  it('refuses non-text fields', () => {
    expect(() => c.search(parseQuery({ intervals: { tag: { match: { query: 'x' } } } }))).toThrow(
      'Can only use interval queries on text fields - not on [tag] which is of type [keyword]',
    );
    expect(c.search(parseQuery({ intervals: { nothing: { match: { query: 'x' } } } })).totalHits).toBe(0);
  });
});
