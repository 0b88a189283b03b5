/**
 * The wire between nodes: each frame is a 4-byte big-endian length and a MessagePack body.
 * MessagePack carries Buffers as binary, so bulk bytes and `_source` cross as they are, never
 * re-encoded as JSON text.
 */
import { Packr } from 'msgpackr';

/** A frame larger than this is refused: a corrupt length must not make a node allocate gigabytes. */
export const MAX_FRAME_BYTES = 512 * 1024 * 1024;

export type Envelope =
  /** The first frame each way on a connection: who is speaking. */
  | { k: 'hello'; node: unknown; clusterName: string }
  /** One-way. */
  | { k: 'msg'; action: string; body: unknown }
  | { k: 'req'; id: number; action: string; body: unknown }
  | { k: 'res'; id: number; body: unknown }
  | { k: 'err'; id: number; message: string }
  /** The sender gave up on request `id` (timeout or cancellation). */
  | { k: 'cancel'; id: number };

// Plain maps, no shared record structures: every frame decodes on its own.
const packr = new Packr({ useRecords: false, mapsAsObjects: true, int64AsType: 'bigint' });

export function encodeFrame(e: Envelope): Buffer {
  const body = packr.pack(e);
  const out = Buffer.allocUnsafe(4 + body.length);
  out.writeUInt32BE(body.length, 0);
  body.copy(out, 4);
  return out;
}

export class FrameError extends Error {}

/** Splits a byte stream into envelopes, whatever the chunk boundaries. */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): Envelope[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const out: Envelope[] = [];
    for (;;) {
      if (this.buffered < 4) break;
      const head = this.chunks.length === 1 ? this.chunks[0]! : this.flatten();
      const len = head.readUInt32BE(0);
      if (len > MAX_FRAME_BYTES) throw new FrameError(`frame of ${len} bytes is larger than allowed`);
      if (this.buffered < 4 + len) break;
      const all = this.chunks.length === 1 ? this.chunks[0]! : this.flatten();
      out.push(packr.unpack(all.subarray(4, 4 + len)) as Envelope);
      const rest = all.subarray(4 + len);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
    }
    return out;
  }

  private flatten(): Buffer {
    const b = Buffer.concat(this.chunks, this.buffered);
    this.chunks = [b];
    return b;
  }
}
