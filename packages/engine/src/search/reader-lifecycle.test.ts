import { describe, expect, it } from 'vitest';
import type { ShardQueryRequest } from '../contract.ts';
import type { ShardReader } from '../index/shard-reader.ts';
import { countQuery, executeQuery } from './query-phase.ts';
import { corpus, ctx, q, sortBy } from './test-corpus.test-support.ts';

const enc = new TextEncoder();
const docs: [string, Record<string, unknown>][] = Array.from({ length: 30 }, (_, i) => [
  `d${i}`,
  { title: i % 3 === 0 ? 'red fox' : 'blue whale', n: (i * 7) % 11, tag: `t${i % 4}` },
]);
const props = {
  title: { type: 'text' as const },
  n: { type: 'integer' as const },
  tag: { type: 'keyword' as const },
};

function idsOn(reader: ShardReader, c: ReturnType<typeof corpus>, req: ShardQueryRequest): string[] {
  return executeQuery(reader, c.mapping, req, ctx).hits.map((h) => {
    for (const s of reader.segments) {
      if (h.doc >= s.docBase && h.doc < s.docBase + s.segment.maxDoc)
        return s.segment.stored.ids[h.doc - s.docBase]!;
    }
    throw new Error('doc outside reader');
  });
}

describe('readers across deletes, updates and merges', () => {
  it('a held reader keeps answering as of its snapshot', () => {
    const c = corpus(props, docs, 7);
    const req: ShardQueryRequest = {
      query: q.match('title', 'fox'),
      sort: [sortBy.field('n'), sortBy.shardDoc()],
      k: 20,
      trackTotalHitsUpTo: 10000,
      trackScores: false,
      shardIndex: 0,
    };
    const held = c.engine.acquireReader();
    const before = idsOn(held, c, req);
    expect(before).toHaveLength(10);
    c.engine.write([
      { op: 'delete', id: 'd0' },
      { op: 'index', id: 'd3', source: enc.encode('{"title":"red fox","n":100}'), create: false },
      { op: 'index', id: 'new', source: enc.encode('{"title":"fox","n":-1}'), create: false },
    ]);
    c.engine.refresh();
    c.engine.forceMerge(1);
    expect(idsOn(held, c, req)).toEqual(before);
    expect(countQuery(held, c.mapping, q.match('title', 'fox'), ctx)).toBe(10);
    const now = c.engine.acquireReader();
    expect(now.segments).toHaveLength(1);
    const after = idsOn(now, c, req);
    expect(after[0]).toBe('new');
    expect(after[after.length - 1]).toBe('d3');
    expect(after).not.toContain('d0');
    expect(countQuery(now, c.mapping, q.match('title', 'fox'), ctx)).toBe(10);
    held.release();
    now.release();
  });

  it('checks for cancellation', () => {
    const c = corpus(props, docs);
    let calls = 0;
    const cancelling = { ...ctx, isCancelled: () => ++calls > 1 };
    const req: ShardQueryRequest = {
      query: q.all(),
      sort: [sortBy.score()],
      k: 5,
      trackTotalHitsUpTo: 10,
      trackScores: false,
      shardIndex: 0,
    };
    expect(() =>
      executeQuery(c.reader, c.mapping, { ...req, query: q.match('title', 'fox') }, cancelling),
    ).toThrow(expect.objectContaining({ type: 'task_cancelled_exception' }));
  });

  it('reports per-item parse failures without failing the batch', () => {
    const c = corpus(props, []);
    const o = c.engine.write([
      { op: 'index', id: 'a', source: enc.encode('{"n":"not a number"}'), create: false },
      { op: 'index', id: 'b', source: enc.encode('{"n":1}'), create: false },
    ]);
    if (o.kind !== 'applied') throw new Error('expected applied');
    expect(o.results[0]!.status).toBe(400);
    expect(o.results[0]!.error?.type).toMatch(/parsing_exception/);
    expect(o.results[1]).toMatchObject({ status: 201, seqNo: 0 });
  });
});
