/**
 * A replica kept in step by its primary's operations: replicated batches and peer-recovery
 * batches, in any order and more than once, leave the replica holding what the primary holds.
 */
import { describe, expect, it } from 'vitest';
import type { ShardWriteOp } from '../contract.ts';
import { decodeOps, encodeOps, type TranslogOp } from '../store/translog-ops.ts';
import { recoveryOps } from './recovery-ops.ts';
import { ShardEngine } from './shard-engine.ts';
import { testMapping } from './test-mapping.test-support.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const mapping = testMapping({ n: { type: 'long' } }, false);
const engine = () => new ShardEngine({ index: 'idx', indexUuid: 'u', shardId: 0, mapping });
const index = (id: string, n: number): ShardWriteOp =>
  ({ op: 'index', id, source: enc.encode(JSON.stringify({ n })), create: false }) as ShardWriteOp;
const del = (id: string): ShardWriteOp => ({ op: 'delete', id }) as ShardWriteOp;

/** A seeded generator (mulberry32): `int(n)` is in [0, n). */
function prng(seed: number): { int(n: number): number } {
  let a = seed >>> 0;
  return {
    int(n) {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
    },
  };
}

/** Applies a batch on the primary; returns what its replicas get. */
function onPrimary(p: ShardEngine, ops: ShardWriteOp[]): TranslogOp[] {
  const out = p.write(ops, true);
  if (out.kind !== 'applied') throw new Error('expected applied');
  return out.ops ?? [];
}

/** Every live document: id → [seq_no, version, source]. */
function contents(e: ShardEngine): Record<string, [number, number, string]> {
  e.refresh();
  const out: Record<string, [number, number, string]> = {};
  const reader = e.acquireReader();
  try {
    for (const batch of recoveryOps(reader, 64)) {
      for (const op of batch) {
        if (op.kind === 'index') out[op.id] = [op.seqNo, op.version, dec.decode(op.source)];
      }
    }
  } finally {
    reader.release();
  }
  return out;
}

describe('replica operations', () => {
  it('apply with the primary’s seq_no, version and term, and skip what is older than the copy', () => {
    const p = engine();
    const r = engine();
    const first = onPrimary(p, [index('a', 1), index('b', 2)]);
    const second = onPrimary(p, [index('a', 3), del('b'), index('c', 4)]);
    // The second batch overtakes the first; the first then changes nothing it overtook.
    expect(r.applyReplicated(second).applied).toBe(3);
    expect(r.applyReplicated(first).applied).toBe(0);
    expect(r.applyReplicated(second).applied).toBe(0);
    expect(contents(r)).toEqual(contents(p));
    expect(r.get('a')).toMatchObject({ found: true, version: 2, seqNo: 2, primaryTerm: 1 });
    expect(r.get('b').found).toBe(false);
    expect(r.maxSeqNo).toBe(p.maxSeqNo);
  });

  it('let a promoted replica go on from its own seq_no, with its new term', () => {
    const p = engine();
    const r = engine();
    r.applyReplicated(onPrimary(p, [index('a', 1)]));
    r.setPrimaryTerm(2);
    const out = r.write([index('a', 2)]);
    expect(out.kind === 'applied' && out.results[0]).toMatchObject({ seqNo: 1, primaryTerm: 2, version: 2 });
  });

  it('recover a replica from a copy of the primary while writes keep arriving, in any order', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rnd = prng(seed);
      const p = engine();
      for (let i = 0; i < 40; i++) onPrimary(p, [index(`d${rnd.int(25)}`, i)]);
      p.refresh();
      const reader = p.acquireReader();
      const snapshot = [...recoveryOps(reader, 100)].map((b) => encodeOps(b));
      reader.release();
      // Writes after the recovery read the primary, replicated to the recovering copy.
      const later: Uint8Array[] = [];
      for (let i = 0; i < 30; i++) {
        const id = `d${rnd.int(30)}`;
        later.push(encodeOps(onPrimary(p, [rnd.int(4) === 0 ? del(id) : index(id, 100 + i)])));
      }
      // Recovery batches and replicated writes interleave as the network delivers them.
      const r = engine();
      const queue = [...snapshot, ...later];
      for (let i = queue.length - 1; i > 0; i--) {
        const j = rnd.int(i + 1);
        [queue[i], queue[j]] = [queue[j]!, queue[i]!];
      }
      for (const bytes of queue) r.applyReplicated(decodeOps(bytes));
      expect(contents(r), `seed ${seed}`).toEqual(contents(p));
    }
  });
});
