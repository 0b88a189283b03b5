import { describe, expect, it } from 'vitest';
import { createIndexMapping, validateMappingJson } from './index-mapping.ts';
import { thrown } from './test-helpers.ts';

const opts = { indexName: 'test' };

describe('mapping parse and render', () => {
  it('round-trips explicit mappings as GET _mapping shows them', () => {
    const json = {
      dynamic: 'strict',
      _meta: { owner: 'me' },
      _routing: { required: true },
      _source: { excludes: ['secret'] },
      date_detection: false,
      properties: {
        title: {
          type: 'text',
          analyzer: 'simple',
          search_analyzer: 'standard',
          fields: { raw: { type: 'keyword', ignore_above: 100 } },
          copy_to: 'all',
        },
        all: { type: 'text' },
        count: { type: 'integer', coerce: false, null_value: 0 },
        price: { type: 'double', ignore_malformed: true },
        created: { type: 'date', format: 'yyyy-MM-dd||epoch_millis' },
        ts: { type: 'date_nanos' },
        flag: { type: 'boolean', null_value: false },
        ip: { type: 'ip' },
        loc: { type: 'geo_point' },
        user: { properties: { name: { type: 'keyword', doc_values: false } } },
        comments: { type: 'nested', include_in_parent: true, properties: { body: { type: 'text' } } },
        empty: { type: 'object' },
        off: { type: 'object', enabled: false },
      },
    };
    const m = createIndexMapping(json, opts);
    expect(m.toJSON()).toEqual({
      dynamic: 'strict',
      _meta: { owner: 'me' },
      _routing: { required: true },
      _source: { excludes: ['secret'] },
      date_detection: false,
      properties: {
        all: { type: 'text' },
        comments: { type: 'nested', include_in_parent: true, properties: { body: { type: 'text' } } },
        count: { type: 'integer', coerce: false, null_value: 0 },
        created: { type: 'date', format: 'yyyy-MM-dd||epoch_millis' },
        empty: { type: 'object' },
        flag: { type: 'boolean', null_value: false },
        ip: { type: 'ip' },
        loc: { type: 'geo_point' },
        off: { type: 'object', enabled: false },
        price: { type: 'double', ignore_malformed: true },
        title: {
          type: 'text',
          analyzer: 'simple',
          search_analyzer: 'standard',
          fields: { raw: { type: 'keyword', ignore_above: 100 } },
          copy_to: ['all'],
        },
        ts: { type: 'date_nanos' },
        user: { properties: { name: { type: 'keyword', doc_values: false } } },
      },
    });
    expect(Object.keys(m.toJSON())).toEqual([
      'dynamic',
      '_meta',
      '_routing',
      '_source',
      'date_detection',
      'properties',
    ]);
    // Rendering is stable through a re-parse.
    expect(createIndexMapping(m.toJSON(), opts).toJSON()).toEqual(m.toJSON());
  });

  it('drops parameters set to their defaults and normalises values', () => {
    const m = createIndexMapping(
      {
        properties: {
          k: { type: 'keyword', index: 'true', doc_values: true, store: false },
          d: { type: 'date', format: 'strict_date_optional_time||epoch_millis' },
        },
      },
      opts,
    );
    expect(m.toJSON()).toEqual({ properties: { d: { type: 'date' }, k: { type: 'keyword' } } });
    expect(createIndexMapping({ dynamic: false }, opts).toJSON()).toEqual({ dynamic: 'false' });
    expect(createIndexMapping(undefined, opts).toJSON()).toEqual({});
  });

  it('expands dotted property names into objects', () => {
    const m = createIndexMapping(
      { properties: { 'a.b.c': { type: 'keyword' }, a: { properties: { d: { type: 'long' } } } } },
      opts,
    );
    expect(m.toJSON()).toEqual({
      properties: {
        a: { properties: { b: { properties: { c: { type: 'keyword' } } }, d: { type: 'long' } } },
      },
    });
    expect(m.isObject('a.b')).toBe(true);
    expect(m.field('a.b.c')?.type).toBe('keyword');
  });

  it('resolves fields for the query side', () => {
    const m = createIndexMapping(
      {
        properties: {
          title: { type: 'text', analyzer: 'whitespace', fields: { keyword: { type: 'keyword' } } },
          body: { type: 'text' },
          when: { type: 'date_nanos' },
        },
      },
      opts,
    );
    expect(m.field('title')).toMatchObject({
      path: 'title',
      type: 'text',
      index: true,
      docValues: false,
      analyzer: 'whitespace',
      searchAnalyzer: 'whitespace',
    });
    expect(m.field('title.keyword')).toMatchObject({ type: 'keyword', docValues: true });
    expect(m.field('when')?.format).toBe('strict_date_optional_time_nanos||epoch_millis');
    expect(m.field('nope')).toBeUndefined();
    expect(m.fieldsMatching('t*').map((f) => f.path)).toEqual(['title', 'title.keyword']);
    expect(m.fieldsMatching('*').length).toBe(4);
    expect(m.isObject('title')).toBe(false);
  });
});

