import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { aggregate, bucketsOf } from './aggs.test-support.ts';

const c = corpus(
  { f: { type: 'float' }, d: { type: 'double' } },
  [
    ['1', { f: 0.01, d: 0.01 }],
    ['2', { f: 0.03, d: 0.03 }],
    ['3', { f: 0.04, d: 0.04 }],
    ['4', {}],
  ],
  1,
);

describe('range', () => {
  it('compares float values with bounds reduced to float precision, showing the bounds as given', () => {
    const ranges = [
      { from: 0, to: 0.04 },
      { from: 0.04, to: 1.0 },
    ];
    expect(bucketsOf(aggregate(c, { r: { range: { field: 'f', ranges } } }), 'r')).toEqual([
      { key: '0.0-0.04', from: 0, to: 0.04, doc_count: 2 },
      { key: '0.04-1.0', from: 0.04, to: 1, doc_count: 1 },
    ]);
  });

  it('compares double values with the bounds as given', () => {
    const ranges = [{ to: 0.03 }, { from: 0.03 }];
    expect(bucketsOf(aggregate(c, { r: { range: { field: 'd', ranges } } }), 'r')).toEqual([
      { key: '*-0.03', to: 0.03, doc_count: 1 },
      { key: '0.03-*', from: 0.03, doc_count: 2 },
    ]);
  });

  it('counts a script value once per range, and the missing value for a doc without any', () => {
    const ranges = [{ to: 0.5 }, { from: 0.25 }];
    const script = "doc['d'].size() == 0 ? null : [doc['d'].value * 10, doc['d'].value * 20]";
    expect(bucketsOf(aggregate(c, { r: { range: { script, missing: 0.3, ranges } } }), 'r')).toEqual([
      { key: '*-0.5', to: 0.5, doc_count: 4 },
      { key: '0.25-*', from: 0.25, doc_count: 3 },
    ]);
  });
});
