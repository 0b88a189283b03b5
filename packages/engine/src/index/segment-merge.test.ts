import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ShardWriteOp } from '../contract.ts';
import type { ShardEngine } from './shard-engine.ts';
import { openShardEngine } from './shard-recovery.ts';
import { testMapping } from './test-mapping.test-support.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const mapping = testMapping(
  { title: { type: 'text' }, n: { type: 'long' }, d: { type: 'double' }, tag: { type: 'keyword' } },
  false,
);
let dir: string;
let engine: ShardEngine | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shoal-merge-'));
});
afterEach(() => {
  engine?.close();
  engine = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const doc = (i: number) => ({
  title: `doc number ${i} of ${i % 7} words`,
  n: i,
  d: i / 4,
  tag: [`t${i % 3}`, `u${i % 5}`],
});
const ops = (from: number, n: number): ShardWriteOp[] =>
  Array.from({ length: n }, (_, k) => ({
    op: 'index',
    id: `id-${from + k}`,
    routing: (from + k) % 10 === 0 ? `r${from + k}` : undefined,
    source: enc.encode(JSON.stringify(doc(from + k))),
    create: false,
  }));

describe('merging file-backed segments', () => {
  it('copies every live doc, its postings, doc values and source, whichever input it came from', () => {
    engine = openShardEngine({
      index: 'idx',
      indexUuid: 'uuid',
      shardId: 0,
      mapping,
      path: dir,
      warn: () => {},
    }).engine;
    // Segments large enough to be read through the merge's shared scratch buffer, of different
    // sizes so a smaller input reuses the buffer after a larger one.
    for (const [from, n] of [
      [0, 3000],
      [3000, 500],
      [3500, 2000],
    ] as const) {
      engine.write(ops(from, n));
      engine.refresh();
    }
    engine.write([
      { op: 'delete', id: 'id-10' },
      { op: 'delete', id: 'id-3200' },
    ]);
    expect(engine.forceMerge(1)).toBe(true);
    const reader = engine.acquireReader();
    try {
      expect(reader.segments).toHaveLength(1);
      const { segment } = reader.segments[0]!;
      expect(segment.maxDoc).toBe(5498);
      const ids = segment.stored.ids;
      const routing = segment.stored.routing;
      for (let d = 0; d < segment.maxDoc; d++) {
        const i = Number(ids[d]!.slice(3));
        expect(JSON.parse(dec.decode(segment.source(d)))).toEqual(doc(i));
        expect(routing[d]).toBe(i % 10 === 0 ? `r${i}` : null);
      }
      const n = segment.field('n')!.numeric!;
      expect(n.kind).toBe('long');
      expect(n.values[ids.indexOf('id-4000')]).toBe(4000n);
      const tag = segment.field('tag')!;
      const t1 = tag.postings!.terms.indexOf('t1');
      const p = tag.postings!;
      expect(p.starts[t1 + 1]! - p.starts[t1]!).toBe(
        Array.from({ length: 5500 }, (_, i) => i).filter((i) => i % 3 === 1 && i !== 10 && i !== 3200).length,
      );
      const title = segment.field('title')!.postings!;
      const words = title.terms.indexOf('words');
      expect(title.starts[words + 1]! - title.starts[words]!).toBe(5498);
      expect(segment.docOfId('id-10')).toBe(-1);
      expect(segment.docOfId('id-5499')).toBeGreaterThanOrEqual(0);
    } finally {
      reader.release();
    }
  });
});
