/**
 * The script of an `_update_by_query` or `_reindex` (Elasticsearch's ScriptApplier): run on
 * each hit with a `ctx` of its `_source` and metadata, it may rewrite the source, choose the
 * op (`index`, `noop`, `delete`) and — in a reindex — send the document to another index, id,
 * routing or version. A noop writes nothing and is counted as a noop.
 */
import { runWriteScript, sourceBytes, type WriteScript } from '@shoal/engine';
import { type BulkByScrollRequest, parseJson } from '@shoal/protocol';
import type { WriteItem } from '../write/write-item.ts';
import type { SourceHit } from './scroll-source.ts';

/** What the script made of a hit's write: the write to send, or nothing (a noop). */
export type Scripted = { kind: 'write'; item: WriteItem } | { kind: 'noop' };

function sourceObject(bytes: Uint8Array): Record<string, unknown> {
  const v = parseJson(bytes, '_source');
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * Applies `script` to the write `item` built for `hit` (an in-place index for update by query,
 * an index into the destination for reindex).
 */
export function applyScript(
  req: BulkByScrollRequest,
  script: WriteScript,
  hit: SourceHit,
  item: WriteItem,
): Scripted {
  const reindex = req.kind === 'reindex';
  const ctx = runWriteScript(reindex ? 'reindex' : 'update_by_query', script, {
    index: hit.index,
    id: hit.id,
    version: hit.version ?? null,
    routing: hit.routing ?? null,
    now: Date.now(),
    source: sourceObject(item.body!),
  });
  if (ctx.op === 'noop') return { kind: 'noop' };
  const out: WriteItem = { ...item };
  if (reindex) {
    const index = ctx.meta('_index');
    if (index !== hit.index && typeof index === 'string') out.target = index;
    const id = ctx.meta('_id');
    if (id !== hit.id) out.id = typeof id === 'string' ? id : undefined;
    const routing = ctx.meta('_routing');
    if (routing !== (hit.routing ?? null)) out.routing = typeof routing === 'string' ? routing : undefined;
    const version = ctx.meta('_version');
    if (version !== (hit.version ?? null)) {
      // Reindexer.scriptChangedVersion: null lets the destination pick the version.
      if (typeof version === 'number') out.version = version;
      else {
        out.version = undefined;
        out.versionType = undefined;
      }
    }
  }
  if (ctx.op === 'delete') {
    const del: WriteItem = { action: 'delete', target: out.target, id: out.id, routing: out.routing };
    if (!reindex) {
      del.ifSeqNo = out.ifSeqNo;
      del.ifPrimaryTerm = out.ifPrimaryTerm;
    }
    return { kind: 'write', item: del };
  }
  out.body = sourceBytes(ctx.source);
  return { kind: 'write', item: out };
}
