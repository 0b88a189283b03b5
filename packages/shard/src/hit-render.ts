/**
 * A hit's JSON as the response writes it, from `"_id"` on (the coordinator writes the
 * `{"_index":…,` before it): `_id`, `_version`, `_seq_no`, `_primary_term`, `_score`,
 * `_routing`, `_source` (its stored bytes, never parsed), `sort` — the fields, order and number
 * formats of the coordinator's own hits renderer. Shards render the hits of scroll steps ahead
 * (scroll-window.ts).
 */
import type { ShardFetchRequest, ShardFetchResult, ShardHitRef } from '@shoal/engine';
import { jsonScalar, jsonString, scoreJson, sortValuesJson } from '@shoal/protocol';

/** Where rendered JSON goes: text, and stored `_source` bytes copied as they are. */
export interface HitSink {
  text(s: string): void;
  bytes(b: Uint8Array): void;
}

export type HitFetch = Omit<ShardFetchRequest, 'docs'>;

/** Appends hit `i` of a fetch (`hit` is its query-phase entry). */
export function renderHit(
  out: HitSink,
  hit: ShardHitRef,
  f: ShardFetchResult,
  i: number,
  fetch: HitFetch,
  withSort: boolean,
  /** Bit k set: sort value k is written as a Java float or double (ShardQueryResult.floatingKeys). */
  floatingKeys: number,
): void {
  let text = `"_id":${jsonString(f.ids[i]!)}`;
  if (fetch.version) text += `,"_version":${jsonScalar(f.versions[i]!)}`;
  if (fetch.seqNoPrimaryTerm) {
    text += `,"_seq_no":${jsonScalar(f.seqNos[i]!)},"_primary_term":${jsonScalar(f.primaryTerms[i]!)}`;
  }
  text += `,"_score":${scoreJson(hit.score)}`;
  const routing = f.routing[i];
  if (routing !== null && routing !== undefined) text += `,"_routing":${jsonString(routing)}`;
  const s0 = f.sourceOffsets[i]!;
  const s1 = f.sourceOffsets[i + 1]!;
  if (fetch.source.enabled && f.sourceBytes.length > 0 && s1 > s0) {
    out.text(`${text},"_source":`);
    out.bytes(f.sourceBytes.subarray(s0, s1));
    text = '';
  }
  if (withSort) text += `,"sort":[${sortValuesJson(hit.display ?? hit.sort, floatingKeys)}]`;
  out.text(`${text}}`);
}
