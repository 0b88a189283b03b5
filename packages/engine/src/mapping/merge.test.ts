import { describe, expect, it } from 'vitest';
import { createIndexMapping } from './index-mapping.ts';
import { thrown } from './test-helpers.ts';

const opts = { indexName: 'test' };
const base = createIndexMapping(
  {
    properties: {
      n: { type: 'long' },
      t: { type: 'text', analyzer: 'standard', fields: { raw: { type: 'keyword' } } },
      k: { type: 'keyword', ignore_above: 10 },
      o: { properties: { a: { type: 'keyword' } } },
      nest: { type: 'nested', include_in_parent: true, properties: { x: { type: 'keyword' } } },
    },
  },
  opts,
);

describe('merging mapping updates', () => {
  it('adds fields, multi-fields and updatable parameters', () => {
    const m = base.merge({
      properties: {
        added: { type: 'boolean' },
        t: {
          type: 'text',
          analyzer: 'standard',
          search_analyzer: 'simple',
          fields: { eng: { type: 'text' } },
        },
        k: { type: 'keyword', ignore_above: 20 },
        o: { properties: { b: { type: 'long' } } },
      },
    });
    const props = m.toJSON().properties as Record<string, unknown>;
    expect(props.added).toEqual({ type: 'boolean' });
    expect(props.t).toEqual({
      type: 'text',
      analyzer: 'standard',
      search_analyzer: 'simple',
      fields: { eng: { type: 'text' }, raw: { type: 'keyword' } },
    });
    expect(props.k).toEqual({ type: 'keyword', ignore_above: 20 });
    expect(props.o).toEqual({ properties: { a: { type: 'keyword' }, b: { type: 'long' } } });
    // The original is unchanged.
    expect((base.toJSON().properties as Record<string, unknown>).k).toEqual({
      type: 'keyword',
      ignore_above: 10,
    });
  });

  it('is idempotent for the same body', () => {
    const m = base.merge(base.toJSON());
    expect(m.toJSON()).toEqual(base.toJSON());
  });

  it('refuses type changes', () => {
    const e = thrown(() => base.merge({ properties: { n: { type: 'text' } } }));
    expect(e.type).toBe('illegal_argument_exception');
    expect(e.status).toBe(400);
    expect(e.reason).toBe('mapper [n] cannot be changed from type [long] to [text]');
    expect(
      thrown(() => base.merge({ properties: { t: { type: 'text', fields: { raw: { type: 'long' } } } } }))
        .reason,
    ).toBe('mapper [t.raw] cannot be changed from type [keyword] to [long]');
  });

  it('lists every non-updatable parameter conflict', () => {
    const e = thrown(() =>
      base.merge({ properties: { t: { type: 'text', analyzer: 'simple', index: false } } }),
    );
    expect(e.reason).toBe(
      'Mapper for [t] conflicts with existing mapper:\n\tCannot update parameter [index] from [true] to [false]\n\t' +
        'Cannot update parameter [analyzer] from [standard] to [simple]',
    );
    expect(thrown(() => base.merge({ properties: { t: { type: 'text' } } })).reason).toBe(
      'Mapper for [t] conflicts with existing mapper:\n\tCannot update parameter [analyzer] from [standard] to [default]',
    );
  });

  it('allows norms to be disabled but not enabled', () => {
    const off = base.merge({ properties: { t: { type: 'text', analyzer: 'standard', norms: false } } });
    expect(
      thrown(() => off.merge({ properties: { t: { type: 'text', analyzer: 'standard', norms: true } } }))
        .reason,
    ).toBe(
      'Mapper for [t] conflicts with existing mapper:\n\tCannot update parameter [norms] from [false] to [true]',
    );
  });

  it('refuses object/field and nested/object changes', () => {
    expect(thrown(() => base.merge({ properties: { o: { type: 'keyword' } } })).reason).toBe(
      "can't merge a non object mapping [o] with an object mapping",
    );
    expect(
      thrown(() => base.merge({ properties: { n: { properties: { x: { type: 'long' } } } } })).reason,
    ).toBe("can't merge a non object mapping [n] with an object mapping");
    expect(thrown(() => base.merge({ properties: { o: { type: 'nested' } } })).reason).toBe(
      "can't merge a nested mapping [o] with a non-nested mapping",
    );
    expect(
      thrown(() => base.merge({ properties: { nest: { type: 'object', properties: {} } } })).reason,
    ).toBe("can't merge a non-nested mapping [nest] with a nested mapping");
  });

  it('answers enabled and include_in_* changes with 400 illegal_argument_exception', () => {
    const disabled = createIndexMapping({ enabled: false }, opts);
    const e = thrown(() => disabled.merge({ enabled: true }));
    expect(e.type).toBe('illegal_argument_exception');
    expect(e.status).toBe(400);
    expect(e.reason).toBe("the [enabled] parameter can't be updated for the object mapping [_doc]");
    expect(thrown(() => base.merge({ properties: { o: { enabled: false } } })).reason).toBe(
      "the [enabled] parameter can't be updated for the object mapping [o]",
    );
    // An update that leaves enabled out changes nothing.
    expect(disabled.merge({ properties: {} }).toJSON()).toEqual({ enabled: false });
    expect(
      thrown(() => base.merge({ properties: { nest: { type: 'nested', include_in_parent: false } } })).reason,
    ).toBe("the [include_in_parent] parameter can't be updated on a nested object mapping");
    // include_in_* compare effective values: omitting a true one is a change.
    expect(thrown(() => base.merge({ properties: { nest: { type: 'nested' } } })).reason).toBe(
      "the [include_in_parent] parameter can't be updated on a nested object mapping",
    );
    expect(
      thrown(() =>
        base.merge({
          properties: { nest: { type: 'nested', include_in_parent: true, include_in_root: true } },
        }),
      ).reason,
    ).toBe("the [include_in_root] parameter can't be updated on a nested object mapping");
  });

  it('merges root settings', () => {
    const m = base.merge({ dynamic: 'strict', _meta: { v: 2 }, numeric_detection: true });
    expect(m.toJSON()).toMatchObject({ dynamic: 'strict', _meta: { v: 2 }, numeric_detection: true });
    const routed = createIndexMapping({ _routing: { required: true } }, opts);
    expect(thrown(() => routed.merge({ _routing: { required: false } })).reason).toBe(
      'Mapper for [_routing] conflicts with existing mapper:\n\tCannot update parameter [required] from [true] to [false]',
    );
    expect(routed.merge({ properties: {} }).routingRequired).toBe(true);
  });

  it('wraps parse errors of the update and checks limits after merging', () => {
    expect(thrown(() => base.merge({ properties: { x: { type: 'nope' } } })).reason).toBe(
      'Failed to parse mapping: No handler for type [nope] declared on field [x]',
    );
    const small = createIndexMapping(
      { properties: { a: { type: 'long' } } },
      { indexName: 'x', totalFieldsLimit: 2 },
    );
    expect(
      thrown(() => small.merge({ properties: { b: { type: 'long' }, c: { type: 'long' } } })).reason,
    ).toBe('Limit of total fields [2] has been exceeded');
  });
});
