/**
 * Live-docs files (Lucene's `.liv`): a segment's deleted-docs bitset as of a commit, written
 * next to the segment at flush as `<segment>_<delCount>.liv`. A segment file never changes, so
 * deletes that arrive later go to a new live-docs file at the next commit.
 */
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { CorruptionError, checksum } from './checksum.ts';
import { readFileOrUndefined, writeFully } from './files.ts';

/** Writes the bitset (not synced); returns the file name and CRC. */
export function writeLiveDocs(
  dir: string,
  segment: string,
  deleted: Uint32Array,
  delCount: number,
): { file: string; crc: number } {
  const file = `${segment}_${delCount.toString(36)}.liv`;
  const bits = new Uint8Array(deleted.buffer, deleted.byteOffset, deleted.byteLength);
  const crc = checksum(bits);
  const out = new Uint8Array(bits.length + 4);
  out.set(bits);
  new DataView(out.buffer).setUint32(bits.length, crc, true);
  const fd = openSync(join(dir, file), 'w');
  try {
    writeFully(fd, out);
  } finally {
    closeSync(fd);
  }
  return { file, crc };
}

export function readLiveDocs(dir: string, file: string, maxDoc: number, crc: number): Uint32Array {
  const path = join(dir, file);
  const bytes = readFileOrUndefined(path);
  const words = (maxDoc + 31) >>> 5;
  if (!bytes || bytes.length !== words * 4 + 4)
    throw new CorruptionError(path, 'live docs file is missing or has the wrong length');
  const bits = bytes.subarray(0, words * 4);
  const stored = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(words * 4, true);
  if (stored !== crc || checksum(bits) !== crc) throw new CorruptionError(path, 'live docs checksum failed');
  const out = new Uint32Array(words);
  new Uint8Array(out.buffer).set(bits);
  return out;
}
