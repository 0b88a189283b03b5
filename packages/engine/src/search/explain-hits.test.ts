import { describe, expect, it } from 'vitest';
import { explainQuery } from './explain.ts';
import { explainHits } from './explain-hits.ts';
import { corpus, ctx, q } from './test-corpus.test-support.ts';

const docs: [string, Record<string, unknown>][] = [
  ['1', { title: 'quick brown fox', tag: 'a' }],
  ['2', { title: 'quick quick dog', tag: 'b' }],
  ['3', { title: 'lazy dog', tag: 'b' }],
  ['4', { title: 'quick dog days', tag: 'a' }],
];
const props = { title: { type: 'text' }, tag: { type: 'keyword' } } as const;

describe('explainHits', () => {
  // Two segments: the hits' reader-global doc numbers reach into both.
  const c = corpus(props, docs, 2);
  /** The reader-global doc number of a document. */
  const docOf = (id: string) => c.search(q.all()).hits[c.ids(q.all()).indexOf(id)]!.doc;

  it('explains each hit as _explain does, valued at its score, in hit order', () => {
    const query = q.match('title', 'quick dog');
    const result = c.search(query);
    const ids = c.ids(query);
    expect(ids.length).toBe(4);
    const docNumbers = result.hits.map((h) => h.doc);
    const explained = explainHits(c.reader, c.mapping, { query }, docNumbers, ctx);
    expect(explained.length).toBe(4);
    explained.forEach((e, i) => {
      expect(e).toEqual(explainQuery(c.reader, c.mapping, query, ids[i]!, ctx).explanation);
      expect(Math.fround(e.value)).toBe(Math.fround(result.hits[i]!.score));
    });
  });

  it('explains on the documents a document filter lets the query see', () => {
    const query = q.match('title', 'quick');
    const documentFilter = q.term('tag', 'b');
    const [e] = explainHits(c.reader, c.mapping, { query, documentFilter }, [docOf('2')], ctx);
    expect(e).toEqual(
      explainQuery(c.reader, c.mapping, query, '2', ctx, undefined, { documentFilter }).explanation,
    );
    expect(e!.value).toBeGreaterThan(0);
  });

  it('says why a document does not match', () => {
    const query = q.term('tag', 'a');
    const [e] = explainHits(c.reader, c.mapping, { query }, [docOf('3')], ctx);
    const single = explainQuery(c.reader, c.mapping, query, '3', ctx);
    expect(single.matched).toBe(false);
    expect(e).toEqual(single.explanation);
  });
});
