import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderSearchBody, renderTemplate } from './search-template.ts';

describe('renderTemplate', () => {
  it('any string parameter inside a JSON string stays that string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (v) => {
        expect(JSON.parse(renderTemplate('{"a":"{{v}}"}', { v }))).toEqual({ a: v });
      }),
    );
  });

  it('sections, inverted sections and defaults as Elasticsearch templates write them', () => {
    const t = '{"operator":"{{operator}}{{^operator}}or{{/operator}}"{{#size}},"size":{{size}}{{/size}}}';
    expect(JSON.parse(renderTemplate(t, {}))).toEqual({ operator: 'or' });
    expect(JSON.parse(renderTemplate(t, { operator: 'and', size: 3 }))).toEqual({ operator: 'and', size: 3 });
  });

  it('toJson and join read dotted parameter paths', () => {
    expect(renderTemplate('{{#toJson}}a.b{{/toJson}}', { a: { b: [1, { c: 'd' }] } })).toBe('[1,{"c":"d"}]');
    expect(renderTemplate('{{#join}}a.list{{/join}}', { a: { list: [1, 2, 3] } })).toBe('1,2,3');
    expect(renderTemplate('{{#toJson}}missing{{/toJson}}', {})).toBe('null');
  });

  it('a stored template is found through the lookup; a missing one is a 404', () => {
    const stored = (id: string) => (id === 't' ? { lang: 'mustache', source: '{"size":{{n}}}' } : undefined);
    expect(renderSearchBody({ id: 't', params: { n: 4 } }, stored)).toEqual({ size: 4 });
    expect(() => renderSearchBody({ id: 'x', params: {} }, stored)).toThrow(
      'unable to find script [x] in cluster state',
    );
    expect(() => renderSearchBody({ id: 'x', params: {} }, undefined)).toThrow('unable to find script [x]');
  });
});
