/**
 * A node's coordination state on disk: its current term and the last cluster state it
 * accepted, written whole to a temporary file, fsynced, and renamed over the old one (then the
 * directory fsynced), so a crash leaves either the old or the new, never half of one. The
 * coordinator must have it on disk before it answers a vote or a publication.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { PersistedCoordination } from '../coordination/cluster-state.ts';

const FILE = 'coordination.json';

export class CoordinationStore {
  private readonly dir: string;

  constructor(dataPath: string) {
    this.dir = join(dataPath, '_state');
  }

  load(): PersistedCoordination | null {
    let text: string;
    try {
      text = readFileSync(join(this.dir, FILE), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    return JSON.parse(text) as PersistedCoordination;
  }

  save(state: PersistedCoordination): void {
    mkdirSync(this.dir, { recursive: true });
    const tmp = join(this.dir, `${FILE}.tmp`);
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, JSON.stringify(state));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, join(this.dir, FILE));
    const dirFd = openSync(this.dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  }
}
