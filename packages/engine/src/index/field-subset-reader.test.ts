import type { FieldVisibility } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { executeFetch } from '../search/fetch-phase.ts';
import { countQuery, executeQuery } from '../search/query-phase.ts';
import { corpus, ctx, q } from '../search/test-corpus.test-support.ts';

const docs: [string, Record<string, unknown>][] = [
  ['1', { name: 'ann', secret: 'x', n: 5 }],
  ['2', { name: 'bob', secret: 'y', n: 1 }],
];
const onlyName: FieldVisibility = [[{ include: ['name', 'n'], exclude: [] }]];

describe('field subset reader', () => {
  const c = corpus({ name: { type: 'keyword' }, secret: { type: 'keyword' }, n: { type: 'long' } }, docs);
  const run = (query = q.all(), fieldVisibility?: FieldVisibility) =>
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
      },
      ctx,
    );

  it('makes a query on a hidden field match nothing, and leaves visible fields alone', () => {
    expect(run(q.term('secret', 'x')).totalHits).toBe(1);
    expect(run(q.term('secret', 'x'), onlyName).totalHits).toBe(0);
    expect(run(q.exists('secret'), onlyName).totalHits).toBe(0);
    expect(run(q.term('name', 'ann'), onlyName).totalHits).toBe(1);
    expect(countQuery(c.reader, c.mapping, q.exists('secret'), ctx, undefined, undefined, onlyName)).toBe(0);
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
});
