import type { RuntimeMappings } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { executeQuery } from '../search/query-phase.ts';
import { corpus, ctx } from '../search/test-corpus.test-support.ts';
import { sourceValuesAt } from './runtime-values.ts';
import { withRuntimeFields } from './runtime-view.ts';

const docs: [string, Record<string, unknown>][] = [
  ['1', { n: 1, tags: ['a', 'b'], 'obj.x': 5 }],
  ['2', { n: 2, tags: 'c', obj: { x: [6, 'bad'] } }],
  ['3', { n: 3 }],
];

const painless = (source: string) => ({ source, lang: 'painless', params: {} });

function search(runtime: RuntimeMappings, query: object, sort: object[] = []) {
  const c = corpus({ n: { type: 'long' } }, docs, 2);
  return executeQuery(
    c.reader,
    c.mapping,
    {
      query: query as never,
      sort: sort as never,
      k: 10,
      trackTotalHitsUpTo: 10_000,
      trackScores: false,
      shardIndex: 0,
      runtimeMappings: runtime,
    },
    ctx,
  );
}

describe('runtime fields on a shard', () => {
  it('reads _source values at a dotted path, through arrays and dotted keys', () => {
    expect(sourceValuesAt(docs[0]![1], 'obj.x', false)).toEqual([5]);
    expect(sourceValuesAt(docs[1]![1], 'obj.x', false)).toEqual([6, 'bad']);
    expect(sourceValuesAt(docs[0]![1], 'tags', false)).toEqual(['a', 'b']);
    expect(sourceValuesAt({ p: [1, 2] }, 'p', true)).toEqual([[1, 2]]);
  });

  it('computes script values per segment and matches them as indexed values', () => {
    const r = search(
      {
        twice: {
          type: 'long',
          script: painless("emit(doc['n'].value * 2); if (doc['n'].value == 3) { emit(100L) }"),
        },
      },
      { type: 'range', field: 'twice', gte: 4, boost: 1 },
    );
    expect(r.totalHits).toBe(2);
  });

  it('leaves out _source values that do not parse, and shadows a mapped field', () => {
    expect(
      search({ 'obj.x': { type: 'long' } }, { type: 'exists', field: 'obj.x', boost: 1 }).totalHits,
    ).toBe(2);
    const shadow = search(
      { n: { type: 'keyword', script: painless("emit('v' + params._source.n)") } },
      { type: 'term', field: 'n', value: 'v2', boost: 1, caseInsensitive: false },
    );
    expect(shadow.totalHits).toBe(1);
  });

  it('drops the values of a document whose script fails with on_script_error: continue', () => {
    const script = painless(
      "emit(doc['n'].value); if (doc['n'].value == 2) { emit(params.missing.length()) }",
    );
    const lenient = search(
      { v: { type: 'long', script, onScriptError: 'continue' } },
      { type: 'exists', field: 'v', boost: 1 },
    );
    expect(lenient.totalHits).toBe(2);
    expect(() => search({ v: { type: 'long', script } }, { type: 'exists', field: 'v', boost: 1 })).toThrow(
      /runtime error/,
    );
  });

  it('gives back the reader and mapping unchanged when no runtime field is in force', () => {
    const c = corpus({ n: { type: 'long' } }, docs);
    const scope = withRuntimeFields(c.reader, c.mapping, undefined, 'idx');
    expect(scope.reader).toBe(c.reader);
    expect(scope.mapping).toBe(c.mapping);
  });
});
