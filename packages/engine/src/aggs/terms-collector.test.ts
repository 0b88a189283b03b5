import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggregate, bucketsOf } from './aggs.test-support.ts';

const c = corpus(
  {
    tag: { type: 'keyword' },
    n: { type: 'long' },
    i: { type: 'integer' },
    d: { type: 'double' },
    ts: { type: 'date' },
    ok: { type: 'boolean' },
    ip: { type: 'ip' },
    price: { type: 'double' },
  },
  [
    [
      '1',
      {
        tag: ['a', 'b'],
        n: '9007199254740993',
        i: [3, 3, 5],
        d: 1.5,
        ts: '2020-01-01',
        ok: true,
        ip: '10.0.0.2',
        price: 10,
      },
    ],
    ['2', { tag: 'a', n: 1, i: 5, d: 1.5, ts: '2020-01-01', ok: false, ip: '10.0.0.10', price: 20 }],
    ['3', { tag: 'c', n: 1, ts: '2020-01-02', ok: true, ip: '::1', price: 30 }],
    ['4', { tag: 'a', price: 40 }],
    ['5', { tag: 'd' }],
  ],
  2,
);

const keysAndCounts = (out: Record<string, Record<string, unknown>>, name: string) =>
  bucketsOf(out, name).map((b) => [b.key, b.doc_count]);

