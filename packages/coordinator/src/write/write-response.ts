/** Renders write results in Elasticsearch's shapes (single-document APIs and bulk items). */
import { RawJson, type WireError } from '@shoal/protocol';
import { shardInfoJson } from '../replication/shard-info.ts';
import type { WriteItemResult } from './write-item.ts';

export function wireErrorJson(w: WireError): Record<string, unknown> {
  const out: Record<string, unknown> = { type: w.type, reason: w.reason, ...(w.metadata ?? {}) };
  if (w.causedBy) out.caused_by = wireErrorJson(w.causedBy);
  return out;
}

/**
 * The body of `PUT /{index}/_doc/{id}` and friends (without `status`). `forcedRefresh`: the
 * request asked `refresh=true`, so the write was made visible at once (DocWriteResponse's
 * `forced_refresh`, printed only when true; a noop wrote nothing to refresh).
 */
export function docWriteJson(r: WriteItemResult, forcedRefresh = false): Record<string, unknown> {
  const out: Record<string, unknown> = {
    _index: r.index,
    _id: r.id,
    _version: r.version,
    result: r.result,
  };
  if (forcedRefresh && r.result !== 'noop') out.forced_refresh = true;
  out._shards = shardInfoJson(r.shards, r.result === 'noop');
  out._seq_no = r.seqNo;
  out._primary_term = r.primaryTerm;
  return out;
}

export function bulkItemJson(
  action: string,
  r: WriteItemResult,
  forcedRefresh = false,
): Record<string, unknown> {
  if (r.error) {
    return { [action]: { _index: r.index, _id: r.id, status: r.status, error: wireErrorJson(r.error) } };
  }
  const body = docWriteJson(r, forcedRefresh);
  body.status = r.status;
  if (r.source) body.get = { _source: new RawJson(r.source) };
  return { [action]: body };
}
