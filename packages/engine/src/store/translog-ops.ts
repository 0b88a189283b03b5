/**
 * The operations a translog frame holds, and their binary encoding. A frame records what a
 * write batch did (Elasticsearch's Translog.Index / Translog.Delete), not what it asked for:
 * an update is logged as the index of its merged `_source`, with the seq_no and version it
 * was given, so replay is deterministic and never re-runs version checks.
 *
 * Op layout: kind u8 | seqNo f64 | version f64 | primaryTerm f64 | id (u16 length + UTF-8) |
 * routing (u16 length, 0xffff = none, + UTF-8) | index only: source (u32 length + bytes).
 */

import type { WriteEffect } from '../index/write-planner.ts';

export type TranslogOp =
  | {
      kind: 'index';
      seqNo: number;
      version: number;
      primaryTerm: number;
      id: string;
      routing?: string;
      source: Uint8Array;
    }
  | { kind: 'delete'; seqNo: number; version: number; primaryTerm: number; id: string };

const KIND_INDEX = 1;
const KIND_DELETE = 2;
const NO_ROUTING = 0xffff;
const FIXED = 1 + 24 + 2 + 2;

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Encodes ops into one payload: op count u32, then the ops. `reserve` bytes are left free at
 * the front (the frame header), so a frame is written without copying its payload.
 */
export function encodeOps(ops: readonly TranslogOp[], reserve = 0): Uint8Array {
  // Ids and routings are measured first and written in place: no per-op encoded copies (each
  // would be a small native allocation, thousands per batch).
  let size = reserve + 4;
  for (const o of ops) {
    size += FIXED + Buffer.byteLength(o.id, 'utf8');
    if (o.kind === 'index') {
      if (o.routing !== undefined) size += Buffer.byteLength(o.routing, 'utf8');
      size += 4 + o.source.length;
    }
  }
  const out = new Uint8Array(size);
  const text = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  const view = new DataView(out.buffer);
  view.setUint32(reserve, ops.length, true);
  let p = reserve + 4;
  for (const o of ops) {
    view.setUint8(p, o.kind === 'index' ? KIND_INDEX : KIND_DELETE);
    view.setFloat64(p + 1, o.seqNo, true);
    view.setFloat64(p + 9, o.version, true);
    view.setFloat64(p + 17, o.primaryTerm, true);
    const idLength = text.write(o.id, p + 27, 'utf8');
    view.setUint16(p + 25, idLength, true);
    p += 27 + idLength;
    const routing = o.kind === 'index' ? o.routing : undefined;
    if (routing === undefined) {
      view.setUint16(p, NO_ROUTING, true);
      p += 2;
    } else {
      const routingLength = text.write(routing, p + 2, 'utf8');
      view.setUint16(p, routingLength, true);
      p += 2 + routingLength;
    }
    if (o.kind === 'index') {
      view.setUint32(p, o.source.length, true);
      out.set(o.source, p + 4);
      p += 4 + o.source.length;
    }
  }
  return out;
}

/**
 * Decodes a payload that passed its checksum. Throws on a malformed payload (a checksum
 * collision or a bug); `source` bytes are views into `payload`.
 */
export function decodeOps(payload: Uint8Array): TranslogOp[] {
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const count = view.getUint32(0, true);
  const ops: TranslogOp[] = [];
  let p = 4;
  for (let i = 0; i < count; i++) {
    const kind = view.getUint8(p);
    const seqNo = view.getFloat64(p + 1, true);
    const version = view.getFloat64(p + 9, true);
    const primaryTerm = view.getFloat64(p + 17, true);
    const idLen = view.getUint16(p + 25, true);
    const id = decoder.decode(payload.subarray(p + 27, p + 27 + idLen));
    p += 27 + idLen;
    const routingLen = view.getUint16(p, true);
    p += 2;
    let routing: string | undefined;
    if (routingLen !== NO_ROUTING) {
      routing = decoder.decode(payload.subarray(p, p + routingLen));
      p += routingLen;
    }
    if (kind === KIND_INDEX) {
      const len = view.getUint32(p, true);
      const source = payload.subarray(p + 4, p + 4 + len);
      if (source.length !== len) throw new RangeError('translog op runs past its frame');
      p += 4 + len;
      ops.push({ kind: 'index', seqNo, version, primaryTerm, id, routing, source });
    } else if (kind === KIND_DELETE) {
      ops.push({ kind: 'delete', seqNo, version, primaryTerm, id });
    } else {
      throw new RangeError(`unknown translog op kind [${kind}]`);
    }
  }
  if (p !== payload.length) throw new RangeError('translog frame has trailing bytes');
  return ops;
}

/** What the translog records of one applied write. */
export function translogOpOf(e: WriteEffect): TranslogOp {
  if (e.kind === 'delete') return { kind: 'delete', id: e.id, ...e.meta };
  return { kind: 'index', id: e.doc.id, routing: e.doc.routing, source: e.doc.source, ...e.meta };
}
