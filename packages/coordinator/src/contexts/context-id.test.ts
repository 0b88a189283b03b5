import { isShoalError } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { decodePitId, decodeScrollId, encodeContextId, type ShardContextEntry } from './context-id.ts';

const shards: ShardContextEntry[] = [
  { node: 'n1', index: 'a', uuid: 'ua', shardId: 0, worker: 1, context: { id: 7, session: '0f0f0f' } },
  { node: 'n1', index: 'b', uuid: 'ub', shardId: 0, worker: 0, context: { id: 12, session: 'abcdef' } },
  { node: 'n2', index: 'a', uuid: 'ua', shardId: 1, worker: 0, context: { id: 3, session: '123456' } },
];

function errorOf(f: () => unknown) {
  try {
    f();
  } catch (e) {
    if (isShoalError(e))
      return { status: e.status, type: e.type, reason: e.reason, cause: e.causedBy?.reason };
    throw e;
  }
  return undefined;
}

describe('PIT and scroll ids', () => {
  it('round-trip, url-safe, with every shard in order', () => {
    const pit = encodeContextId({ kind: 'pit', lease: 'L1', shards });
    expect(pit).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePitId(pit)).toEqual({ kind: 'pit', lease: 'L1', shards });
    const id = { kind: 'scroll' as const, lease: 'L2', step: 5, shards, consumed: [3, 0, 7], totalShards: 4 };
    const scroll = encodeContextId(id);
    expect(decodeScrollId(scroll)).toEqual(id);
    expect(encodeContextId({ ...id, step: 6 })).not.toBe(scroll);
  });

  it('are 400s when they do not decode, or are of the other kind', () => {
    const pit = encodeContextId({ kind: 'pit', lease: 'L1', shards });
    const scroll = encodeContextId({
      kind: 'scroll',
      lease: 'L2',
      step: 0,
      shards,
      consumed: [0, 0, 0],
      totalShards: 3,
    });
    for (const bad of ['c29tZXRoaW5n', 'not an id!', '', pit, scroll.slice(0, 20)]) {
      expect(errorOf(() => decodeScrollId(bad))).toMatchObject({
        status: 400,
        type: 'illegal_argument_exception',
        reason: 'Cannot parse scroll id',
      });
    }
    expect(errorOf(() => decodeScrollId('a.b'))?.cause).toBe('Illegal base64 character 2e');
    expect(errorOf(() => decodePitId(scroll))).toMatchObject({
      status: 400,
      type: 'illegal_argument_exception',
    });
    expect(errorOf(() => decodePitId('!!'))?.reason).toMatch(
      /^Cannot parse point in time id: Illegal base64/,
    );
    const forged = Buffer.from(
      JSON.stringify({ v: 1, k: 'p', l: 'x', n: ['n'], x: [[3, 'a', 'u', 0, 0, 's', 1]] }),
    );
    expect(errorOf(() => decodePitId(forged.toString('base64url')))?.status).toBe(400);
  });
});
