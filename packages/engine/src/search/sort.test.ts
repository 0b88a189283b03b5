import type { SortSpec } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { parseSearchAfter } from './search-after.ts';
import { corpus, q, sortBy } from './test-corpus.test-support.ts';

const c = corpus(
  {
    title: { type: 'text' },
    tag: { type: 'keyword' },
    n: { type: 'integer' },
    big: { type: 'long' },
    d: { type: 'double' },
    f: { type: 'float' },
    ok: { type: 'boolean' },
    at: { type: 'date', format: 'yyyy-MM-dd HH:mm:ss.SSS||strict_date_optional_time||epoch_millis' },
    ns: { type: 'date_nanos' },
    ip: { type: 'ip' },
  },
  [
    [
      'a',
      {
        tag: 'b',
        n: [5, 1],
        big: '9007199254740993',
        d: 2.5,
        f: 0.1,
        ok: true,
        at: '2019-10-21T08:30:04.828Z',
        ns: '2019-10-21T08:30:04.828733Z',
        ip: '10.0.0.2',
      },
    ],
    ['b', { tag: 'a', n: 3, big: -4, d: -1, f: 2.5, ok: false, at: '2020-01-01T00:00:00Z', ip: '9.255.0.1' }],
    ['c', { tag: ['c', 'a'], n: [2, 4, 9], d: 7 }],
    ['d', { title: 'x' }],
    ['e', { tag: 'b', n: 3 }],
  ],
  2,
);
const sorted = (sort: SortSpec[], extra = {}) => c.search(q.all(), { sort, ...extra });
const idsBy = (sort: SortSpec[], extra = {}) => c.ids(q.all(), { sort, ...extra });
const valuesBy = (sort: SortSpec[]) => sorted(sort).hits.map((h) => h.sort);

