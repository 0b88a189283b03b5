import { describe, expect, it } from 'vitest';
import { executeFetch } from './fetch-phase.ts';
import { corpus } from './test-corpus.test-support.ts';

const dec = new TextDecoder();
const raw = ['{"a": 1,  "b": {"c": "x", "d": 2}}', '{"a":2,"big":12345678901234567890}', '{ "a" : 3 }'];

describe('fetch phase', () => {
  const c = corpus({ a: { type: 'long' } }, [
    ['x', JSON.parse(raw[0]!)],
    ['y', { a: 2 }],
  ]);
  // Index the exact bytes (whitespace and big numbers) through the engine.
  const enc = new TextEncoder();
  c.engine.write(
    raw.map((r, i) => ({
      op: 'index' as const,
      id: `r${i}`,
      source: enc.encode(r),
      create: false,
      routing: i === 1 ? 'rt' : undefined,
    })),
  );
  c.engine.refresh();
  const reader = c.engine.acquireReader();
  const docOf = (id: string) => {
    for (const s of reader.segments) {
      const d = s.segment.docOfId(id);
      if (d >= 0 && s.liveDocs.isLive(d)) return s.docBase + d;
    }
    throw new Error(id);
  };
  const slice = (r: ReturnType<typeof executeFetch>, i: number) =>
    dec.decode(r.sourceBytes.subarray(r.sourceOffsets[i]!, r.sourceOffsets[i + 1]!));

  it('copies stored source bytes verbatim, in the requested order', () => {
    const r = executeFetch(reader, {
      docs: [docOf('r2'), docOf('r0'), docOf('r1')],
      source: { enabled: true, includes: [], excludes: [] },
      version: true,
      seqNoPrimaryTerm: true,
    });
    expect(r.ids).toEqual(['r2', 'r0', 'r1']);
    expect(r.routing).toEqual([null, null, 'rt']);
    expect(r.versions).toEqual([1, 1, 1]);
    expect(r.seqNos).toEqual([4, 2, 3]);
    expect(r.primaryTerms).toEqual([1, 1, 1]);
    expect([0, 1, 2].map((i) => slice(r, i))).toEqual([raw[2], raw[0], raw[1]]);
    expect(r.sourceOffsets).toHaveLength(4);
  });

  it('filters with includes/excludes, keeping big integers exact', () => {
    const r = executeFetch(reader, {
      docs: [docOf('r0'), docOf('r1')],
      source: { enabled: true, includes: ['b.*', 'big'], excludes: ['b.d'] },
      version: false,
      seqNoPrimaryTerm: false,
    });
    expect(slice(r, 0)).toBe('{"b":{"c":"x"}}');
    expect(slice(r, 1)).toBe('{"big":12345678901234567890}');
  });

  it('returns no bytes when _source is disabled', () => {
    const r = executeFetch(reader, {
      docs: [docOf('x')],
      source: { enabled: false, includes: [], excludes: [] },
      version: false,
      seqNoPrimaryTerm: false,
    });
    expect(r.sourceBytes.length).toBe(0);
    expect([...r.sourceOffsets]).toEqual([0, 0]);
    expect(r.ids).toEqual(['x']);
  });

  it('fetches from a reader that a later merge replaced', () => {
    const held = c.engine.acquireReader();
    c.engine.write([{ op: 'delete', id: 'x' }]);
    c.engine.forceMerge(1);
    const r = executeFetch(held, {
      docs: [docOf('x')],
      source: { enabled: true, includes: [], excludes: [] },
      version: false,
      seqNoPrimaryTerm: false,
    });
    expect(r.ids).toEqual(['x']);
    expect(held.numDocs).toBe(5);
    expect(c.engine.acquireReader().numDocs).toBe(4);
    held.release();
  });
});
