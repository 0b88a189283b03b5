import { mergeAggregations, renderAggregations } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggDates } from './agg-dates.ts';
import { aggregate, bucketsOf, partialsOf, specsOf } from './aggs.test-support.ts';

const GOODBAD: [string, Record<string, unknown>][] = [
  ['1', { text: 'good', class: 'good' }],
  ['2', { text: 'good', class: 'good' }],
  ['3', { text: 'bad', class: 'bad' }],
  ['4', { text: 'bad', class: 'bad' }],
  ['5', { text: ['good', 'bad'], class: 'good' }],
  ['6', { text: ['good', 'bad'], class: 'bad' }],
  ['7', { text: 'bad', class: 'bad' }],
];
const MAPPING = { text: { type: 'keyword' }, class: { type: 'keyword' }, n: { type: 'double' } } as const;
const c = corpus(MAPPING, GOODBAD, 3);

describe('significant_terms collector and reduce', () => {
  it('finds each class its own word, scored by JLH against the whole shard', () => {
    const out = aggregate(c, {
      class: { terms: { field: 'class' }, aggs: { sig: { significant_terms: { field: 'text' } } } },
    });
    const sig = bucketsOf(out, 'class').map((b) => [b.key, b.sig as Record<string, unknown>]);
    expect(sig).toEqual([
      [
        'bad',
        {
          doc_count: 4,
          bg_count: 7,
          buckets: [{ key: 'bad', doc_count: 4, score: expect.closeTo(0.4, 12), bg_count: 5 }],
        },
      ],
      [
        'good',
        {
          doc_count: 3,
          bg_count: 7,
          buckets: [{ key: 'good', doc_count: 3, score: expect.closeTo(0.75, 12), bg_count: 4 }],
        },
      ],
    ]);
  });

  it('counts the background among the docs background_filter matches, and honours min_doc_count', () => {
    const out = aggregate(c, {
      sig: {
        significant_terms: {
          field: 'text',
          min_doc_count: 1,
          background_filter: { term: { class: 'good' } },
        },
      },
    });
    expect(out.sig!.bg_count).toBe(3);
    expect(out.sig!.doc_count).toBe(7);
    // Against the good docs, bad (5 of 7 here, 1 of 3 there) stands out.
    expect(bucketsOf(out, 'sig').map((b) => b.key)).toEqual(['bad']);
  });

  it('adds up subset and background counts of shards before scoring', () => {
    const aggs = { sig: { significant_terms: { field: 'text', min_doc_count: 1 } } };
    const specs = specsOf(aggs);
    const half = (i: number) =>
      corpus(
        MAPPING,
        GOODBAD.filter((_, j) => j % 2 === i),
      );
    const shards = [0, 1].map((i) => partialsOf(half(i), specs, { docs: () => null, excluded: () => null }));
    const out = renderAggregations(specs, mergeAggregations(specs, shards), { dates: aggDates }) as Record<
      string,
      Record<string, unknown>
    >;
    // Every doc is in the subset: nothing is more frequent there than in the background.
    expect(out.sig).toEqual({ doc_count: 7, bg_count: 7, buckets: [] });
  });

  it('refuses floating-point fields and regular expressions on non-string fields', () => {
    expect(() => aggregate(c, { s: { significant_terms: { field: 'n' } } })).toThrow(
      'No support for examining floating point numerics',
    );
    expect(() => specsOf({ s: { significant_terms: { field: 'text', jlp: {} } } })).toThrow(
      '[significant_terms] unknown field [jlp] did you mean [jlh]?',
    );
    expect(() =>
      specsOf({ s: { significant_terms: { field: 'text', script_heuristic: { script: 'x' } } } }),
    ).toThrow('script_heuristic');
  });
});
