import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ShardWriteOp } from '../contract.ts';
import { CorruptionError } from '../store/checksum.ts';
import { sectionCache } from '../store/section-cache.ts';
import type { ShardEngine } from './shard-engine.ts';
import { openShardEngine } from './shard-recovery.ts';
import { testMapping } from './test-mapping.test-support.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const mapping = testMapping(
  { title: { type: 'text' }, n: { type: 'long' }, tag: { type: 'keyword' } },
  false,
);
let dir: string;
let open: ShardEngine[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shoal-shard-'));
});
afterEach(() => {
  for (const e of open) e.close();
  open = [];
  rmSync(dir, { recursive: true, force: true });
});

function start(warnings: Record<string, unknown>[] = []) {
  const r = openShardEngine({
    index: 'idx',
    indexUuid: 'uuid',
    shardId: 0,
    mapping,
    path: dir,
    warn: (_m, f) => warnings.push(f),
  });
  open.push(r.engine);
  return r;
}
/** Simulates a crash: the engine is dropped without closing anything. */
function crash(e: ShardEngine) {
  open = open.filter((x) => x !== e);
}
const index = (id: string, doc: unknown): ShardWriteOp => ({
  op: 'index',
  id,
  source: enc.encode(JSON.stringify(doc)),
  create: false,
});
const docs = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) =>
    index(String(from + i), { title: `doc ${from + i}`, n: from + i, tag: `t${i % 3}` }),
  );
const count = (e: ShardEngine) => e.docsStats().count;
const getN = (e: ShardEngine, id: string) => JSON.parse(dec.decode(e.get(id).source!)).n;
const indexFiles = () => readdirSync(join(dir, 'index')).sort();

describe('shard recovery', () => {
  it('replays the translog when nothing was committed', () => {
    const { engine } = start();
    engine.write(docs(20));
    engine.write([{ op: 'delete', id: '3' }, index('5', { n: 500 })]);
    crash(engine);
    const { engine: again, recovery } = start();
    expect(recovery).toMatchObject({ existing: true, docsFromCommit: 0, replayedOps: 22 });
    expect(count(again)).toBe(19);
    expect(again.get('3').found).toBe(false);
    expect(again.get('5')).toMatchObject({ found: true, version: 2, seqNo: 21 });
    expect(getN(again, '5')).toBe(500);
    // seq_no continues after the replayed ops.
    const r = again.write([index('new', { n: 1 })]);
    expect(r.kind === 'applied' && r.results[0]!.seqNo).toBe(22);
  });

  it('loads the commit and replays only what came after it', () => {
    const { engine } = start();
    engine.write(docs(10));
    expect(engine.flush()).toBe(true);
    engine.write([{ op: 'delete', id: '1' }, ...docs(5, 10)]);
    crash(engine);
    const { engine: again, recovery } = start();
    expect(recovery).toMatchObject({ docsFromCommit: 10, replayedOps: 6 });
    expect(count(again)).toBe(14);
    expect(again.get('1').found).toBe(false);
  });

  it('keeps deletes of committed segments in live-docs files', () => {
    const { engine } = start();
    engine.write(docs(10));
    engine.flush();
    engine.write([
      { op: 'delete', id: '2' },
      { op: 'delete', id: '4' },
    ]);
    engine.flush();
    expect(indexFiles().some((f) => f.endsWith('.liv'))).toBe(true);
    crash(engine);
    const { engine: again, recovery } = start();
    expect(recovery.replayedOps).toBe(0);
    expect(again.docsStats()).toMatchObject({ count: 8, deleted: 2 });
  });

  it('a flush trims the translog and a second flush without changes is skipped', () => {
    const { engine } = start();
    engine.write(docs(10));
    engine.flush();
    expect(engine.store!.translog.stats().operations).toBe(0);
    expect(engine.flush()).toBe(false);
    expect(readdirSync(join(dir, 'translog'))).toHaveLength(1);
  });

  it('deletes segments written after the last commit when reopening', () => {
    const { engine } = start();
    engine.write(docs(5));
    engine.flush();
    engine.write(docs(5, 5));
    engine.refresh();
    expect(indexFiles().filter((f) => f.endsWith('.seg'))).toHaveLength(2);
    crash(engine);
    const { engine: again } = start();
    // The uncommitted segment file is gone; its docs came back from the translog (in a new segment).
    expect(count(again)).toBe(10);
    expect(again.docsStats().segments).toBe(2);
  });

  it('fails on a bit-flipped segment file, naming it', () => {
    const { engine } = start();
    engine.write(docs(50));
    engine.flush();
    crash(engine);
    const seg = indexFiles().find((f) => f.endsWith('.seg'))!;
    const bytes = readFileSync(join(dir, 'index', seg));
    bytes[Math.floor(bytes.length / 2)]! ^= 0x04;
    writeFileSync(join(dir, 'index', seg), bytes);
    let err: unknown;
    try {
      start();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CorruptionError);
    expect(String((err as Error).message)).toContain(seg);
    expect(String((err as Error).message)).toMatch(/checksum failed/);
  });

  it('serves postings, doc values and _source from the file after a restart', () => {
    const { engine } = start();
    engine.write([
      index('a', { title: 'red fox', n: 7, tag: 'x' }),
      index('b', { title: 'blue whale', n: 9, tag: 'y' }),
    ]);
    engine.flush();
    crash(engine);
    sectionCache.clear();
    const { engine: again } = start();
    const reader = again.acquireReader();
    const seg = reader.segments[0]!.segment;
    expect(seg.file).toBeDefined();
    expect(seg.field('title')!.postings!.terms).toEqual(['blue', 'fox', 'red', 'whale']);
    expect(seg.field('tag')!.sortedSet!.terms).toEqual(['x', 'y']);
    const n = seg.field('n')!.numeric!;
    expect([...(n.values as BigInt64Array)]).toEqual([7n, 9n]);
    expect(dec.decode(seg.source(seg.docOfId('b')))).toBe('{"title":"blue whale","n":9,"tag":"y"}');
    expect(seg.stored.ids).toEqual(['a', 'b']);
    reader.release();
  });
});

describe('merges and pinned readers', () => {
  it('a merged-away segment keeps its file while a reader (PIT, scroll) holds it', () => {
    const { engine } = start();
    engine.write(docs(5));
    engine.flush();
    engine.write(docs(5, 5));
    engine.flush();
    const pinned = engine.acquireReader();
    const before = pinned.segments.map((s) => `${s.segment.name}.seg`);
    expect(before).toHaveLength(2);
    engine.forceMerge(1);
    engine.flush();
    // Not in the new commit, but still read by `pinned`: on disk.
    for (const f of before) expect(existsSync(join(dir, 'index', f))).toBe(true);
    expect(dec.decode(pinned.segments[0]!.segment.source(0))).toContain('"n":0');
    pinned.release();
    for (const f of before) expect(existsSync(join(dir, 'index', f))).toBe(false);
    expect(indexFiles().filter((f) => f.endsWith('.seg'))).toHaveLength(1);
  });

  it('an uncommitted merged-away segment goes when its last reader does', () => {
    const { engine } = start();
    engine.write(docs(3));
    engine.refresh();
    engine.write(docs(3, 3));
    engine.refresh();
    const pinned = engine.acquireReader();
    engine.forceMerge(1);
    expect(indexFiles().filter((f) => f.endsWith('.seg'))).toHaveLength(3);
    pinned.release();
    expect(indexFiles().filter((f) => f.endsWith('.seg'))).toHaveLength(1);
  });
});
