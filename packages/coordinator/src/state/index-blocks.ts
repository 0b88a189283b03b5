/**
 * Index blocks (`index.blocks.*`, IndexMetadata.APIBlock): which operations each block stops,
 * and Elasticsearch's cluster_block_exception for them. A block is read from the index's
 * settings each time, so a settings update takes effect on the next request.
 */
import { clusterBlock, indexClosed, type SettingsUpdate, type ShoalError } from '@shoal/protocol';
import type { IndexMetadata } from './index-metadata.ts';

/** ClusterBlockLevel. */
export type BlockLevel = 'read' | 'write' | 'metadata_read' | 'metadata_write';

interface Block {
  setting: string;
  id: number;
  description: string;
  /** RestStatus name and code. */
  status: 'FORBIDDEN' | 'TOO_MANY_REQUESTS';
  code: number;
  levels: readonly BlockLevel[];
  /** allowReleaseResources: the index may still be deleted. */
  allowsDelete: boolean;
}

const BLOCKS: readonly Block[] = [
  {
    setting: 'index.blocks.read_only',
    id: 5,
    description: 'index read-only (api)',
    status: 'FORBIDDEN',
    code: 403,
    levels: ['write', 'metadata_write'],
    allowsDelete: false,
  },
  {
    setting: 'index.blocks.read',
    id: 7,
    description: 'index read (api)',
    status: 'FORBIDDEN',
    code: 403,
    levels: ['read'],
    allowsDelete: false,
  },
  {
    setting: 'index.blocks.write',
    id: 8,
    description: 'index write (api)',
    status: 'FORBIDDEN',
    code: 403,
    levels: ['write'],
    allowsDelete: false,
  },
  {
    setting: 'index.blocks.metadata',
    id: 9,
    description: 'index metadata (api)',
    status: 'FORBIDDEN',
    code: 403,
    levels: ['metadata_write', 'metadata_read'],
    allowsDelete: false,
  },
  {
    // Shoal: the description without the documentation link 8.12+ appends to it.
    setting: 'index.blocks.read_only_allow_delete',
    id: 12,
    description: 'disk usage exceeded flood-stage watermark, index has read-only-allow-delete block',
    status: 'TOO_MANY_REQUESTS',
    code: 429,
    levels: ['write'],
    allowsDelete: true,
  },
];

function blocksOf(meta: IndexMetadata, level: BlockLevel, forDelete = false): Block[] {
  const out: Block[] = [];
  for (const b of BLOCKS) {
    if (meta.settings[b.setting] !== 'true' || !b.levels.includes(level)) continue;
    if (forDelete && b.allowsDelete) continue;
    out.push(b);
  }
  return out;
}

/** ClusterBlockException over the blocked indices (index order), or undefined when none is. */
function blockedException(blocked: Map<string, Block[]>): ShoalError | undefined {
  if (blocked.size === 0) return undefined;
  let reason = '';
  let status: number | undefined;
  for (const [index, blocks] of blocked) {
    reason += `index [${index}] blocked by: [${blocks.map((b) => `${b.status}/${b.id}/${b.description}`).join(', ')}];`;
    for (const b of blocks) if (b.code !== 429 && (status === undefined || b.code > status)) status = b.code;
  }
  return clusterBlock(reason, status ?? 429);
}

/** The block error for one index at one level, or undefined (a bulk item's failure). */
export function indexBlockError(meta: IndexMetadata, level: BlockLevel): ShoalError | undefined {
  if (meta.state === 'close' && (level === 'read' || level === 'write'))
    return indexClosed(meta.name, meta.uuid);
  const blocks = blocksOf(meta, level);
  return blocks.length === 0 ? undefined : blockedException(new Map([[meta.name, blocks]]));
}

/** Throws when any of the indices is blocked at the level (ClusterBlocks.indicesBlockedException). */
export function checkBlocks(metas: readonly IndexMetadata[], level: BlockLevel): void {
  let blocked: Map<string, Block[]> | undefined;
  for (const meta of metas) {
    // A closed index takes no reads or writes (IndexNameExpressionResolver's IndexClosedException).
    if (meta.state === 'close' && (level === 'read' || level === 'write'))
      throw indexClosed(meta.name, meta.uuid);
    // Most indices carry no block at all: one key test before any work.
    if (!hasAnyBlock(meta)) continue;
    const blocks = blocksOf(meta, level);
    if (blocks.length === 0) continue;
    blocked ??= new Map();
    blocked.set(meta.name, blocks);
  }
  const e = blocked && blockedException(blocked);
  if (e) throw e;
}

function hasAnyBlock(meta: IndexMetadata): boolean {
  for (const b of BLOCKS) if (meta.settings[b.setting] === 'true') return true;
  return false;
}

/**
 * Deleting an index: only the metadata-write blocks that do not allow releasing resources stop
 * it (ClusterBlocks.indicesAllowReleaseResources): `read_only` does, `read_only_allow_delete`
 * does not.
 */
export function checkDeleteBlocks(metas: readonly IndexMetadata[]): void {
  const blocked = new Map<string, Block[]>();
  for (const meta of metas) {
    const blocks = blocksOf(meta, 'metadata_write', true);
    if (blocks.length > 0) blocked.set(meta.name, blocks);
  }
  const e = blockedException(blocked);
  if (e) throw e;
}

/**
 * `PUT /{index}/_settings` (TransportUpdateSettingsAction.checkBlock): a request that changes
 * `index.blocks.read_only` or `read_only_allow_delete`, or only `index.blocks.metadata`, always
 * passes, so a blocked index can be unblocked; anything else obeys the metadata-write blocks.
 */
export function checkMetadataBlock(meta: IndexMetadata, changes: SettingsUpdate): void {
  const keys = Object.keys(changes);
  if (
    (keys.length === 1 && keys[0] === 'index.blocks.metadata') ||
    keys.includes('index.blocks.read_only') ||
    keys.includes('index.blocks.read_only_allow_delete')
  ) {
    return;
  }
  checkBlocks([meta], 'metadata_write');
}
