/**
 * Peer recovery's first phase, from one reader: every live document of the shard as the
 * operation that last wrote it (seq_no, version, term, routing and the stored `_source`), in
 * batches of about `batchBytes` of source. A recovering replica applies them with
 * `ShardEngine.applyReplicated`, which skips any that a replicated write has overtaken.
 *
 * Shoal copies documents rather than segment files: a copy's segments are its own (names,
 * merges), and the operations are what the replica needs to index them under its mapping. A
 * document whose `_source` is not stored (`_source.enabled: false`) or cut by
 * `_source.includes/excludes` is recovered as stored: the replica indexes what the primary
 * kept (Elasticsearch keeps a separate recovery source for such documents; Shoal does not).
 */
import type { TranslogOp } from '../store/translog-ops.ts';
import type { ShardReader } from './shard-reader.ts';
import { segmentDocState } from './write-planner.ts';

export function* recoveryOps(reader: ShardReader, batchBytes = 1 << 20): Generator<TranslogOp[]> {
  let batch: TranslogOp[] = [];
  let bytes = 0;
  for (const { segment, liveDocs } of reader.segments) {
    for (let doc = 0; doc < segment.maxDoc; doc++) {
      if (!liveDocs.isLive(doc)) continue;
      const st = segmentDocState(segment, doc);
      const source = st.source ?? new Uint8Array(0);
      batch.push({
        kind: 'index',
        seqNo: st.seqNo,
        version: st.version,
        primaryTerm: st.primaryTerm,
        id: segment.id(doc),
        routing: st.routing,
        source,
      });
      bytes += source.length + 64;
      if (bytes >= batchBytes) {
        yield batch;
        batch = [];
        bytes = 0;
      }
    }
  }
  if (batch.length > 0) yield batch;
}