describe('field sorts', () => {
  it('sorts numbers with Long.MAX/MIN for missing values', () => {
    expect(idsBy([sortBy.field('n')])).toEqual(['a', 'c', 'b', 'e', 'd']);
    expect(valuesBy([sortBy.field('n')]).map((v) => v[0])).toEqual([1, 2, 3, 3, 9223372036854775807n]);
    expect(idsBy([sortBy.field('n', 'desc')])).toEqual(['c', 'a', 'b', 'e', 'd']);
    expect(valuesBy([sortBy.field('n', 'desc')]).map((v) => v[0])).toEqual([
      9,
      5,
      3,
      3,
      -9223372036854775808n,
    ]);
    expect(idsBy([sortBy.field('n', 'asc', { missing: '_first' })])[0]).toBe('d');
    expect(valuesBy([sortBy.field('n', 'asc', { missing: '_first' })])[0]).toEqual([-9223372036854775808n]);
    expect(idsBy([sortBy.field('n', 'asc', { missing: 2 })])).toEqual(['a', 'c', 'd', 'b', 'e']);
  });

  it('keeps longs exact as bigint and doubles as numbers, floats printed as floats', () => {
    expect(valuesBy([sortBy.field('big', 'desc')]).map((v) => v[0])).toEqual([
      9007199254740993n,
      -4n,
      -9223372036854775808n,
      -9223372036854775808n,
      -9223372036854775808n,
    ]);
    expect(valuesBy([sortBy.field('d')]).map((v) => v[0])).toEqual([-1, 2.5, 7, Infinity, Infinity]);
    expect(
      valuesBy([sortBy.field('d', 'desc')])
        .map((v) => v[0])
        .slice(3),
    ).toEqual([-Infinity, -Infinity]);
    expect(
      valuesBy([sortBy.field('f')])
        .map((v) => v[0])
        .slice(0, 2),
    ).toEqual([0.1, 2.5]);
  });

  it('sorts keywords with null for missing, last or first in both directions', () => {
    expect(idsBy([sortBy.field('tag'), sortBy.doc()])).toEqual(['b', 'c', 'a', 'e', 'd']);
    expect(valuesBy([sortBy.field('tag')]).map((v) => v[0])).toEqual(['a', 'a', 'b', 'b', null]);
    expect(idsBy([sortBy.field('tag', 'desc')])).toEqual(['c', 'a', 'e', 'b', 'd']);
    expect(idsBy([sortBy.field('tag', 'desc', { missing: '_first' })])[0]).toBe('d');
    expect(idsBy([sortBy.field('tag', 'asc', { missing: 'aa' })])).toEqual(['b', 'c', 'd', 'a', 'e']);
  });

  it('applies the multi-value mode', () => {
    const by = (mode: string, order: 'asc' | 'desc' = 'asc') =>
      valuesBy([sortBy.field('n', order, { mode })]).map((v) => v[0]);
    expect(by('max')).toEqual([3, 3, 5, 9, 9223372036854775807n]);
    expect(by('sum')).toEqual([3, 3, 6, 15, 9223372036854775807n]);
    expect(by('avg')).toEqual([3, 3, 3, 5, 9223372036854775807n]);
    expect(by('median')).toEqual([3, 3, 3, 4, 9223372036854775807n]);
    expect(valuesBy([sortBy.field('tag', 'asc', { mode: 'max' })]).map((v) => v[0])).toEqual([
      'a',
      'b',
      'b',
      'c',
      null,
    ]);
  });

  it('converts with numeric_type and formats dates', () => {
    const nanos = valuesBy([sortBy.field('at', 'asc', { numericType: 'date_nanos' })]);
    expect(nanos[0]).toEqual([1571646604828000000n]);
    expect(nanos[2]).toEqual([9223372036854775807n]);
    expect(valuesBy([sortBy.field('ns', 'asc', { numericType: 'date' })])[0]).toEqual([1571646604828]);
    expect(valuesBy([sortBy.field('ns')])[0]).toEqual([1571646604828733000n]);
    expect(valuesBy([sortBy.field('at')])[0]).toEqual([1571646604828]);
    const formatted = sorted([sortBy.field('at', 'asc', { format: 'strict_date_optional_time' })]);
    expect(formatted.hits[0]!.display).toEqual(['2019-10-21T08:30:04.828Z']);
    expect(formatted.hits[0]!.sort).toEqual([1571646604828]);
    expect(valuesBy([sortBy.field('n', 'asc', { numericType: 'double' })])[0]).toEqual([1]);
    expect(
      valuesBy([sortBy.field('d', 'asc', { numericType: 'long' })])
        .map((v) => v[0])
        .slice(0, 3),
    ).toEqual([-1n, 2n, 7n]);
  });

  it('displays booleans and ips, sorting ips numerically', () => {
    const b = sorted([sortBy.field('ok')]);
    expect(b.hits.map((h) => h.display?.[0])).toEqual([false, true, true, true, true]);
    const ips = sorted([sortBy.field('ip')]);
    expect(ips.hits.slice(0, 2).map((h) => h.display?.[0])).toEqual(['9.255.0.1', '10.0.0.2']);
    expect(ips.hits[2]!.display).toEqual([null]);
  });

  it('treats unmapped fields with unmapped_type as missing everywhere', () => {
    expect(
      valuesBy([sortBy.field('nope', 'asc', { unmappedType: 'long' }), sortBy.doc()]).map((v) => v[0]),
    ).toEqual(new Array(5).fill(9223372036854775807n));
    expect(idsBy([sortBy.field('nope', 'asc', { unmappedType: 'keyword' })])).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
  });

  it('raises Elasticsearch errors #38–#41', () => {
    expect(() => sorted([sortBy.field('title')])).toThrow(
      'Fielddata is disabled on [title] in [idx]. Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [title] in order to load field data by uninverting the inverted index. Note that this can use significant memory.',
    );
    try {
      sorted([sortBy.field('nope')]);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({
        type: 'query_shard_exception',
        reason: 'No mapping found for [nope] in order to sort on',
        metadata: { index_uuid: 'uuid', index: 'idx' },
      });
    }
    expect(() => sorted([sortBy.field('tag', 'asc', { mode: 'avg' })])).toThrow(
      'we only support AVG, MEDIAN and SUM on number based fields',
    );
    expect(() => sorted([sortBy.field('tag', 'asc', { numericType: 'long' })])).toThrow(
      '[numeric_type] option cannot be set on a non-numeric field, got keyword',
    );
  });
});

