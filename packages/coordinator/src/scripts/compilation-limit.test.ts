import { describe, expect, it } from 'vitest';
import { CompilationLimit } from './compilation-limit.ts';

const spec = (source: string) => ({ source, lang: 'painless', params: {} });

describe('CompilationLimit', () => {
  it('counts new sources only, and refills at the rate', () => {
    let now = 0;
    const limit = new CompilationLimit(() => now);
    limit.admit([spec('a'), spec('b')], '2/1m');
    limit.admit([spec('a'), spec('b')], '2/1m');
    expect(() => limit.admit([spec('c')], '2/1m')).toThrow(
      /Too many dynamic script compilations within, max: \[2\/1m\]/,
    );
    now += 30_000;
    limit.admit([spec('c')], '2/1m');
    expect(() => limit.admit([spec('d')], '2/1m')).toThrow();
    limit.admit([spec('e'), spec('f'), spec('g')], 'unlimited');
  });

  it('answers 429 circuit_breaking_exception', () => {
    const limit = new CompilationLimit(() => 0);
    try {
      limit.admit([spec('x'), spec('y')], '1/5m');
      throw new Error('admitted');
    } catch (e) {
      expect(e).toMatchObject({ type: 'circuit_breaking_exception', status: 429 });
    }
  });
});
