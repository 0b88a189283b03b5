/**
 * PIT and scroll ids: url-safe base64 of a small JSON document naming, for each shard of the
 * search in shard-index order, the node, index, index uuid, shard id, worker thread and the
 * context inside it (session and id). Opaque to users, decodable by any node, so any node can
 * continue them. A scroll id also names its lease, the step it stands at and, per shard, how
 * many hits the previous page took from it, so a retried call with an older id finds the same
 * page (see the shard's context-tasks.ts).
 *
 * Anything that does not decode to exactly this shape is Elasticsearch's 400: `Cannot parse
 * scroll id` (paging.md §2.2 #26) or an illegal_argument_exception for a PIT id (#30).
 */

import { illegalArgument, type ShoalError } from '@shoal/protocol';
import type { ContextRef } from '@shoal/shard';

export interface ShardContextEntry {
  node: string;
  index: string;
  uuid: string;
  shardId: number;
  worker: number;
  context: ContextRef;
}

export interface PitId {
  kind: 'pit';
  lease: string;
  shards: ShardContextEntry[];
}

export interface ScrollId {
  kind: 'scroll';
  lease: string;
  step: number;
  shards: ShardContextEntry[];
  /** Per shard, how many of its hits the previous page consumed: where its next page starts. */
  consumed: number[];
  /** The shards of the search, those outside a slice included (`_shards.total`). */
  totalShards: number;
}

const VERSION = 1;

type Row = [number, string, string, number, number, string, number];

export function encodeContextId(id: PitId | ScrollId): string {
  const nodes = [...new Set(id.shards.map((s) => s.node))];
  const rows: Row[] = id.shards.map((s) => [
    nodes.indexOf(s.node),
    s.index,
    s.uuid,
    s.shardId,
    s.worker,
    s.context.session,
    s.context.id,
  ]);
  const doc: Record<string, unknown> = { v: VERSION, k: id.kind === 'pit' ? 'p' : 's', l: id.lease };
  if (id.kind === 'scroll') {
    doc.s = id.step;
    doc.c = id.consumed;
    doc.t = id.totalShards;
  }
  doc.n = nodes;
  doc.x = rows;
  return Buffer.from(JSON.stringify(doc)).toString('base64url');
}

class IdError extends Error {}

function fail(why: string): never {
  throw new IdError(why);
}

const isInt = (v: unknown, min = 0): v is number => Number.isSafeInteger(v) && (v as number) >= min;
const isStr = (v: unknown): v is string => typeof v === 'string';

function decodeDoc(
  id: string,
  kind: 'p' | 's',
): { doc: Record<string, unknown>; shards: ShardContextEntry[] } {
  const bad = /[^A-Za-z0-9_\-=]/.exec(id);
  if (bad) fail(`Illegal base64 character ${bad[0].charCodeAt(0).toString(16)}`);
  if (id.length === 0) fail('empty id');
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(id, 'base64url').toString('utf8'));
  } catch {
    fail('Not all bytes were read');
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) fail('not a context id');
  const d = doc as Record<string, unknown>;
  if (d.v !== VERSION) fail(`unknown id version [${String(d.v)}]`);
  if (d.k !== kind) fail(kind === 'p' ? 'not a point in time id' : 'not a scroll id');
  const nodes = d.n;
  const rows = d.x;
  if (!isStr(d.l) || !Array.isArray(nodes) || !nodes.every(isStr) || !Array.isArray(rows))
    fail('malformed id');
  const shards = rows.map((r): ShardContextEntry => {
    if (!Array.isArray(r) || r.length !== 7) fail('malformed shard entry');
    const [n, index, uuid, shardId, worker, session, ctx] = r as unknown[];
    if (!isInt(n) || n >= nodes.length || !isStr(index) || !isStr(uuid) || !isInt(shardId))
      fail('malformed shard');
    if (!isInt(worker) || !isStr(session) || !isInt(ctx, 1)) fail('malformed shard context');
    return { node: nodes[n] as string, index, uuid, shardId, worker, context: { id: ctx, session } };
  });
  return { doc: d, shards };
}

function wrap(e: unknown, top: (cause: ShoalError) => ShoalError): never {
  if (e instanceof IdError) throw top(illegalArgument(e.message));
  throw e;
}

export function decodeScrollId(id: string): ScrollId {
  try {
    const { doc, shards } = decodeDoc(id, 's');
    const consumed = doc.c;
    if (!isInt(doc.s) || !isInt(doc.t) || !Array.isArray(consumed) || consumed.length !== shards.length) {
      fail('malformed scroll position');
    }
    if (!consumed.every((c) => isInt(c))) fail('malformed scroll position');
    return {
      kind: 'scroll',
      lease: doc.l as string,
      step: doc.s,
      shards,
      consumed: consumed as number[],
      totalShards: doc.t,
    };
  } catch (e) {
    return wrap(e, (cause) => illegalArgument('Cannot parse scroll id', cause));
  }
}

export function decodePitId(id: string): PitId {
  try {
    const { doc, shards } = decodeDoc(id, 'p');
    return { kind: 'pit', lease: doc.l as string, shards };
  } catch (e) {
    return wrap(e, (cause) => illegalArgument(`Cannot parse point in time id: ${cause.reason}`));
  }
}
