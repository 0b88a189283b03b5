import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeMappings } from './index-templates.ts';
import { patternsOverlap, simpleMatch } from './template-patterns.ts';

describe('template patterns', () => {
  it('simpleMatch matches as a regular expression of the same pattern would', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab*]{0,6}$/), fc.stringMatching(/^[ab]{0,8}$/), (p, s) => {
        const re = new RegExp(`^${p.replaceAll('*', '.*')}$`);
        expect(simpleMatch(p, s)).toBe(re.test(s));
      }),
    );
  });

  it('two patterns overlap exactly when some short name matches both', () => {
    // Names up to 6 letters over {a, b} decide overlap of patterns with at most 4 literals each.
    const names: string[] = [''];
    for (let len = 1; len <= 6; len++)
      for (let i = 0; i < 2 ** len; i++)
        names.push(i.toString(2).padStart(len, '0').replaceAll('0', 'a').replaceAll('1', 'b'));
    fc.assert(
      fc.property(fc.stringMatching(/^[ab*]{0,5}$/), fc.stringMatching(/^[ab*]{0,5}$/), (p, q) => {
        const literals = (x: string) => x.replaceAll('*', '').length;
        fc.pre(literals(p) <= 3 && literals(q) <= 3);
        expect(patternsOverlap(p, q)).toBe(names.some((n) => simpleMatch(p, n) && simpleMatch(q, n)));
      }),
    );
    expect(patternsOverlap('test-*', '*')).toBe(true);
    expect(patternsOverlap('logs-*', 'metrics-*')).toBe(false);
    expect(patternsOverlap('a*b', 'ab*')).toBe(true);
  });

  it('mappings merge objects and properties, and replace a typed field', () => {
    expect(
      mergeMappings(
        { dynamic: true, properties: { a: { type: 'text' }, o: { properties: { x: { type: 'long' } } } } },
        {
          dynamic: false,
          properties: { a: { type: 'keyword' }, o: { properties: { y: { type: 'long' } } } },
        },
      ),
    ).toEqual({
      dynamic: false,
      properties: { a: { type: 'keyword' }, o: { properties: { x: { type: 'long' }, y: { type: 'long' } } } },
    });
  });
});
