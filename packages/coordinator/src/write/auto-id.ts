import { randomBytes } from 'node:crypto';

let sequence = 0;

/**
 * A 20-character URL-safe id, like Elasticsearch's auto-generated ids: a time-ordered prefix
 * (so ids of one load share prefixes, as ES's time-based UUIDs do) and random bits.
 */
export function autoId(): string {
  const buf = Buffer.allocUnsafe(15);
  buf.writeUIntBE(Date.now(), 0, 6);
  buf.writeUInt16BE(sequence++ & 0xffff, 6);
  randomBytes(7).copy(buf, 8);
  return buf.toString('base64url');
}
