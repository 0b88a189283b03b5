/** Realtime get of one document: routed to its shard's primary, from the buffer or segments. */
import type { GetResult } from '@shoal/engine';
import {
  indexNotFound,
  parseBooleanParam,
  parseLongParam,
  ShoalError,
  versionConflict,
} from '@shoal/protocol';
import type { IndexAccess } from '@shoal/security';
import type { NodeServices } from '../services.ts';
import { docShard } from '../state/document-routing.ts';
import { checkBlocks } from '../state/index-blocks.ts';
import { aliasIndexRouting } from '../write/index-routing.ts';
import { readRestriction } from './read-restrictions.ts';
import { restrictedGet } from './restricted-get.ts';

export interface GotDocument extends GetResult {
  index: string;
}

export async function getDocument(
  s: NodeServices,
  target: string,
  id: string,
  query: Record<string, string>,
  /** The user's document and field restrictions (document- and field-level security). */
  access?: IndexAccess,
): Promise<GotDocument> {
  let meta = s.indices.get(target);
  let routing = query.routing;
  if (!meta) {
    const aliased = s.indices.aliasTargets(target);
    if (aliased.length === 0) throw indexNotFound(target);
    if (aliased.length > 1) {
      throw new ShoalError(
        'illegal_argument_exception',
        `alias [${target}] has more than one index associated with it [${aliased.map((m) => m.name).join(', ')}], can't execute a single index op`,
        400,
      );
    }
    meta = aliased[0]!;
    // Elasticsearch routes a GET through an alias by its index_routing, and applies no filter.
    routing = aliasIndexRouting(routing, target, meta.aliases.get(target));
  }
  checkBlocks([meta], 'read');
  const shardId = docShard(meta, id, routing);
  const copy = s.shards.primary(meta.uuid, shardId);
  if (copy?.state !== 'STARTED' || !copy.worker) {
    throw new ShoalError(
      'no_shard_available_action_exception',
      `No shard available for [get [${meta.name}][${id}]]`,
      503,
    );
  }
  const realtime = query.realtime === undefined ? true : parseBooleanParam(query.realtime, 'realtime');
  if (query.refresh !== undefined && parseBooleanParam(query.refresh, 'refresh')) {
    await copy.worker.run({ t: 'refresh', key: copy.key });
  }
  const got = await copy.worker.run({ t: 'get', key: copy.key, id, realtime });
  // VersionType.isVersionConflictForReads: a found document whose version is not the one asked.
  const version = parseLongParam(query.version, 'version');
  if (got.found && version !== undefined && version !== -3n && BigInt(got.version ?? 0) !== version) {
    throw versionConflict(
      id,
      `version conflict, current version [${got.version}] is different than the one provided [${version}]`,
      meta.name,
      meta.uuid,
      shardId,
    );
  }
  const restriction = readRestriction(access, meta);
  if (restriction) return restrictedGet(copy, { ...got, index: meta.name }, restriction, realtime);
  return { ...got, index: meta.name };
}
