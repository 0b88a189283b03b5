/**
 * Lucene's IndexFileDeleter: a file is deleted only when nothing needs it any more, i.e. it is
 * in no kept commit and no open segment (a reader behind a search, a PIT or a scroll) uses it.
 * Every user holds a reference; the last release deletes.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';

export class FileDeleter {
  private readonly refs = new Map<string, number>();
  deletedFiles = 0;

  constructor(private readonly dir: string) {}

  incRef(file: string): void {
    this.refs.set(file, (this.refs.get(file) ?? 0) + 1);
  }

  decRef(file: string): void {
    const n = (this.refs.get(file) ?? 0) - 1;
    if (n > 0) {
      this.refs.set(file, n);
      return;
    }
    this.refs.delete(file);
    rmSync(join(this.dir, file), { force: true });
    this.deletedFiles++;
  }

  isReferenced(file: string): boolean {
    return this.refs.has(file);
  }

  referenced(): string[] {
    return [...this.refs.keys()];
  }
}
