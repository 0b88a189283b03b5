/**
 * The fetch phase on one shard: ids, routing, versions and `_source` of the winning docs, in
 * the requested order. Stored `_source` bytes are copied verbatim into one packed buffer;
 * only `_source` includes/excludes make a document be parsed and re-serialised.
 */
import { applySourceFilter, parseJson, stringifyJson } from '@shoal/protocol';
import type { ShardFetchRequest, ShardFetchResult } from '../contract.ts';
import { type ShardReader, segmentOf } from '../index/shard-reader.ts';

const encoder = new TextEncoder();

export function executeFetch(reader: ShardReader, req: ShardFetchRequest): ShardFetchResult {
  const n = req.docs.length;
  const ids: string[] = new Array(n);
  const routing: (string | null)[] = new Array(n);
  const versions: number[] = new Array(n);
  const seqNos: number[] = new Array(n);
  const primaryTerms: number[] = new Array(n);
  const pieces: Uint8Array[] = [];
  const filter = req.source;
  const filtering = filter.enabled && (filter.includes.length > 0 || filter.excludes.length > 0);
  let size = 0;
  for (let i = 0; i < n; i++) {
    const doc = req.docs[i]!;
    const rs = segmentOf(reader, doc);
    const local = doc - rs.docBase;
    const st = rs.segment.stored;
    ids[i] = st.ids[local]!;
    routing[i] = st.routing[local] ?? null;
    versions[i] = st.versions[local]!;
    seqNos[i] = st.seqNos[local]!;
    primaryTerms[i] = st.primaryTerms[local]!;
    if (!filter.enabled) continue;
    let bytes = rs.segment.source(local);
    if (filtering)
      bytes = encoder.encode(stringifyJson(applySourceFilter(parseJson(bytes, '_source'), filter)));
    pieces.push(bytes);
    size += bytes.length;
  }
  const sourceBytes = new Uint8Array(size);
  const sourceOffsets = new Uint32Array(n + 1);
  if (filter.enabled) {
    let at = 0;
    for (let i = 0; i < n; i++) {
      const p = pieces[i]!;
      sourceBytes.set(p, at);
      at += p.length;
      sourceOffsets[i + 1] = at;
    }
  }
  return { ids, routing, versions, seqNos, primaryTerms, sourceBytes, sourceOffsets };
}
