/**
 * One index's metadata as JSON: the form it has on disk (`index.json`) and in the published
 * cluster state, where the mapping travels as its JSON and the aliases as an object.
 */
import { mappingSettings, restoreIndexMapping } from '@shoal/engine';
import type { FlatSettings } from '@shoal/protocol';
import type { AliasMetadata, IndexMetadata } from './index-metadata.ts';

export const INDEX_METADATA_FORMAT = 1;

export interface IndexMetadataJson {
  format: number;
  name: string;
  uuid: string;
  creationDate: number;
  settings: FlatSettings;
  mappings: Record<string, unknown>;
  aliases: Record<string, AliasMetadata>;
  numberOfShards: number;
  routingNumShards: number;
  state: 'open' | 'close';
  mappingVersion: number;
  settingsVersion: number;
  aliasesVersion: number;
}

export function indexMetadataToJson(meta: IndexMetadata): IndexMetadataJson {
  return {
    format: INDEX_METADATA_FORMAT,
    name: meta.name,
    uuid: meta.uuid,
    creationDate: meta.creationDate,
    settings: meta.settings,
    mappings: meta.mapping.toJSON(),
    aliases: Object.fromEntries(meta.aliases),
    numberOfShards: meta.numberOfShards,
    routingNumShards: meta.routingNumShards,
    state: meta.state,
    mappingVersion: meta.mappingVersion,
    settingsVersion: meta.settingsVersion,
    aliasesVersion: meta.aliasesVersion,
  };
}

/** `where` names the source in the error of an unknown format (a file, the cluster state). */
export function indexMetadataFromJson(j: IndexMetadataJson, where: string): IndexMetadata {
  if (j.format !== INDEX_METADATA_FORMAT)
    throw new Error(`unknown index metadata format [${j.format}] in ${where}`);
  return {
    name: j.name,
    uuid: j.uuid,
    creationDate: j.creationDate,
    settings: j.settings,
    mapping: restoreIndexMapping(j.mappings, { indexName: j.name, ...mappingSettings(j.settings) }),
    aliases: new Map(Object.entries(j.aliases)),
    numberOfShards: j.numberOfShards,
    routingNumShards: j.routingNumShards,
    state: j.state,
    mappingVersion: j.mappingVersion,
    settingsVersion: j.settingsVersion,
    aliasesVersion: j.aliasesVersion,
  };
}
