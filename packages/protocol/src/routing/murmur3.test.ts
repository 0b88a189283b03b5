import { describe, expect, it } from 'vitest';
import { murmur3x86_32 } from './murmur3.ts';
import { routingHash } from './shard-routing.ts';

describe('murmur3x86_32', () => {
  it('matches the reference vectors', () => {
    const enc = new TextEncoder();
    expect(murmur3x86_32(new Uint8Array(0), 0)).toBe(0);
    expect(murmur3x86_32(new Uint8Array(0), 1)).toBe(0x514e28b7);
    expect(murmur3x86_32(new Uint8Array(0), 0xffffffff) >>> 0).toBe(0x81f16f39);
    expect(murmur3x86_32(new Uint8Array([0xff, 0xff, 0xff, 0xff]), 0) >>> 0).toBe(0x76293b50);
    expect(murmur3x86_32(new Uint8Array([0x21, 0x43, 0x65, 0x87]), 0) >>> 0).toBe(0xf55b516b);
    expect(murmur3x86_32(new Uint8Array([0x21, 0x43, 0x65]), 0) >>> 0).toBe(0x7e4a8634);
    expect(murmur3x86_32(new Uint8Array([0x21, 0x43]), 0) >>> 0).toBe(0xa0f7b07a);
    expect(murmur3x86_32(new Uint8Array([0x21]), 0) >>> 0).toBe(0x72661cf4);
    expect(murmur3x86_32(enc.encode('Hello, world!'), 1234) >>> 0).toBe(0xfaf6cdb3);
  });
});

describe('routingHash', () => {
  // Elasticsearch's Murmur3HashFunctionTests.testKnownValues (UTF-16LE bytes, seed 0).
  it.each([
    [0x5a0cb7c3, 'hell'],
    [0xd7c31989, 'hello'],
    [0x22ab2984, 'hello w'],
    [0xdf0ca123, 'hello wo'],
    [0xe7744d61, 'hello wor'],
    [0xe07db09c, 'The quick brown fox jumps over the lazy dog'],
    [0x4e63d2ad, 'The quick brown fox jumps over the lazy cog'],
  ])('hash %i of %s', (expected, input) => {
    expect(routingHash(input)).toBe(expected | 0);
  });
});
