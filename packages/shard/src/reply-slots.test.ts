import { describe, expect, it } from 'vitest';
import { packedQueryReply, unpackHits } from './hit-codec.ts';
import { replySlotsBuffer, SLOT_BYTES, SLOTS, SlotReader, SlotWriter } from './reply-slots.ts';

describe('reply slots', () => {
  it('hand a reply over once, in memory of the reader, and free the slot', () => {
    const buffer = replySlotsBuffer();
    const writer = new SlotWriter(buffer, 3);
    const reader = new SlotReader(buffer);
    const claimed = writer.claim(24)!;
    new Uint8Array(buffer, claimed.base, 24).set(Array.from({ length: 24 }, (_, i) => i + 1));
    const bytes = reader.take(claimed.ref)!;
    expect([...bytes]).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    expect(bytes.buffer).not.toBe(buffer);
    expect(bytes.byteOffset % 8).toBe(0);
    // Taken once: the token no longer holds the slot.
    expect(reader.take(claimed.ref)).toBeUndefined();
  });

  it('let a reader read a reply in place, the slot taken until it frees it once', () => {
    const buffer = replySlotsBuffer();
    const writer = new SlotWriter(buffer, 3);
    const reader = new SlotReader(buffer);
    const claimed = writer.claim(16)!;
    new Uint8Array(buffer, claimed.base, 16).fill(7);
    const bytes = reader.hold(claimed.ref)!;
    expect(bytes.buffer).toBe(buffer);
    expect(bytes.byteOffset % 8).toBe(0);
    expect([...bytes]).toEqual(new Array(16).fill(7));
    expect(reader.inUse()).toBe(1);
    // Still held: the writer claims another slot, not this one.
    expect(writer.claim(8)!.ref.slot).not.toBe(claimed.ref.slot);
    expect(reader.inUse()).toBe(2);
    reader.free(claimed.ref);
    expect(reader.inUse()).toBe(1);
    // A second free, or one with a token that no longer holds the slot, frees nothing else.
    const again = writer.claim(8)!;
    reader.free(claimed.ref);
    expect(reader.inUse()).toBe(2);
    expect(reader.hold({ ...claimed.ref, token: claimed.ref.token })).toBeUndefined();
    reader.free(again.ref);
    expect(reader.inUse()).toBe(1);
  });

  it('refuse what does not fit, and run out only while every slot is held', () => {
    const buffer = replySlotsBuffer();
    const writer = new SlotWriter(buffer, 1);
    const reader = new SlotReader(buffer);
    expect(writer.claim(SLOT_BYTES + 1)).toBeUndefined();
    const held = Array.from({ length: SLOTS }, () => writer.claim(SLOT_BYTES)!);
    expect(new Set(held.map((h) => h.ref.slot)).size).toBe(SLOTS);
    expect(writer.claim(8)).toBeUndefined();
    reader.take(held[5]!.ref);
    expect(writer.claim(8)?.ref.slot).toBe(5);
  });

  it('do not let a reply of a thread that died read a slot a new thread reused', () => {
    const buffer = replySlotsBuffer();
    const reader = new SlotReader(buffer);
    const dead = new SlotWriter(buffer, 2).claim(16)!;
    // The slot stays held by the dead thread's token; a new thread claims another one.
    const next = new SlotWriter(buffer, 4).claim(16)!;
    expect(next.ref.slot).not.toBe(dead.ref.slot);
    expect(reader.take({ ...dead.ref, token: next.ref.token })).toBeUndefined();
    expect(reader.take(next.ref)).toBeDefined();
  });

  it('carry packed hits and documents that unpack as those of an own buffer', () => {
    const buffer = replySlotsBuffer();
    const writer = new SlotWriter(buffer, 7);
    const reader = new SlotReader(buffer);
    const result = {
      totalHits: 3,
      totalRelation: 'eq' as const,
      maxScore: 2.5,
      hits: [
        { doc: 4, score: 2.5, sort: [2.5] },
        { doc: 9, score: 1.25, sort: [1.25] },
      ],
    };
    const fetched = {
      ids: ['a', 'bc'],
      routing: [null, null],
      versions: [1, 2],
      seqNos: [0, 1],
      primaryTerms: [1, 1],
      sourceBytes: new TextEncoder().encode('{"x":1}{"y":22}'),
      sourceOffsets: new Uint32Array([0, 7, 15]),
    };
    // Fill the slot with other bytes first: a reused slot is not zeroed.
    const first = writer.claim(SLOT_BYTES)!;
    new Uint8Array(buffer, first.base, SLOT_BYTES).fill(0xee);
    reader.take(first.ref);
    for (let i = 1; i < SLOTS; i++) reader.take(writer.claim(8)!.ref);
    const slotted = packedQueryReply(result, 1, fetched, writer);
    expect(slotted.bytes).toBeUndefined();
    expect(slotted.slot?.slot).toBe(first.ref.slot);
    const own = packedQueryReply(result, 1, fetched);
    const fromSlot = unpackHits({ ...slotted, bytes: reader.take(slotted.slot!)! });
    const fromOwn = unpackHits({ ...own, bytes: own.bytes! });
    expect(fromSlot.result).toEqual(fromOwn.result);
    expect(fromSlot.fetched?.ids).toEqual(['a', 'bc']);
    expect(new TextDecoder().decode(fromSlot.fetched?.sourceBytes)).toBe('{"x":1}{"y":22}');
    expect([...fromSlot.fetched!.sourceOffsets]).toEqual([0, 7, 15]);
    // Every slot held: the reply gets a buffer of its own, and unpacks the same.
    for (let i = 0; i < SLOTS; i++) writer.claim(8);
    const overflow = packedQueryReply(result, 1, fetched, writer);
    expect(overflow.slot).toBeUndefined();
    expect(unpackHits({ ...overflow, bytes: overflow.bytes! }).result).toEqual(fromOwn.result);
  });
});
