import { describe, expect, it } from 'vitest';
import { compilePatterns, regexError } from './patterns.ts';

describe('compilePatterns', () => {
  it('matches literals, wildcards and ?', () => {
    const p = compilePatterns(['logs-*', 'metrics', 'a?c']);
    expect(p('logs-2024')).toBe(true);
    expect(p('metrics')).toBe(true);
    expect(p('metrics-1')).toBe(false);
    expect(p('abc')).toBe(true);
    expect(p('abbc')).toBe(false);
  });

  it('treats regex metacharacters of a wildcard pattern literally', () => {
    const p = compilePatterns(['a.b*']);
    expect(p('a.bc')).toBe(true);
    expect(p('axbc')).toBe(false);
  });

  it('matches a /regex/ against the whole name', () => {
    const p = compilePatterns(['/metrics-(beats|logstash).*/']);
    expect(p('metrics-beats-1')).toBe(true);
    expect(p('xmetrics-beats')).toBe(false);
  });

  it("reads Lucene's whole-expression complement", () => {
    const viewer = compilePatterns(['/~(([.]|ilm-history-).*)/']);
    expect(viewer('logs')).toBe(true);
    expect(viewer('.security-7')).toBe(false);
    expect(viewer('ilm-history-1')).toBe(false);
  });

  it('matches nothing for no patterns, everything for *', () => {
    expect(compilePatterns([])('x')).toBe(false);
    expect(compilePatterns(['*'])('.x')).toBe(true);
  });

  it('reports a broken regex', () => {
    expect(regexError('/a(/')).toBeDefined();
    expect(regexError('/a+/')).toBeUndefined();
    expect(regexError('a(')).toBeUndefined();
  });
});
