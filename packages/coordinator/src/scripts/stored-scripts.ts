/**
 * Stored scripts (`PUT|GET|DELETE /_scripts/{id}`): kept beside the node's metadata
 * (`<data>/_state/scripts.json`, written atomically) until there is a cluster state to hold
 * them, as Elasticsearch's ScriptMetadata does. A search naming a stored script by `id` gets its
 * source while it is parsed, before it reaches the shards.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../state/state-files.ts';

export interface StoredScript {
  lang: string;
  source: string;
}

const FORMAT = 1;

export class StoredScripts {
  private readonly path: string;
  private scripts = new Map<string, StoredScript>();
  private readonly listeners: (() => void)[] = [];

  constructor(stateDir: string) {
    this.path = join(stateDir, 'scripts.json');
    try {
      const j = JSON.parse(readFileSync(this.path, 'utf8')) as {
        format: number;
        scripts: Record<string, StoredScript>;
      };
      if (j.format !== FORMAT) throw new Error(`unknown stored scripts format [${j.format}] in ${this.path}`);
      this.scripts = new Map(Object.entries(j.scripts));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }

  /** Called after every change (the node drops the search parses that resolved the old scripts). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  get(id: string): StoredScript | undefined {
    return this.scripts.get(id);
  }

  put(id: string, script: StoredScript): void {
    const next = new Map(this.scripts);
    next.set(id, script);
    this.commit(next);
  }

  /** False when there was no such script. */
  delete(id: string): boolean {
    if (!this.scripts.has(id)) return false;
    const next = new Map(this.scripts);
    next.delete(id);
    this.commit(next);
    return true;
  }

  private commit(next: Map<string, StoredScript>): void {
    writeJsonAtomic(this.path, { format: FORMAT, scripts: Object.fromEntries(next) });
    this.scripts = next;
    for (const l of this.listeners) l();
  }
}
