import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CorruptionError } from './checksum.ts';
import { Translog, translogGenerations } from './translog.ts';
import { decodeOps, encodeOps, type TranslogOp } from './translog-ops.ts';

const enc = new TextEncoder();
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'shoal-tlog-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const op = (seqNo: number, source = `{"n":${seqNo}}`): TranslogOp => ({
  kind: 'index',
  seqNo,
  version: 1,
  primaryTerm: 1,
  id: `id-${seqNo}`,
  source: enc.encode(source),
});

function replay(uuid = 'u1', minGen = 1) {
  const seen: TranslogOp[] = [];
  const warnings: Record<string, unknown>[] = [];
  const t = Translog.open(
    dir,
    uuid,
    minGen,
    (ops) => seen.push(...ops),
    (_m, f) => warnings.push(f),
  );
  return { t, seen, warnings };
}

const file = (gen = 1) => join(dir, `translog-${gen}.tlog`);

describe('translog op encoding', () => {
  it('round-trips index and delete ops with and without routing', () => {
    const ops: TranslogOp[] = [
      { ...op(0), routing: 'r1' } as TranslogOp,
      { kind: 'delete', seqNo: 1, version: 3, primaryTerm: 2, id: 'ü-id' },
      op(2, '{"text":"日本語"}'),
    ];
    const back = decodeOps(encodeOps(ops));
    expect(
      back.map((o) => ({ ...o, source: 'source' in o ? new TextDecoder().decode(o.source) : undefined })),
    ).toEqual(
      ops.map((o) => ({ ...o, source: 'source' in o ? new TextDecoder().decode(o.source) : undefined })),
    );
  });
});

describe('translog', () => {
  it('replays synced batches in order, one frame per batch', () => {
    const t = Translog.create(dir, 'u1');
    t.append([op(0), op(1)]);
    t.append([op(2)]);
    t.sync();
    t.close();
    const { t: t2, seen, warnings } = replay();
    expect(seen.map((o) => o.seqNo)).toEqual([0, 1, 2]);
    expect(warnings).toEqual([]);
    expect(t2.stats().operations).toBe(3);
    t2.close();
  });

  it('truncates a torn tail (a frame cut short) with a warning and appends after it', () => {
    const t = Translog.create(dir, 'u1');
    t.append([op(0)]);
    t.append([op(1, `{"big":"${'x'.repeat(500)}"}`)]);
    t.close();
    const full = statSync(file()).size;
    truncateSync(file(), full - 100);
    const { t: t2, seen, warnings } = replay();
    expect(seen.map((o) => o.seqNo)).toEqual([0]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ reason: 'frame cut short' });
    t2.append([op(1)]);
    t2.close();
    expect(replay().seen.map((o) => o.seqNo)).toEqual([0, 1]);
  });

  it('truncates a bit-flipped last frame: its batch is dropped whole, never half-applied', () => {
    const t = Translog.create(dir, 'u1');
    t.append([op(0)]);
    t.append([op(1), op(2), op(3)]);
    t.close();
    const bytes = readFileSync(file());
    bytes[bytes.length - 5]! ^= 0x10;
    writeFileSync(file(), bytes);
    const { seen, warnings, t: t2 } = replay();
    expect(seen.map((o) => o.seqNo)).toEqual([0]);
    expect(warnings[0]).toMatchObject({ reason: 'checksum mismatch' });
    t2.close();
  });

  it('treats trailing zeros (a file extended by a crash) as a torn tail', () => {
    const t = Translog.create(dir, 'u1');
    t.append([op(0)]);
    t.close();
    appendFileSync(file(), Buffer.alloc(4096));
    const { seen, warnings, t: t2 } = replay();
    expect(seen).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    t2.close();
    expect(statSync(file()).size).toBeLessThan(4096);
  });

  it('fails on corruption followed by good frames (acknowledged ops damaged)', () => {
    const t = Translog.create(dir, 'u1');
    t.append([op(0)]);
    t.append([op(1)]);
    t.append([op(2)]);
    t.close();
    const bytes = readFileSync(file());
    // Flip a byte inside the second frame's payload.
    const headerLen = 14 + 2 + 4;
    const firstFrame = 8 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(headerLen, true);
    bytes[headerLen + firstFrame + 20]! ^= 0xff;
    writeFileSync(file(), bytes);
    expect(() => replay()).toThrow(CorruptionError);
  });

  it('rolls generations and trims the ones a commit covers', () => {
    const t = Translog.create(dir, 'u1');
    t.append([op(0)]);
    expect(t.roll()).toBe(2);
    t.append([op(1)]);
    t.trimBelow(2);
    t.close();
    expect(translogGenerations(dir)).toEqual([2]);
    const { seen, t: t2 } = replay('u1', 2);
    expect(seen.map((o) => o.seqNo)).toEqual([1]);
    t2.close();
  });

  it('refuses a translog of another shard, and a missing generation', () => {
    Translog.create(dir, 'u1').close();
    expect(() => replay('other')).toThrow(/another translog/);
    expect(() => replay('u1', 3)).toThrow(/missing/);
  });

  it('shares one sync among batches appended in the same turn', async () => {
    const t = Translog.create(dir, 'u1');
    t.append([op(0)]);
    const a = t.syncSoon();
    t.append([op(1)]);
    const b = t.syncSoon();
    expect(a).toBe(b);
    await a;
    t.close();
  });
});
