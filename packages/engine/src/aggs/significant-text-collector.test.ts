import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggregate, bucketsOf } from './aggs.test-support.ts';

const c = corpus(
  { text: { type: 'text' }, class: { type: 'keyword' }, ugly: { type: 'boolean' }, n: { type: 'long' } },
  [
    ['1', { text: 'good', class: 'good', ugly: true }],
    ['2', { text: 'Good', class: 'good', ugly: true }],
    ['3', { text: 'bad', class: 'bad' }],
    ['4', { text: 'bad', class: 'bad' }],
    ['5', { text: 'good bad', class: 'good' }],
    ['6', { text: 'good bad bad', class: 'bad' }],
    ['7', { text: 'bad', class: 'bad' }],
  ],
  3,
);

/** Per class bucket, the significant keys found with `options`. */
function significant(options: Record<string, unknown> = {}) {
  const out = aggregate(c, {
    class: { terms: { field: 'class' }, aggs: { sig: { significant_text: { field: 'text', ...options } } } },
  });
  return bucketsOf(out, 'class').map((b) => [
    b.key,
    ((b.sig as Record<string, unknown>).buckets as Record<string, unknown>[]).map((s) => s.key),
  ]);
}

describe('significant_text collector', () => {
  it('analyses the source text and finds what sets each class apart', () => {
    expect(significant()).toEqual([
      ['bad', ['bad']],
      ['good', ['good']],
    ]);
    const out = aggregate(c, { sig: { significant_text: { field: 'text', min_doc_count: 1 } } });
    expect(out.sig).toEqual({ doc_count: 7, bg_count: 7, buckets: [] });
  });

  it('filters tokens with include and exclude, values and regular expressions', () => {
    expect(significant({ include: 'ba.*' })).toEqual([
      ['bad', ['bad']],
      ['good', []],
    ]);
    expect(significant({ exclude: ['good'] })).toEqual([
      ['bad', ['bad']],
      ['good', []],
    ]);
    expect(significant({ min_doc_count: 4 })).toEqual([
      ['bad', ['bad']],
      ['good', []],
    ]);
  });

  it('takes background frequencies among the docs background_filter matches', () => {
    expect(significant({ background_filter: { term: { ugly: true } } })).toEqual([
      ['bad', ['bad']],
      ['good', []],
    ]);
  });

  it('refuses fields that hold no text and duplicate-text filtering', () => {
    expect(() => aggregate(c, { s: { significant_text: { field: 'n' } } })).toThrow(
      'Field [n] of type [long] is not supported for aggregation [significant_text]',
    );
    expect(() =>
      aggregate(c, { s: { significant_text: { field: 'text', filter_duplicate_text: true } } }),
    ).toThrow('filter_duplicate_text');
  });
});
