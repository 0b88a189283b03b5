import { describe, expect, it } from 'vitest';
import { failure, one } from './parse.test-support.ts';
import type { MultiTermsPartial } from './partial.ts';
import { RAW, reduce } from './reduce.test-support.ts';

const shard = (
  buckets: [(string | number)[], number][],
  kinds: MultiTermsPartial['kinds'],
  other = 0,
  error = 0,
): MultiTermsPartial => ({
  t: 'multi_terms',
  kinds,
  formats: kinds.map(() => RAW),
  buckets: buckets.map(([key, docCount]) => ({ key, docCount, presentError: error, aggs: [] })),
  otherDocCount: other,
  docCountError: error,
});

describe('multi_terms parsing', () => {
  it('applies the terms defaults', () => {
    expect(one({ m: { multi_terms: { terms: [{ field: 'a' }, { field: 'b', missing: 'x' }] } } })).toEqual({
      type: 'multi_terms',
      name: 'm',
      aggs: [],
      terms: [{ field: 'a' }, { field: 'b', missing: 'x' }],
      size: 10,
      shardSize: 25,
      minDocCount: 1,
      shardMinDocCount: 0,
      order: [
        { kind: 'count', asc: false },
        { kind: 'key', asc: true },
      ],
      showTermDocCountError: false,
    });
  });

  it('refuses fewer than two sources, bad sizes and unknown source fields', () => {
    expect(failure({ m: { multi_terms: { terms: [{ field: 'a' }] } } })).toMatchObject({
      status: 400,
      type: 'illegal_argument_exception',
      reason:
        'The [terms] parameter in the aggregation [m] must be present and have at least 2 fields or scripts.',
    });
    expect(failure({ m: { multi_terms: {} } }).status).toBe(400);
    expect(
      failure({ m: { multi_terms: { terms: [{ field: 'a' }, { field: 'b' }], size: 0 } } }),
    ).toMatchObject({
      status: 400,
    });
    expect(failure({ m: { multi_terms: { terms: [{ field: 'a' }, { feld: 'b' }] } } })).toMatchObject({
      status: 400,
      type: 'x_content_parse_exception',
    });
    expect(failure({ m: { multi_terms: { terms: [{ field: 'a' }, 'b'] } } }).status).toBe(400);
  });

  it('answers 501 for what Shoal lacks: scripts and min_doc_count 0', () => {
    expect(failure({ m: { multi_terms: { terms: [{ field: 'a' }, { script: 'doc.b' }] } } }).status).toBe(
      501,
    );
    expect(
      failure({ m: { multi_terms: { terms: [{ field: 'a' }, { field: 'b' }], min_doc_count: 0 } } }).status,
    ).toBe(501);
  });
});

describe('multi_terms reduce', () => {
  const aggs = { m: { multi_terms: { terms: [{ field: 'a' }, { field: 'n' }], size: 2 } } };

  it('sums the shards by key, cuts to size and adds the errors', () => {
    const out = reduce(aggs, [
      [
        shard(
          [
            [['x', 1], 3],
            [['y', 1], 2],
          ],
          ['string', 'long'],
          4,
          2,
        ),
      ],
      [
        shard(
          [
            [['y', 1], 2],
            [['z', 2], 2],
          ],
          ['string', 'long'],
          1,
          2,
        ),
      ],
    ]);
    expect(out.m).toEqual({
      doc_count_error_upper_bound: 4,
      sum_other_doc_count: 7,
      buckets: [
        { key: ['y', 1], key_as_string: 'y|1', doc_count: 4 },
        { key: ['x', 1], key_as_string: 'x|1', doc_count: 3 },
      ],
    });
  });

  it('promotes a source that is long on one shard and double on another to double', () => {
    const out = reduce(aggs, [
      [shard([[['x', 1], 1]], ['string', 'long'])],
      [shard([[['x', 1], 1]], ['string', 'double'])],
    ]);
    expect(out.m).toMatchObject({ buckets: [{ key_as_string: 'x|1.0', doc_count: 2 }] });
  });

  it('refuses a source that is text on one shard and a number on another', () => {
    expect(() =>
      reduce(aggs, [
        [shard([[['x', 1], 1]], ['string', 'long'])],
        [shard([[['x', 'a'], 1]], ['string', 'string'])],
      ]),
    ).toThrow(/existed as two different types/);
  });
});
