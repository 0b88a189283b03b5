import { describe, expect, it } from 'vitest';
import { newCtx } from '../query/parse-context.ts';
import { INLINE_DEPRECATION, parseScriptSpec } from './script-spec.ts';

describe('parseScriptSpec', () => {
  it('reads the string and object forms, warns on inline, and collects scripts', () => {
    const ctx = newCtx({});
    ctx.scripts = [];
    const warnings: string[] = [];
    expect(parseScriptSpec(ctx, 'doc.x')).toEqual({ source: 'doc.x', lang: 'painless', params: {} });
    expect(parseScriptSpec(ctx, { inline: '1', params: { a: 1 } }, warnings)).toEqual({
      source: '1',
      lang: 'painless',
      params: { a: 1 },
    });
    expect(warnings).toEqual([INLINE_DEPRECATION]);
    expect(ctx.scripts).toHaveLength(2);
  });

  it('resolves stored scripts when the context knows them', () => {
    const ctx = newCtx({});
    ctx.storedScript = (id) => (id === 's' ? { source: '2', lang: 'painless' } : undefined);
    expect(parseScriptSpec(ctx, { id: 's' })).toMatchObject({ id: 's', source: '2' });
    expect(() => parseScriptSpec(ctx, { id: 'nope' })).toThrow(
      'unable to find script [nope] in cluster state',
    );
  });

  it('refuses what Elasticsearch refuses', () => {
    expect(() => parseScriptSpec(undefined, { source: '1', id: 'x' })).toThrow(
      'must only use one of [source, id] for a script',
    );
    expect(() => parseScriptSpec(undefined, {})).toThrow(
      'must specify either [source] for an inline script or [id] for a stored script',
    );
    expect(() => parseScriptSpec(undefined, { id: 'x', lang: 'painless' })).toThrow(
      'lang cannot be specified for stored scripts',
    );
    expect(() => parseScriptSpec(undefined, { source: '1', lang: 'groovy' })).toThrow(
      'script_lang not supported [groovy]',
    );
    expect(() => parseScriptSpec(undefined, { source: '1', lang: 'mustache' })).toThrow(/not implemented/);
    expect(() => parseScriptSpec(undefined, { source: '1', foo: 1 })).toThrow('[script] unknown field [foo]');
  });
});
