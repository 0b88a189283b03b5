import { describe, expect, it } from 'vitest';
import { parseAutoExpandReplicas } from './index-settings.ts';

describe('index.auto_expand_replicas', () => {
  it('parses ranges', () => {
    expect(parseAutoExpandReplicas('false')).toBeUndefined();
    expect(parseAutoExpandReplicas('0-5')).toEqual({ min: 0, max: 5 });
    expect(parseAutoExpandReplicas('1-all')).toEqual({ min: 1, max: 2147483647 });
    expect(() => parseAutoExpandReplicas('3-1')).toThrow(
      "[index.auto_expand_replicas] minReplicas must be =< maxReplicas but wasn't 3 > 1",
    );
  });
});