describe('terms', () => {
  it('buckets keyword values by count desc, key asc, with sub-aggregations', () => {
    const out = aggregate(c, { t: { terms: { field: 'tag' }, aggs: { p: { avg: { field: 'price' } } } } });
    expect(out.t).toEqual({
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 0,
      buckets: [
        { key: 'a', doc_count: 3, p: { value: (10 + 20 + 40) / 3 } },
        { key: 'b', doc_count: 1, p: { value: 10 } },
        { key: 'c', doc_count: 1, p: { value: 30 } },
        { key: 'd', doc_count: 1, p: { value: null } },
      ],
    });
  });

  it('keeps the shard top shard_size and reports the rest', () => {
    const out = aggregate(c, { t: { terms: { field: 'tag', size: 1, shard_size: 2 } } });
    expect(out.t).toEqual({
      doc_count_error_upper_bound: 1,
      sum_other_doc_count: 3,
      buckets: [{ key: 'a', doc_count: 3 }],
    });
  });

  it('orders by key or by a sub-aggregation', () => {
    expect(
      keysAndCounts(aggregate(c, { t: { terms: { field: 'tag', order: { _key: 'desc' } } } }), 't'),
    ).toEqual([
      ['d', 1],
      ['c', 1],
      ['b', 1],
      ['a', 3],
    ]);
    const byMax = aggregate(c, {
      t: { terms: { field: 'tag', order: { m: 'desc' } }, aggs: { m: { max: { field: 'price' } } } },
    });
    expect(bucketsOf(byMax, 't').map((b) => b.key)).toEqual(['a', 'c', 'b', 'd']);
    const byStats = aggregate(c, {
      t: { terms: { field: 'tag', order: { 's.min': 'asc' } }, aggs: { s: { stats: { field: 'price' } } } },
    });
    expect(bucketsOf(byStats, 't').map((b) => b.key)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keys numbers, booleans, dates and ips as Elasticsearch does', () => {
    const out = aggregate(c, {
      n: { terms: { field: 'n' } },
      i: { terms: { field: 'i' } },
      d: { terms: { field: 'd' } },
      ts: { terms: { field: 'ts' } },
      ok: { terms: { field: 'ok' } },
      ip: { terms: { field: 'ip', order: { _key: 'asc' } } },
    });
    expect(bucketsOf(out, 'n')).toEqual([
      { key: 1, doc_count: 2 },
      { key: 9007199254740993n, doc_count: 1 },
    ]);
    // A doc counts once per distinct value.
    expect(keysAndCounts(out, 'i')).toEqual([
      [5, 2],
      [3, 1],
    ]);
    expect(keysAndCounts(out, 'd')).toEqual([[1.5, 2]]);
    expect(bucketsOf(out, 'ts')[0]).toEqual({
      key: 1577836800000,
      key_as_string: '2020-01-01T00:00:00.000Z',
      doc_count: 2,
    });
    expect(bucketsOf(out, 'ok')).toEqual([
      { key: 1, key_as_string: 'true', doc_count: 2 },
      { key: 0, key_as_string: 'false', doc_count: 1 },
    ]);
    expect(bucketsOf(out, 'ip').map((b) => b.key)).toEqual(['::1', '10.0.0.2', '10.0.0.10']);
  });

  it('takes missing, include and exclude', () => {
    expect(keysAndCounts(aggregate(c, { t: { terms: { field: 'n', missing: 0 } } }), 't')).toEqual([
      [0, 2],
      [1, 2],
      [9007199254740993n, 1],
    ]);
    expect(
      keysAndCounts(aggregate(c, { t: { terms: { field: 'tag', include: ['a', 'c', 'z'] } } }), 't'),
    ).toEqual([
      ['a', 3],
      ['c', 1],
    ]);
    expect(keysAndCounts(aggregate(c, { t: { terms: { field: 'i', exclude: ['3'] } } }), 't')).toEqual([
      [5, 2],
    ]);
    expect(keysAndCounts(aggregate(c, { t: { terms: { field: 'ip', include: ['::1'] } } }), 't')).toEqual([
      ['::1', 1],
    ]);
  });

  it('shows every term with min_doc_count 0', async () => {
    const { readerDocs } = await import('./aggregate-shard.ts');
    // Only doc 3 (tag c) matches: the other terms come back with no docs.
    const docs = readerDocs(c.reader, [2]);
    const out = aggregate(c, { t: { terms: { field: 'tag', min_doc_count: 0 } } }, docs);
    expect(keysAndCounts(out, 't')).toEqual([
      ['c', 1],
      ['a', 0],
      ['b', 0],
      ['d', 0],
    ]);
  });

  it('reads _index as the index name and unmapped fields as nothing', () => {
    expect(keysAndCounts(aggregate(c, { t: { terms: { field: '_index' } } }), 't')).toEqual([['idx', 5]]);
    expect(aggregate(c, { t: { terms: { field: 'nope' } } }).t).toEqual({
      doc_count_error_upper_bound: 0,
      sum_other_doc_count: 0,
      buckets: [],
    });
    expect(keysAndCounts(aggregate(c, { t: { terms: { field: 'nope', missing: 'N/A' } } }), 't')).toEqual([
      ['N/A', 5],
    ]);
  });
});

describe('terms value_type and regular expressions', () => {
  const typed = corpus(
    { s: { type: 'keyword' }, n: { type: 'long' }, ip: { type: 'ip' }, b: { type: 'boolean' } },
    [
      ['1', { s: 'a', n: 1, ip: '127.0.0.1', b: true }],
      ['2', {}],
    ],
    1,
  );

  it('an unmapped boolean with a missing value prints its key as a boolean', () => {
    const out = aggregate(typed, {
      t: { terms: { field: 'nothing', value_type: 'boolean', missing: true } },
    });
    expect(bucketsOf(out, 't')).toEqual([{ key: 1, key_as_string: 'true', doc_count: 2 }]);
  });

  it('refuses a regular expression on a field that is not a string', () => {
    const fail = (field: string, body: Record<string, unknown>) => {
      try {
        aggregate(typed, { t: { terms: { field, ...body } } });
      } catch (e) {
        return e as { type: string; status: number; reason: string };
      }
      throw new Error('expected a failure');
    };
    const start =
      'Aggregation [t] cannot support regular expression style include/exclude settings as they can only be ' +
      'applied to string fields. ';
    expect(fail('ip', { exclude: '127.*' })).toMatchObject({
      type: 'illegal_argument_exception',
      status: 400,
      reason: `${start}Use an array of values for include/exclude clauses`,
    });
    for (const field of ['n', 'b']) {
      expect(fail(field, { include: '1.*' })).toMatchObject({
        type: 'illegal_argument_exception',
        status: 400,
        reason: `${start}Use an array of numeric values for include/exclude clauses used to filter numeric fields`,
      });
    }
    // An unmapped field has no values to filter.
    expect(bucketsOf(aggregate(typed, { t: { terms: { field: 'nothing', include: 'a.*' } } }), 't')).toEqual(
      [],
    );
  });

  it('matches string terms whole against Lucene regular expressions, include and exclude', () => {
    const words = corpus({ w: { type: 'keyword' } }, [
      ['1', { w: ['apple', 'apricot', 'banana'] }],
      ['2', { w: ['avocado', 'cherry'] }],
      ['3', { w: 'apple' }],
    ]);
    const keys = (body: Record<string, unknown>) =>
      bucketsOf(aggregate(words, { t: { terms: { field: 'w', ...body } } }), 't').map(
        (b) => `${b.key}:${b.doc_count}`,
      );
    expect(keys({ include: 'a.*' })).toEqual(['apple:2', 'apricot:1', 'avocado:1']);
    expect(keys({ include: 'a.*', exclude: 'ap(ple|ricot)' })).toEqual(['avocado:1']);
    // Whole terms only: `pp` alone matches nothing, `.*pp.*` matches apple.
    expect(keys({ include: 'pp' })).toEqual([]);
    expect(keys({ include: '.*pp.*' })).toEqual(['apple:2']);
    expect(keys({ exclude: '[a-b].*' })).toEqual(['cherry:1']);
    const rare = aggregate(words, { r: { rare_terms: { field: 'w', include: 'a.*' } } });
    expect(bucketsOf(rare, 'r').map((b) => b.key)).toEqual(['apricot', 'avocado']);
  });
});
