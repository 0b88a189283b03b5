/** Renders write results in Elasticsearch's shapes (single-document APIs and bulk items). */
import { RawJson, type WireError } from '@shoal/protocol';
import type { WriteItemResult } from './write-item.ts';

export function wireErrorJson(w: WireError): Record<string, unknown> {
  const out: Record<string, unknown> = { type: w.type, reason: w.reason, ...(w.metadata ?? {}) };
  if (w.causedBy) out.caused_by = wireErrorJson(w.causedBy);
  return out;
}

function shardsHeader(r: WriteItemResult): Record<string, number> {
  if (r.result === 'noop') return { total: 0, successful: 0, failed: 0 };
  return { total: r.shardsTotal ?? 1, successful: 1, failed: 0 };
}

/** The body of `PUT /{index}/_doc/{id}` and friends (without `status`). */
export function docWriteJson(r: WriteItemResult): Record<string, unknown> {
  const out: Record<string, unknown> = {
    _index: r.index,
    _id: r.id,
    _version: r.version,
    result: r.result,
    _shards: shardsHeader(r),
    _seq_no: r.seqNo,
    _primary_term: r.primaryTerm,
  };
  return out;
}

export function bulkItemJson(action: string, r: WriteItemResult): Record<string, unknown> {
  if (r.error) {
    return { [action]: { _index: r.index, _id: r.id, status: r.status, error: wireErrorJson(r.error) } };
  }
  const body = docWriteJson(r);
  body.status = r.status;
  if (r.source) body.get = { _source: new RawJson(r.source) };
  return { [action]: body };
}
