import { createIndexMapping } from '@shoal/engine';
import { isShoalError, type ShoalError } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { validateAlias } from './alias-validation.ts';
import type { IndexMetadata } from './index-metadata.ts';

const meta = {
  name: 'docs',
  uuid: 'uuid',
  mapping: createIndexMapping(
    { properties: { n: { type: 'long' }, tenant: { type: 'keyword' } } },
    {
      indexName: 'docs',
    },
  ),
} as unknown as IndexMetadata;

function refusal(f: () => void): ShoalError {
  try {
    f();
  } catch (e) {
    if (isShoalError(e)) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('validateAlias', () => {
  it('accepts a filter that builds against the mapping, and routing values', () => {
    validateAlias(
      'a',
      { filter: { term: { tenant: 'acme' } }, indexRouting: '1', searchRouting: '1,2' },
      meta,
    );
    validateAlias('b', { filter: { term: { unmapped: 'x' } } }, meta);
  });

  it('refuses an unknown query with the parsing error as cause', () => {
    const e = refusal(() => validateAlias('a', { filter: { nope: {} } }, meta));
    expect(e.type).toBe('illegal_argument_exception');
    expect(e.reason).toBe('failed to parse filter for alias [a]');
    expect(e.causedBy?.type).toBe('parsing_exception');
  });

  it('refuses a filter that does not build against the mapping, with the reason as cause', () => {
    const e = refusal(() => validateAlias('a', { filter: { term: { n: 'abc' } } }, meta));
    expect(e.reason).toBe('failed to parse filter for alias [a]');
    expect(e.causedBy?.type).not.toBe('query_shard_exception');
    expect(e.causedBy?.reason).toContain('abc');
  });

  it('refuses several index routing values', () => {
    const e = refusal(() => validateAlias('a', { indexRouting: '1,2' }, meta));
    expect(e.type).toBe('illegal_argument_exception');
    expect(e.reason).toBe('alias [a] has several index routing values associated with it');
  });
});
