/** Atomic JSON state files: temp file, fsync, rename, fsync the folder. */
import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function fsyncDirectory(dir: string, ignoreMissing = false): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch (e) {
    if (ignoreMissing && (e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function writeJsonAtomic(path: string, value: unknown): void {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    writeFileSync(fd, JSON.stringify(value));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  fsyncDirectory(dir);
}
