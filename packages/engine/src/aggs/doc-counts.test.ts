import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggregate, bucketsOf } from './aggs.test-support.ts';

// Elasticsearch's 370_doc_count_field data: pre-aggregated docs stand for _doc_count docs.
const c = corpus(
  { str: { type: 'keyword' }, number: { type: 'integer' } },
  [
    ['1', { _doc_count: 10, str: 'abc', number: 500 }],
    ['2', { _doc_count: 5, str: 'xyz', number: 100 }],
    ['3', { _doc_count: 7, str: 'foo', number: 100 }],
    ['4', { _doc_count: 1, str: 'foo', number: 200 }],
    ['5', { str: 'abc', number: 500 }],
  ],
  3,
);

const counts = (out: ReturnType<typeof aggregate>, name: string) =>
  bucketsOf(out, name).map((b) => [b.key, b.doc_count]);

describe('_doc_count in bucket doc counts', () => {
  it('weights terms on numbers and keywords, and composite', () => {
    expect(counts(aggregate(c, { t: { terms: { field: 'number' } } }), 't')).toEqual([
      [100, 12],
      [500, 11],
      [200, 1],
    ]);
    expect(counts(aggregate(c, { t: { terms: { field: 'str' } } }), 't')).toEqual([
      ['abc', 11],
      ['foo', 8],
      ['xyz', 5],
    ]);
    const composite = aggregate(c, { c: { composite: { sources: [{ s: { terms: { field: 'str' } } }] } } });
    expect(bucketsOf(composite, 'c').map((b) => b.doc_count)).toEqual([11, 8, 5]);
  });

  it('weights filters, histograms and ranges, but not metrics or hits', () => {
    const out = aggregate(c, {
      f: { filters: { filters: { abc: { term: { str: 'abc' } }, foo: { term: { str: 'foo' } } } } },
      h: { histogram: { field: 'number', interval: 200 } },
      r: { range: { field: 'number', ranges: [{ to: 300 }, { from: 300 }] } },
      n: { value_count: { field: 'number' } },
    });
    const f = out.f!.buckets as Record<string, { doc_count: number }>;
    expect([f.abc!.doc_count, f.foo!.doc_count]).toEqual([11, 8]);
    expect(counts(out, 'h')).toEqual([
      [0, 12],
      [200, 1],
      [400, 11],
    ]);
    expect(bucketsOf(out, 'r').map((b) => b.doc_count)).toEqual([13, 11]);
    expect(out.n).toEqual({ value: 5 });
  });

  it('weights significant_terms sizes as its term counts', () => {
    const out = aggregate(c, { s: { significant_terms: { field: 'str', min_doc_count: 1 } } });
    expect([out.s!.doc_count, out.s!.bg_count]).toEqual([24, 24]);
  });
});