describe('score, _doc and _shard_doc sorts', () => {
  it('orders ties by doc id and supports _score ascending', () => {
    const r = c.search(q.match('tag', 'b'), { sort: [sortBy.score('asc'), sortBy.doc()] });
    expect(r.hits.map((h) => h.doc)).toEqual([0, 4]);
    expect(typeof r.hits[0]!.sort[0]).toBe('number');
  });

  it('_doc and _shard_doc values', () => {
    expect(valuesBy([sortBy.doc('desc')]).map((v) => v[0])).toEqual([4, 3, 2, 1, 0]);
    const r = c.search(q.all(), { sort: [sortBy.shardDoc()], shardIndex: 1 });
    expect(r.hits[2]!.sort).toEqual([4294967298n]);
    expect(r.maxScore).toBeNaN();
    expect(r.hits[0]!.score).toBeNaN();
    const tracked = c.search(q.all(), { sort: [sortBy.shardDoc()], trackScores: true });
    expect(tracked.hits[0]!.score).toBe(1);
  });
});

describe('search_after', () => {
  it('starts strictly after the values, ties skipped without a tiebreaker', () => {
    expect(idsBy([sortBy.field('n')], { searchAfter: [2] })).toEqual(['b', 'e', 'd']);
    expect(idsBy([sortBy.field('n')], { searchAfter: [3] })).toEqual(['d']);
    expect(idsBy([sortBy.field('n'), sortBy.shardDoc()], { searchAfter: [3, 1n] })).toEqual(['e', 'd']);
    expect(idsBy([sortBy.field('n', 'desc'), sortBy.doc()], { searchAfter: [9, 2] })).toEqual([
      'a',
      'b',
      'e',
      'd',
    ]);
    expect(idsBy([sortBy.field('n')], { searchAfter: ['9223372036854775807'] })).toEqual([]);
    expect(idsBy([sortBy.field('tag', 'desc')], { searchAfter: ['b'] })).toEqual(['b', 'd']);
    expect(idsBy([sortBy.field('tag'), sortBy.doc()], { searchAfter: [null, 2] })).toEqual(['d']);
    expect(idsBy([sortBy.doc()], { searchAfter: [2] })).toEqual(['d', 'e']);
    expect(idsBy([sortBy.doc('desc')], { searchAfter: [2] })).toEqual(['b', 'a']);
    expect(idsBy([sortBy.shardDoc()], { searchAfter: [3n], shardIndex: 0 })).toEqual(['e']);
    expect(idsBy([sortBy.shardDoc()], { searchAfter: [4294967296n], shardIndex: 0 })).toEqual([]);
    expect(idsBy([sortBy.shardDoc()], { searchAfter: [4294967296n], shardIndex: 2 })).toHaveLength(5);
    expect(idsBy([sortBy.field('at')], { searchAfter: ['2019-10-21 08:30:04.828'] })).toEqual([
      'b',
      'c',
      'd',
      'e',
    ]);
    expect(
      idsBy([sortBy.field('at', 'asc', { format: 'strict_date_optional_time' })], {
        searchAfter: ['2019-10-21T08:30:04.828Z'],
      }),
    ).toHaveLength(4);
    expect(idsBy([sortBy.field('ns')], { searchAfter: [1571646604828733000n] })).toHaveLength(4);
    expect(idsBy([sortBy.field('ip')], { searchAfter: ['9.255.0.1'] })).toEqual(['a', 'c', 'd', 'e']);
  });

  it('converts JSON values and reports Elasticsearch errors #16–#18', () => {
    expect(parseSearchAfter([1.9, 'x'], [sortBy.field('big'), sortBy.field('tag')], c.mapping)).toEqual([
      1n,
      'x',
    ]);
    expect(parseSearchAfter(['1.5'], [sortBy.field('d')], c.mapping)).toEqual([1.5]);
    expect(parseSearchAfter([true], [sortBy.field('ok')], c.mapping)).toEqual([1]);
    expect(() => parseSearchAfter([1], [sortBy.field('n'), sortBy.doc()], c.mapping)).toThrow(
      'search_after has 1 value(s) but sort has 2.',
    );
    expect(() => parseSearchAfter([1], [sortBy.score()], c.mapping)).toThrow(
      'Sort must contain at least one field.',
    );
    expect(() => parseSearchAfter(['abc'], [sortBy.field('n')], c.mapping)).toThrow(
      'Failed to parse search_after value for field [n].',
    );
    expect(() =>
      parseSearchAfter(['2019-10-21'], [sortBy.field('at', 'asc', { format: 'epoch_millis' })], c.mapping),
    ).toThrow(/failed to parse date field/);
  });
});
