import { type FieldVisibility, parseAggregations } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { executeFetch } from './fetch-phase.ts';
import { countQuery, executeQuery } from './query-phase.ts';
import { corpus, ctx, q } from './test-corpus.test-support.ts';

const docs: [string, Record<string, unknown>][] = [
  ['1', { name: 'ann', secret: 'x', n: 5 }],
  ['2', { name: 'bob', secret: 'y', n: 1 }],
];
const onlyName: FieldVisibility = [[{ include: ['name', 'n'], exclude: [] }]];

describe('restricted reader', () => {
  const c = corpus({ name: { type: 'keyword' }, secret: { type: 'keyword' }, n: { type: 'long' } }, docs);
  const run = (query = q.all(), fieldVisibility?: FieldVisibility, extra: Record<string, unknown> = {}) =>
    executeQuery(
      c.reader,
      c.mapping,
      {
        query,
        sort: [{ kind: 'score', order: 'desc' }],
        k: 10,
        trackTotalHitsUpTo: 100,
        trackScores: false,
        shardIndex: 0,
        ...(fieldVisibility ? { fieldVisibility } : {}),
        ...extra,
      },
      ctx,
    );

  it('makes a query on a hidden field match nothing, and leaves visible fields alone', () => {
    expect(run(q.term('secret', 'x')).totalHits).toBe(1);
    expect(run(q.term('secret', 'x'), onlyName).totalHits).toBe(0);
    expect(run(q.exists('secret'), onlyName).totalHits).toBe(0);
    expect(run(q.term('name', 'ann'), onlyName).totalHits).toBe(1);
    expect(
      countQuery(c.reader, c.mapping, q.exists('secret'), ctx, undefined, undefined, {
        fieldVisibility: onlyName,
      }),
    ).toBe(0);
    // The unrestricted reader still sees the field afterwards (caches are kept apart).
    expect(run(q.exists('secret')).totalHits).toBe(2);
  });

  it('fetches _source without the hidden fields', () => {
    const hits = run(q.all(), onlyName).hits.map((h) => h.doc);
    const fetched = executeFetch(c.reader, {
      docs: hits,
      source: { enabled: true, includes: [], excludes: [] },
      version: false,
      seqNoPrimaryTerm: false,
      fieldVisibility: onlyName,
    });
    const text = new TextDecoder().decode(fetched.sourceBytes);
    expect(text).not.toContain('secret');
    expect(text).toContain('"name"');
  });

  it('hides the documents the filter does not match from queries, counts and global aggregations', () => {
    const documentFilter = q.term('secret', 'y');
    expect(run(q.all(), undefined, { documentFilter }).totalHits).toBe(1);
    expect(countQuery(c.reader, c.mapping, q.all(), ctx, undefined, undefined, { documentFilter })).toBe(1);
    // The filter reads fields the request cannot see (document security comes first).
    expect(run(q.all(), onlyName, { documentFilter }).totalHits).toBe(1);
    const aggs = run(q.term('name', 'zzz'), undefined, {
      documentFilter,
      aggs: parseAggregations({ all: { global: {}, aggs: { n: { sum: { field: 'n' } } } } }).aggs,
    });
    expect(aggs.aggregations).toEqual([
      { t: 'single', docCount: 1, aggs: [{ t: 'sum', sum: 1, fmt: { kind: 'raw' } }] },
    ]);
    const unfiltered = run(q.term('name', 'zzz'), undefined, {
      aggs: parseAggregations({ all: { global: {}, aggs: { n: { sum: { field: 'n' } } } } }).aggs,
    });
    expect(JSON.stringify(aggs.aggregations)).not.toBe(JSON.stringify(unfiltered.aggregations));
    expect(run(q.all()).totalHits).toBe(2);
  });
});
