import { describe, expect, it } from 'vitest';
import { adjacencyCellKey, adjacencyCells, adjacencyRowStart } from './adjacency-matrix.ts';
import { parseAggregations } from './parse-aggs.ts';
import { reduce } from './reduce.test-support.ts';
import type { AdjacencyMatrixSpec } from './spec.ts';

const AGGS = {
  ipr: { ip_range: { field: 'ip', ranges: [{ to: '10.0.0.0' }] } },
  ipp: { ip_prefix: { field: 'ip', prefix_length: 8 } },
  s: { sampler: {}, aggs: { n: { value_count: { field: 'x' } } } },
  ds: { diversified_sampler: { field: 'x' } },
  am: { adjacency_matrix: { filters: { a: { match_all: {} }, b: { match_all: {} } } } },
  adh: { auto_date_histogram: { field: 'd' } },
  vwh: { variable_width_histogram: { field: 'n' } },
  st: { significant_terms: { field: 'k' } },
  stx: { significant_text: { field: 't' } },
};

describe('bucket aggregation variants without shards', () => {
  it('answer their empty forms', () => {
    expect(reduce(AGGS, [])).toEqual({
      ipr: { buckets: [] },
      ipp: { buckets: [] },
      s: { doc_count: 0, n: { value: 0 } },
      ds: { doc_count: 0 },
      am: { buckets: [] },
      adh: { buckets: [], interval: '1s' },
      vwh: { buckets: [] },
      st: { buckets: [] },
      stx: { buckets: [] },
    });
  });
});

describe('adjacency_matrix cells', () => {
  it('name each filter, then each pair row by row', () => {
    const spec = parseAggregations({
      m: {
        adjacency_matrix: {
          separator: '+',
          filters: Object.fromEntries('edcba'.split('').map((k) => [k, { match_all: {} }])),
        },
      },
    }).aggs[0] as AdjacencyMatrixSpec;
    const n = 5;
    expect(adjacencyCells(n)).toBe(15);
    const keys = Array.from({ length: 15 }, (_, c) => adjacencyCellKey(spec, c));
    expect(keys).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'a+b',
      'a+c',
      'a+d',
      'a+e',
      'b+c',
      'b+d',
      'b+e',
      'c+d',
      'c+e',
      'd+e',
    ]);
    expect(adjacencyRowStart(n, 2) + (4 - 2 - 1)).toBe(keys.indexOf('c+e'));
  });
});