describe('mapping errors', () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    [
      'unknown type',
      { properties: { bar: { type: 'foo' } } },
      'mapper_parsing_exception',
      'No handler for type [foo] declared on field [bar]',
    ],
    [
      'unknown parameter',
      { properties: { bar: { type: 'keyword', foo: 1 } } },
      'mapper_parsing_exception',
      'unknown parameter [foo] on mapper [bar] of type [keyword]',
    ],
    [
      'parameter of another type',
      { properties: { bar: { type: 'keyword', analyzer: 'standard' } } },
      'mapper_parsing_exception',
      'unknown parameter [analyzer] on mapper [bar] of type [keyword]',
    ],
    [
      'unknown root parameter',
      { foo: 'bar', properties: {} },
      'mapper_parsing_exception',
      'Root mapping definition has unsupported parameters:  [foo : bar]',
    ],
    [
      'typed mapping body',
      { _doc: { properties: { a: { type: 'text' } } } },
      'mapper_parsing_exception',
      'Root mapping definition has unsupported parameters:  [_doc : {properties={a={type=text}}}]',
    ],
    [
      'unknown analyzer',
      { properties: { t: { type: 'text', analyzer: 'nope' } } },
      'illegal_argument_exception',
      'analyzer [nope] has not been configured in mappings',
    ],
    [
      'no type',
      { properties: { t: { index: false } } },
      'mapper_parsing_exception',
      'No type specified for field [t]',
    ],
    [
      'object in multi-field',
      { properties: { t: { type: 'text', fields: { o: { type: 'object' } } } } },
      'mapper_parsing_exception',
      'Type [object] cannot be used in multi field',
    ],
    [
      'bad boolean',
      { properties: { t: { type: 'keyword', index: 'yes' } } },
      'illegal_argument_exception',
      'Failed to parse value [yes] as only [true] or [false] are allowed.',
    ],
    [
      'null parameter',
      { properties: { t: { type: 'keyword', ignore_above: null } } },
      'mapper_parsing_exception',
      '[ignore_above] on mapper [t] of type [keyword] must not have a [null] value',
    ],
    [
      'bad date format',
      { properties: { d: { type: 'date', format: 'yyyy-MM-dd foo' } } },
      'illegal_argument_exception',
      'Error parsing [format] on field [d]: Invalid format: [yyyy-MM-dd foo]: Unknown pattern letter: f',
    ],
    [
      'similarity',
      { properties: { t: { type: 'text', similarity: 'classic' } } },
      'illegal_argument_exception',
      'Unknown Similarity type [classic] for field [t]',
    ],
    [
      'unsupported object parameter',
      { properties: { o: { type: 'object', foo: 'x' } } },
      'mapper_parsing_exception',
      'Mapping definition for [o] has unsupported parameters:  [foo : x]',
    ],
    [
      'search_analyzer without analyzer',
      { properties: { t: { type: 'text', search_analyzer: 'simple' } } },
      'mapper_parsing_exception',
      'analyzer on field [t] must be set when search_analyzer is set',
    ],
    [
      'bad null_value',
      { properties: { n: { type: 'long', null_value: 'abc' } } },
      'illegal_argument_exception',
      'Error parsing [null_value] on field [n]: For input string: "abc"',
    ],
  ];

  for (const [what, json, causeType, reason] of cases) {
    it(`wraps ${what} as Failed to parse mapping`, () => {
      const e = thrown(() => createIndexMapping(json, opts));
      expect(e.type).toBe('mapper_parsing_exception');
      expect(e.status).toBe(400);
      expect(e.reason).toBe(`Failed to parse mapping: ${reason}`);
      expect(e.causedBy?.type).toBe(causeType);
      expect(e.causedBy?.reason).toBe(reason);
      expect(() => validateMappingJson(json)).toThrow();
    });
  }

  it('enforces the total fields limit', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 6; i++) properties[`f${i}`] = { type: 'keyword' };
    const e = thrown(() => createIndexMapping({ properties }, { indexName: 'x', totalFieldsLimit: 5 }));
    expect(e.type).toBe('illegal_argument_exception');
    expect(e.reason).toBe('Limit of total fields [5] has been exceeded');
    // Objects and multi-fields count too.
    const m = createIndexMapping(
      { properties: { o: { properties: { t: { type: 'text', fields: { k: { type: 'keyword' } } } } } } },
      { indexName: 'x', totalFieldsLimit: 3 },
    );
    expect(m.totalFields).toBe(3);
  });

  it('enforces depth and nested limits', () => {
    expect(
      thrown(() =>
        createIndexMapping(
          { properties: { 'a.b.c': { type: 'keyword' } } },
          { indexName: 'x', depthLimit: 2 },
        ),
      ).reason,
    ).toBe('Limit of mapping depth [2] has been exceeded due to object field [a.b]');
    // The root is level 1: a root-level object is at depth 2 (MappingLookup.checkObjectDepthLimit).
    expect(
      thrown(() =>
        createIndexMapping(
          { properties: { a: { properties: { b: { type: 'keyword' } } } } },
          {
            indexName: 'x',
            depthLimit: 1,
          },
        ),
      ).reason,
    ).toBe('Limit of mapping depth [1] has been exceeded due to object field [a]');
    expect(
      thrown(() =>
        createIndexMapping(
          { properties: { o: { properties: { long_name: { type: 'keyword' } } } } },
          { indexName: 'x', fieldNameLengthLimit: 5 },
        ),
      ).reason,
    ).toBe('Field name [long_name] is longer than the limit of [5] characters');
    expect(
      thrown(() =>
        createIndexMapping(
          { properties: { n: { type: 'nested' } } },
          { indexName: 'x', nestedFieldsLimit: 0 },
        ),
      ).reason,
    ).toBe('Limit of nested fields [0] has been exceeded');
  });
});

