import { describe, expect, it } from 'vitest';
import { reduce } from './reduce.test-support.ts';

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
