import { describe, expect, it } from 'vitest';
import { autoCreateDecision, parseAutoCreateIndex } from './cluster-settings.ts';

describe('action.auto_create_index', () => {
  it('parses patterns', () => {
    expect(parseAutoCreateIndex('true')).toBe(true);
    expect(parseAutoCreateIndex('+a*,-b*,c')).toEqual([
      { pattern: 'a*', include: true },
      { pattern: 'b*', include: false },
      { pattern: 'c', include: true },
    ]);
    expect(() => parseAutoCreateIndex('a,,b')).toThrow(
      "Can't parse [a,,b] for setting [action.auto_create_index] must be either [true, false, or a comma separated list of index patterns]",
    );
    expect(() => parseAutoCreateIndex('-')).toThrow('must contain an index name after [-]');
  });

  it('decides by the first matching pattern', () => {
    expect(autoCreateDecision('+a*,-b*', 'abc')).toEqual({ allowed: true });
    expect(autoCreateDecision('+a*,-b*', 'bcd')).toEqual({
      allowed: false,
      reason: '[action.auto_create_index] contains [-b*] which forbids automatic creation of the index',
    });
    expect(autoCreateDecision('+a*,-b*', 'zzz')).toEqual({
      allowed: false,
      reason: "[action.auto_create_index] ([+a*,-b*]) doesn't match",
    });
    expect(autoCreateDecision('false', 'x')).toEqual({
      allowed: false,
      reason: '[action.auto_create_index] is [false]',
    });
  });
});
