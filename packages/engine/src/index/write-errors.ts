/**
 * Engine-level write failures, shaped as Elasticsearch's engine exceptions (index_uuid,
 * shard, index metadata). `document_missing_exception` has no factory in protocol's catalogue
 * yet; it is built here until one exists there.
 */
import { ShoalError, versionConflict } from '@shoal/protocol';

export interface ShardIdent {
  index: string;
  indexUuid: string;
  shardId: number;
}

export function documentMissing(id: string, s: ShardIdent): ShoalError {
  return new ShoalError('document_missing_exception', `[${id}]: document missing`, 404, {
    index_uuid: s.indexUuid,
    shard: String(s.shardId),
    index: s.index,
  });
}

export function conflict(id: string, reason: string, s: ShardIdent): ShoalError {
  return versionConflict(id, `version conflict, ${reason}`, s.index, s.indexUuid, s.shardId);
}

export function seqNoConflict(
  id: string,
  ifSeqNo: number,
  ifPrimaryTerm: number,
  current: { seqNo: number; primaryTerm: number } | undefined,
  s: ShardIdent,
): ShoalError {
  const tail = current
    ? `current document has seqNo [${current.seqNo}] and primary term [${current.primaryTerm}]`
    : 'but no document was found';
  return conflict(id, `required seqNo [${ifSeqNo}], primary term [${ifPrimaryTerm}]. ${tail}`, s);
}
