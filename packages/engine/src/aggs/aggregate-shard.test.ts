import { toShoalError } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { readerDocs } from './aggregate-shard.ts';
import { aggregate, bucketsOf } from './aggs.test-support.ts';

const c = corpus(
  {
    title: { type: 'text' },
    tag: { type: 'keyword' },
    n: { type: 'long' },
    loc: { type: 'geo_point' },
    ts: { type: 'date' },
  },
  [
    ['1', { title: 'hello', tag: 'a', n: 1, loc: { lat: 1, lon: 1 }, ts: '2020-01-01' }],
    ['2', { title: 'world', tag: 'b', n: 2 }],
  ],
);

function failure(aggs: Record<string, unknown>) {
  try {
    aggregate(c, aggs);
  } catch (e) {
    const err = toShoalError(e);
    return { status: err.status, type: err.type, reason: err.reason };
  }
  throw new Error('expected a failure');
}

describe('shard errors', () => {
  it('refuses a text field as sorting on it is refused', () => {
    expect(failure({ t: { terms: { field: 'title' } } })).toEqual({
      status: 400,
      type: 'illegal_argument_exception',
      reason:
        'Fielddata is disabled on [title] in [idx]. Text fields are not optimised for operations that require per-document ' +
        'field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field ' +
        'instead. Alternatively, set fielddata=true on [title] in order to load field data by uninverting the inverted index. ' +
        'Note that this can use significant memory.',
    });
    expect(failure({ m: { value_count: { field: 'title' } } }).type).toBe('illegal_argument_exception');
    expect(failure({ t: { terms: { field: '_id' } } }).reason).toContain(
      'Fielddata access on the _id field is disallowed',
    );
  });

  it('refuses field types the aggregation cannot use', () => {
    expect(failure({ a: { avg: { field: 'tag' } } })).toEqual({
      status: 400,
      type: 'illegal_argument_exception',
      reason: 'Field [tag] of type [keyword] is not supported for aggregation [avg]',
    });
    expect(failure({ t: { terms: { field: 'loc' } } }).reason).toBe(
      'Field [loc] of type [geo_point] is not supported for aggregation [terms]',
    );
    expect(failure({ d: { date_histogram: { field: 'tag', calendar_interval: 'day' } } }).reason).toBe(
      'Field [tag] of type [keyword] is not supported for aggregation [date_histogram]',
    );
    expect(failure({ s: { sum: { field: '_index' } } }).reason).toBe(
      'Field [_index] of type [_index] is not supported for aggregation [sum]',
    );
  });

  it('checks order paths against the sub-aggregations', () => {
    expect(failure({ t: { terms: { field: 'tag', order: { nope: 'asc' } } } })).toEqual({
      status: 400,
      type: 'aggregation_execution_exception',
      reason:
        'Invalid aggregation order path [nope]. The provided aggregation [nope] either does not exist, or is a pipeline ' +
        'aggregation and cannot be used to sort the buckets.',
    });
    expect(
      failure({
        t: {
          terms: { field: 'tag', order: { h: 'asc' } },
          aggs: { h: { histogram: { field: 'n', interval: 1 } } },
        },
      }).reason,
    ).toBe(
      'Invalid aggregation order path [h]. Buckets can only be sorted on a sub-aggregator path that is built out of zero or ' +
        'more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end. ' +
        '[h] is not single-bucket.',
    );
    expect(
      failure({ t: { terms: { field: 'tag', order: { s: 'asc' } }, aggs: { s: { stats: { field: 'n' } } } } })
        .reason,
    ).toBe(
      'Invalid aggregation order path [s]. When ordering on a multi-value metrics aggregation a metric name must be specified.',
    );
  });

  it('converts missing values as the field would, and formats numbers with a DecimalFormat pattern', () => {
    expect(failure({ a: { avg: { field: 'n', missing: 'abc' } } })).toEqual({
      status: 400,
      type: 'number_format_exception',
      reason: 'For input string: "abc"',
    });
    const out = aggregate(c, { a: { avg: { field: 'n', format: '0.00' } } });
    expect(out.a).toEqual({
      value: expect.any(Number),
      value_as_string: (out.a!.value as number).toFixed(2),
    });
  });
});

describe('which docs are aggregated', () => {
  it('orders by a metric behind a single-bucket path', () => {
    const out = aggregate(c, {
      t: {
        terms: { field: 'tag', order: { 'f>m': 'desc' } },
        aggs: { f: { filter: { match_all: {} }, aggs: { m: { max: { field: 'n' } } } } },
      },
    });
    expect(bucketsOf(out, 't').map((b) => b.key)).toEqual(['b', 'a']);
  });

  it('skips deleted docs, from the live docs or from a doc list', () => {
    const enc = new TextEncoder();
    const d = corpus({ tag: { type: 'keyword' } }, [
      ['1', { tag: 'a' }],
      ['2', { tag: 'b' }],
      ['3', { tag: 'b' }],
    ]);
    d.engine.write([{ op: 'delete', id: '2' }]);
    d.engine.write([{ op: 'index', id: '4', source: enc.encode('{"tag":"c"}'), create: false }]);
    d.engine.refresh();
    const reader = d.engine.acquireReader();
    const shard = { reader, mapping: d.mapping };
    const counts = (out: Record<string, Record<string, unknown>>) =>
      bucketsOf(out, 't').map((b) => [b.key, b.doc_count]);
    expect(counts(aggregate(shard, { t: { terms: { field: 'tag' } } }))).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 1],
    ]);
    expect(
      counts(aggregate(shard, { t: { terms: { field: 'tag' } } }, readerDocs(reader, [1, 2, 3, 1]))),
    ).toEqual([
      ['b', 1],
      ['c', 1],
    ]);
    reader.release();
  });
});
