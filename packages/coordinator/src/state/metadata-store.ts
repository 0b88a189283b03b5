/**
 * The node's own state on disk, under its data path (`path.data`):
 *
 *   <data>/_state/node.json                         node id, cluster uuid, persistent cluster settings
 *   <data>/_state/templates.json                    index, component and legacy templates
 *   <data>/_state/data-streams.json                 data streams (their backing indices are indices)
 *   <data>/indices/<index uuid>/_state/index.json   one index's metadata: settings, mappings, aliases
 *   <data>/indices/<index uuid>/<shard id>/         a shard copy (index/ and translog/, see @shoal/engine)
 *
 * Every state file is written atomically (temp file, fsync, rename, fsync the folder), so a
 * crash leaves the old version or the new one. A mapping change is durable before any document
 * that needed it is acknowledged; an index folder without its `index.json` (a create that did
 * not finish, or a delete that did) is removed when the node starts.
 */
import { type Dirent, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FlatSettings } from '@shoal/protocol';
import type { DataStreamMetadata } from './data-streams.ts';
import type { IndexMetadata } from './index-metadata.ts';
import { type IndexMetadataJson, indexMetadataFromJson, indexMetadataToJson } from './index-metadata-json.ts';
import type { TemplatesJson } from './index-templates.ts';
import { fsyncDirectory, writeJsonAtomic } from './state-files.ts';

export interface NodeStateJson {
  nodeId: string;
  clusterUuid: string;
  persistentSettings: FlatSettings;
}

export class MetadataStore {
  readonly indicesDir: string;
  readonly stateDir: string;

  constructor(readonly dataPath: string) {
    this.indicesDir = join(dataPath, 'indices');
    this.stateDir = join(dataPath, '_state');
    mkdirSync(this.indicesDir, { recursive: true });
    mkdirSync(this.stateDir, { recursive: true });
  }

  indexDir(uuid: string): string {
    return join(this.indicesDir, uuid);
  }

  shardPath(uuid: string, shardId: number): string {
    return join(this.indicesDir, uuid, String(shardId));
  }

  saveIndex(meta: IndexMetadata): void {
    const json = indexMetadataToJson(meta);
    const dir = join(this.indexDir(meta.uuid), '_state');
    mkdirSync(dir, { recursive: true });
    writeJsonAtomic(join(dir, 'index.json'), json);
    fsyncDirectory(this.indicesDir);
  }

  /** The shard folders under the data path (Elasticsearch's started-shard states a node lists for the master). */
  shardFolders(): { indexUuid: string; shard: number }[] {
    const out: { indexUuid: string; shard: number }[] = [];
    for (const uuid of readdirSync(this.indicesDir)) {
      let entries: Dirent[];
      try {
        entries = readdirSync(this.indexDir(uuid), { withFileTypes: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR')
          continue;
        throw e;
      }
      for (const d of entries)
        if (d.isDirectory() && /^\d+$/.test(d.name)) out.push({ indexUuid: uuid, shard: Number(d.name) });
    }
    return out;
  }

  /** Deletes an index: its metadata first (so a crash midway never resurrects it), then its files. */
  deleteIndex(uuid: string): void {
    const dir = this.indexDir(uuid);
    rmSync(join(dir, '_state', 'index.json'), { force: true });
    fsyncDirectory(join(dir, '_state'), true);
    rmSync(dir, { recursive: true, force: true });
    fsyncDirectory(this.indicesDir);
  }

  /** Every index on disk; folders without metadata are leftovers and are removed. */
  loadIndices(): { metas: IndexMetadata[]; removed: string[] } {
    const metas: IndexMetadata[] = [];
    const removed: string[] = [];
    for (const uuid of readdirSync(this.indicesDir)) {
      const file = join(this.indexDir(uuid), '_state', 'index.json');
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        rmSync(this.indexDir(uuid), { recursive: true, force: true });
        removed.push(uuid);
        continue;
      }
      metas.push(indexMetadataFromJson(JSON.parse(text) as IndexMetadataJson, file));
    }
    metas.sort((a, b) => a.creationDate - b.creationDate);
    return { metas, removed };
  }

  loadNodeState(): NodeStateJson | undefined {
    try {
      return JSON.parse(readFileSync(join(this.stateDir, 'node.json'), 'utf8')) as NodeStateJson;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  saveNodeState(state: NodeStateJson): void {
    writeJsonAtomic(join(this.stateDir, 'node.json'), state);
  }

  loadDataStreams(): DataStreamMetadata[] | undefined {
    try {
      return JSON.parse(
        readFileSync(join(this.stateDir, 'data-streams.json'), 'utf8'),
      ) as DataStreamMetadata[];
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  saveDataStreams(streams: DataStreamMetadata[]): void {
    writeJsonAtomic(join(this.stateDir, 'data-streams.json'), streams);
  }

  loadTemplates(): TemplatesJson | undefined {
    try {
      return JSON.parse(readFileSync(join(this.stateDir, 'templates.json'), 'utf8')) as TemplatesJson;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  saveTemplates(json: TemplatesJson): void {
    writeJsonAtomic(join(this.stateDir, 'templates.json'), json);
  }
}
