import { describe, expect, it } from 'vitest';
import { createIndexMapping } from './index-mapping.ts';
import { bytes, thrown } from './test-helpers.ts';

describe('the _doc_count metadata field', () => {
  const m = createIndexMapping(undefined, { indexName: 'test' });

  it('is kept as doc values, never mapped, even under strict dynamic mapping', () => {
    const r = m.parseDocument('1', bytes({ _doc_count: 10, s: 'x' }));
    expect(r.doc.fields.find((f) => f.path === '_doc_count')).toEqual({
      path: '_doc_count',
      type: 'long',
      numbers: [10],
    });
    expect(JSON.stringify(r.dynamicUpdate)).not.toContain('_doc_count');
    const strict = createIndexMapping({ dynamic: 'strict' }, { indexName: 'test' });
    expect(strict.parseDocument('1', bytes({ _doc_count: 3 })).doc.fields).toHaveLength(1);
  });

  it('must be one positive integer', () => {
    const fails = (value: unknown) => {
      const e = thrown(() => m.parseDocument('1', bytes({ _doc_count: value })));
      expect(e.type).toBe('document_parsing_exception');
      expect(e.reason).toContain(
        "failed to parse field [_doc_count] of type [_doc_count] in document with id '1'",
      );
      return e.causedBy?.reason;
    };
    expect(fails(0)).toBe('Field [_doc_count] must be a positive integer. Value [0] is not allowed.');
    expect(fails(1.5)).toBe('Field [_doc_count] must be a positive integer. Value [1.5] is not allowed.');
    expect(fails([1, 2])).toBe(
      'Failed to parse object: expecting token of type [VALUE_NUMBER] but found [START_ARRAY]',
    );
    expect(fails('7')).toBe(
      'Failed to parse object: expecting token of type [VALUE_NUMBER] but found [VALUE_STRING]',
    );
  });
});
