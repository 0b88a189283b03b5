import { createIndexMapping } from '@shoal/engine';
import { isShoalError, type ShoalError } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { checkBlocks, checkDeleteBlocks, checkMetadataBlock, indexBlockError } from './index-blocks.ts';
import type { IndexMetadata } from './index-metadata.ts';

function meta(name: string, settings: Record<string, string>): IndexMetadata {
  return {
    name,
    uuid: `${name}-uuid`,
    creationDate: 0,
    settings,
    mapping: createIndexMapping({}, { indexName: name }),
    aliases: new Map(),
    numberOfShards: 1,
    routingNumShards: 1024,
    state: 'open',
    mappingVersion: 1,
    settingsVersion: 1,
    aliasesVersion: 1,
  };
}

function thrown(f: () => void): ShoalError {
  try {
    f();
  } catch (e) {
    if (isShoalError(e)) return e;
    throw e;
  }
  throw new Error('did not throw');
}

describe('index blocks', () => {
  it('name each blocked index and take the status of the non-retryable blocks', () => {
    const a = meta('a', { 'index.blocks.write': 'true', 'index.blocks.read_only_allow_delete': 'true' });
    const b = meta('b', { 'index.blocks.read_only_allow_delete': 'true' });
    const both = thrown(() => checkBlocks([a, b], 'write'));
    expect(both.type).toBe('cluster_block_exception');
    expect(both.status).toBe(403);
    expect(both.reason).toBe(
      'index [a] blocked by: [FORBIDDEN/8/index write (api), TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block];' +
        'index [b] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block];',
    );
    expect(indexBlockError(b, 'write')?.status).toBe(429);
    expect(indexBlockError(b, 'read')).toBeUndefined();
    expect(() => checkBlocks([a, b], 'read')).not.toThrow();
  });

  it('let an index with the disk block be deleted, not one that is read-only', () => {
    expect(() =>
      checkDeleteBlocks([meta('d', { 'index.blocks.read_only_allow_delete': 'true' })]),
    ).not.toThrow();
    expect(thrown(() => checkDeleteBlocks([meta('r', { 'index.blocks.read_only': 'true' })])).reason).toBe(
      'index [r] blocked by: [FORBIDDEN/5/index read-only (api)];',
    );
  });

  it('always let a settings update lift the blocks that stop settings updates', () => {
    const ro = meta('ro', { 'index.blocks.read_only': 'true', 'index.blocks.metadata': 'true' });
    expect(() =>
      checkMetadataBlock(ro, { 'index.blocks.read_only': 'false', 'index.number_of_replicas': '0' }),
    ).not.toThrow();
    expect(() => checkMetadataBlock(ro, { 'index.blocks.metadata': null })).not.toThrow();
    expect(() =>
      checkMetadataBlock(ro, { 'index.blocks.metadata': null, 'index.number_of_replicas': '0' }),
    ).toThrow(/index read-only \(api\), FORBIDDEN\/9\/index metadata \(api\)/);
  });
});
