import { type DocWriteCheck, docWriteValidation, type ShoalError, type WireError } from '@shoal/protocol';
import type { ShardInfo } from '../replication/shard-info.ts';

/** One document operation of a bulk (or single-document) request, as the coordinator routes it. */
export interface WriteItem {
  action: 'index' | 'create' | 'update' | 'delete';
  /** The target as the client named it (index or alias); resolved to a concrete index later. */
  target: string;
  id?: string;
  routing?: string;
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
  version?: number;
  versionType?: 'internal' | 'external' | 'external_gte';
  /** index/create: the `_source` bytes; update: the partial document bytes. */
  body?: Uint8Array;
  upsert?: Uint8Array;
  docAsUpsert?: boolean;
  detectNoop?: boolean;
  returnSource?: boolean;
  requireAlias?: boolean;
  /** index/create: `dynamic_templates` of a bulk item (field path → template name). */
  dynamicTemplates?: Record<string, string>;
  /** update: a script (its source resolved) instead of a partial document. */
  script?: { source: string; params: Record<string, unknown> };
  scriptedUpsert?: boolean;
  /**
   * A failure of this item alone, known while reading the request (a stored script that does
   * not exist): the item fails once its index is resolved, as its shard would fail it.
   */
  failure?: ShoalError;
}

/**
 * What a write waits for before it goes to a shard's primary: `wait_for_active_shards` (a
 * number of copies, or all of them; absent: the primary alone) within `timeout`.
 */
export interface WriteWaits {
  activeShards?: number | 'all';
  timeoutMs: number;
  /** The timeout as given, for the error. */
  timeout: string;
}

/** The outcome of one item, in Elasticsearch's per-item shape (before rendering). */
export interface WriteItemResult {
  index: string;
  id: string;
  status: number;
  result?: string;
  version?: number;
  seqNo?: number;
  primaryTerm?: number;
  /** The shard copies the write went to (`_shards`). */
  shards?: ShardInfo;
  error?: WireError;
  source?: Uint8Array;
}

/** What Elasticsearch's `validate()` finds wrong with an item (empty when nothing). */
export function itemProblems(item: WriteItem, extra: Partial<DocWriteCheck> = {}): string[] {
  return docWriteValidation({
    op: item.action,
    id: item.id,
    version: item.version,
    versionType: item.versionType,
    ifSeqNo: item.ifSeqNo,
    ifPrimaryTerm: item.ifPrimaryTerm,
    ...extra,
  });
}
