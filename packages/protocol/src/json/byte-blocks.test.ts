import { describe, expect, it } from 'vitest';
import { blockBytes } from './byte-blocks.ts';

describe('block bytes', () => {
  it('are 8-byte aligned, never overlap, and large ones have a buffer of their own', () => {
    const cuts = [1, 7, 8, 9, 100, 3000, 5, 16_000].map((n) => blockBytes(n));
    for (const b of cuts) expect(b.byteOffset % 8).toBe(0);
    cuts.forEach((b, i) => {
      b.fill(i + 1);
    });
    cuts.forEach((b, i) => {
      expect(b.every((x) => x === i + 1)).toBe(true);
    });
    const big = blockBytes(20_000);
    expect(big.byteOffset).toBe(0);
    expect(big.buffer.byteLength).toBe(20_000);
    // A block that fills up is followed by a new one.
    const many = Array.from({ length: 40 }, () => blockBytes(4000));
    expect(new Set(many.map((b) => b.buffer)).size).toBeGreaterThan(1);
  });

  it('stay in place when named in a transfer list (the message gets a copy)', () => {
    const { port1, port2 } = new MessageChannel();
    const b = blockBytes(16).fill(7);
    const neighbour = blockBytes(16).fill(9);
    try {
      port1.postMessage(b, [b.buffer as ArrayBuffer]);
      expect(b.byteLength).toBe(16);
      expect(b.every((x) => x === 7)).toBe(true);
      expect(neighbour.every((x) => x === 9)).toBe(true);
    } finally {
      port1.close();
      port2.close();
    }
  });
});
