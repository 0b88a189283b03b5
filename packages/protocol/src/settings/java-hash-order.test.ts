import { describe, expect, it } from 'vitest';
import { javaHashMapOrder, javaStringHash } from './java-hash-order.ts';

describe('javaHashMapOrder', () => {
  it('computes String.hashCode', () => {
    expect(javaStringHash('')).toBe(0);
    expect(javaStringHash('hello')).toBe(99162322);
    expect(javaStringHash('polygenelubricants')).toBe(-2147483648);
  });

  it('reproduces the key order of GET /{index}/_settings', () => {
    const sorted = [
      'creation_date',
      'number_of_replicas',
      'number_of_shards',
      'provided_name',
      'routing',
      'uuid',
      'version',
    ];
    expect(javaHashMapOrder(sorted)).toEqual([
      'routing',
      'number_of_shards',
      'provided_name',
      'creation_date',
      'number_of_replicas',
      'uuid',
      'version',
    ]);
  });
});