describe('the runtime section', () => {
  it('parses, prints sorted before properties, merges (null removes) and refuses bad definitions', () => {
    const m = createIndexMapping(
      {
        properties: { a: { type: 'long' } },
        runtime: {
          z: { type: 'keyword' },
          b: { type: 'long', script: { source: 'emit(1)', params: { p: 1 } } },
        },
      },
      opts,
    );
    expect(Object.keys(m.toJSON())).toEqual(['runtime', 'properties']);
    expect(m.toJSON().runtime).toEqual({
      b: { type: 'long', script: { source: 'emit(1)', lang: 'painless', params: { p: 1 } } },
      z: { type: 'keyword' },
    });
    const merged = m.merge({ runtime: { z: null, c: { type: 'date', format: 'yyyy' } } });
    expect(Object.keys(merged.runtimeFields())).toEqual(['b', 'c']);
    expect(merged.toJSON().runtime).toMatchObject({ c: { type: 'date', format: 'yyyy' } });
    const e = thrown(() => createIndexMapping({ runtime: { r: { script: 'emit(1)' } } }, opts));
    expect(e.type).toBe('mapper_parsing_exception');
    expect(e.reason).toBe('Failed to parse mapping: No type specified for runtime field [r]');
    const bad = thrown(() => createIndexMapping({ runtime: { r: { type: 'long', script: 'emit(' } } }, opts));
    expect(bad).toMatchObject({
      type: 'mapper_parsing_exception',
      reason: 'Failed to parse mapping: compile error',
    });
    expect(bad.causedBy?.type).toBe('script_exception');
  });

  it('answers what Shoal lacks with 501', () => {
    expect(thrown(() => createIndexMapping({ runtime: { r: { type: 'lookup' } } }, opts)).status).toBe(501);
  });

  it('reads a composite field with its sub-fields, and refuses one without a script', () => {
    const m = createIndexMapping(
      {
        runtime: {
          r: { type: 'composite', script: "emit(['a': 1])", fields: { a: { type: 'long' } } },
        },
      },
      opts,
    );
    expect(m.runtimeFields().r).toMatchObject({ type: 'composite', fields: { a: { type: 'long' } } });
    const bad = thrown(() => createIndexMapping({ runtime: { r: { type: 'composite' } } }, opts));
    expect(bad.status).toBe(400);
    expect(bad.reason).toContain('composite runtime field [r] must declare a [script]');
  });
});
