import { describe, expect, it } from 'vitest';
import { desiredReplicas, withAutoExpandedReplicas } from './auto-expand-replicas.ts';

describe('index.auto_expand_replicas', () => {
  it('wants one replica per other data node, within the bounds', () => {
    expect(desiredReplicas({})).toBeUndefined();
    expect(desiredReplicas({ 'index.auto_expand_replicas': 'false' })).toBeUndefined();
    expect(desiredReplicas({ 'index.auto_expand_replicas': '0-1' }, 1)).toBe(0);
    expect(desiredReplicas({ 'index.auto_expand_replicas': '0-1' }, 5)).toBe(1);
    expect(desiredReplicas({ 'index.auto_expand_replicas': '0-all' }, 3)).toBe(2);
    expect(desiredReplicas({ 'index.auto_expand_replicas': '2-5' }, 1)).toBe(2);
  });

  it('writes the number into index.number_of_replicas', () => {
    expect(
      withAutoExpandedReplicas({ 'index.number_of_replicas': '1', 'index.auto_expand_replicas': '0-1' }),
    ).toEqual({ 'index.number_of_replicas': '0', 'index.auto_expand_replicas': '0-1' });
    const plain = { 'index.number_of_replicas': '1' };
    expect(withAutoExpandedReplicas(plain)).toBe(plain);
  });
});
