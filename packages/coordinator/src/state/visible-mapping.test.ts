import { fieldPredicate } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { visibleMapping } from './visible-mapping.ts';

describe('a mapping under field-level security', () => {
  it('leaves out hidden fields and emptied objects, and keeps visible multi-fields of a hidden field', () => {
    const mapping = {
      dynamic: 'strict',
      properties: {
        a: { type: 'keyword' },
        secret: { type: 'keyword' },
        addr: { properties: { city: { type: 'keyword' }, zip: { type: 'keyword' } } },
        hidden: { properties: { x: { type: 'long' } } },
        title: { type: 'text', fields: { raw: { type: 'keyword' } } },
      },
    };
    const visible = fieldPredicate([[{ include: ['a', 'addr.city', 'title.raw'], exclude: [] }]]);
    expect(visibleMapping(mapping, visible)).toEqual({
      dynamic: 'strict',
      properties: {
        a: { type: 'keyword' },
        addr: { properties: { city: { type: 'keyword' } } },
        title: { properties: { raw: { type: 'keyword' } } },
      },
    });
    expect(mapping.properties.secret).toEqual({ type: 'keyword' });
  });
});
