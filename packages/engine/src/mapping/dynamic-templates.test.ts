import { describe, expect, it } from 'vitest';
import { compileTemplates, findTemplate, templateMapping } from './dynamic-templates.ts';

const missing = (reason: string) => new Error(reason);

describe('dynamic templates', () => {
  const templates = compileTemplates([
    { ints: { match_mapping_type: 'long', unmatch: 'big_*', mapping: { type: 'integer' } } },
    { labels: { path_match: 'meta.*', match_mapping_type: 'object', mapping: { type: 'flattened' } } },
    {
      re: {
        match_pattern: 'regex',
        match: '^num_\\d+$',
        mapping: { type: '{dynamic_type}', doc_values: false },
      },
    },
    { named_only: { mapping: { type: 'keyword', meta: { from: '{name}' } } } },
  ]);

  it('finds the first template whose conditions hold', () => {
    expect(findTemplate(templates, 'count', 'count', 'long', undefined, missing)?.name).toBe('ints');
    expect(findTemplate(templates, 'big_count', 'big_count', 'long', undefined, missing)).toBeUndefined();
    expect(findTemplate(templates, 'tags', 'meta.tags', 'object', undefined, missing)?.name).toBe('labels');
    expect(findTemplate(templates, 'num_12', 'num_12', 'double', undefined, missing)?.name).toBe('re');
    expect(findTemplate(templates, 'title', 'title', 'string', undefined, missing)).toBeUndefined();
  });

  it('uses a template without conditions only when it is named', () => {
    expect(findTemplate(templates, 'title', 'title', 'string', 'named_only', missing)?.name).toBe(
      'named_only',
    );
    expect(() => findTemplate(templates, 'title', 'title', 'string', 'nope', missing)).toThrow(
      "Can't find dynamic template for dynamic template name [nope] of field [title]",
    );
  });

  it('fills in {name} and {dynamic_type}', () => {
    const named = templates.find((t) => t.name === 'named_only')!;
    expect(templateMapping(named, 'title', 'text')).toEqual({ type: 'keyword', meta: { from: 'title' } });
    const re = templates.find((t) => t.name === 're')!;
    expect(templateMapping(re, 'num_1', 'float')).toEqual({ type: 'float', doc_values: false });
  });

  it('refuses a malformed template', () => {
    expect(() => compileTemplates([{ a: { match_mapping_type: 'strin', mapping: {} } }])).toThrow(
      'No field type matched on [strin]',
    );
    expect(() => compileTemplates(['x'])).toThrow('Dynamic template syntax error');
  });
});
