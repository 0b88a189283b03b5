/**
 * The file operations durability rests on. A file that must appear whole or not at all (a
 * commit point, index metadata) is written to a temporary name, fsynced, renamed over its
 * final name, and its folder fsynced so the rename itself survives a crash.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** fsync a folder, making the creation, rename or deletion of its entries durable. */
export function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function fsyncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes all of `bytes` at the fd's position (writeSync may write less than asked). */
export function writeFully(fd: number, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
}

/** Temp file, fsync, rename, fsync the folder: readers see the old bytes or the new, never a mix. */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    writeFully(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  fsyncDir(dir);
}

export function readFileOrUndefined(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

export function removeQuietly(path: string): void {
  rmSync(path, { force: true, recursive: true });
}
