import { describe, expect, it } from 'vitest';
import { failure, one } from './parse.test-support.ts';
import type { RareTermsPartial } from './partial.ts';
import { RAW, reduce } from './reduce.test-support.ts';

const shard = (buckets: [string, number][], frequent: string[] = []): RareTermsPartial => ({
  t: 'rare_terms',
  kind: 'string',
  buckets: buckets.map(([key, docCount]) => ({ key, docCount, presentError: 0, aggs: [] })),
  frequent,
  fmt: RAW,
});

describe('rare_terms parsing', () => {
  it('defaults max_doc_count to 1 and keeps exact include/exclude values', () => {
    expect(one({ r: { rare_terms: { field: 'f', include: ['a', 1], precision: 0.01 } } })).toEqual({
      type: 'rare_terms',
      name: 'r',
      aggs: [],
      source: { field: 'f' },
      maxDocCount: 1,
      include: ['a', '1'],
    });
  });

  it("refuses max_doc_count outside 1 to 100 and a too fine precision, with Elasticsearch's texts", () => {
    expect(failure({ r: { rare_terms: { field: 'f', max_doc_count: 101 } } })).toMatchObject({
      status: 400,
      type: 'x_content_parse_exception',
      cause: { type: 'illegal_argument_exception', reason: '[max_doc_count] must be smallerthan 100in [r]' },
    });
    expect(failure({ r: { rare_terms: { field: 'f', max_doc_count: -1 } } }).cause).toEqual({
      type: 'illegal_argument_exception',
      reason: '[max_doc_count] must be greater than 0. Found [-1] in [r]',
    });
    expect(failure({ r: { rare_terms: { field: 'f', precision: 0 } } }).cause?.reason).toBe(
      '[precision] must be greater than 0.00001',
    );
    expect(failure({ r: { rare_terms: { field: 'f', size: 1 } } }).status).toBe(400);
    expect(failure({ r: { rare_terms: {} } }).status).toBe(400);
  });
});

describe('rare_terms reduce', () => {
  it('sums by key, drops keys another shard saw often or whose sum passes the bound, orders by count then key', () => {
    const out = reduce({ r: { rare_terms: { field: 'f', max_doc_count: 2 } } }, [
      [
        shard(
          [
            ['b', 1],
            ['c', 1],
            ['x', 2],
          ],
          ['often'],
        ),
      ],
      [
        shard([
          ['a', 2],
          ['often', 1],
          ['x', 1],
          ['c', 1],
        ]),
      ],
    ]);
    expect(out.r).toEqual({
      buckets: [
        { key: 'b', doc_count: 1 },
        { key: 'a', doc_count: 2 },
        { key: 'c', doc_count: 2 },
      ],
    });
  });

  it('answers no buckets when no shard mapped the field', () => {
    const unmapped = { ...shard([]), unmapped: true };
    expect(reduce({ r: { rare_terms: { field: 'f' } } }, [[unmapped], [unmapped]]).r).toEqual({
      buckets: [],
    });
  });
});
