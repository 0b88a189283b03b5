/**
 * The index settings a mapping obeys (`index.mapping.*`), read from an index's flat settings
 * into the plain options a mapping is built with — plain so they travel to shard workers with
 * the mapping itself, and dynamic mappings there obey the same limits.
 */
import { type FlatSettings, getBool, getLong } from '@shoal/protocol';
import type { IndexMappingOptions } from './index-mapping.ts';

export type MappingSettings = Omit<IndexMappingOptions, 'indexName'>;

/** Whether a settings key changes what mappingSettings returns. */
export function isMappingSetting(key: string): boolean {
  return key.startsWith('index.mapping.');
}

export function mappingSettings(flat: Readonly<FlatSettings>): MappingSettings {
  return {
    totalFieldsLimit: getLong(flat, 'index.mapping.total_fields.limit'),
    depthLimit: getLong(flat, 'index.mapping.depth.limit'),
    nestedFieldsLimit: getLong(flat, 'index.mapping.nested_fields.limit'),
    nestedObjectsLimit: getLong(flat, 'index.mapping.nested_objects.limit'),
    fieldNameLengthLimit: getLong(flat, 'index.mapping.field_name_length.limit'),
    coerce: getBool(flat, 'index.mapping.coerce'),
    ignoreMalformed: getBool(flat, 'index.mapping.ignore_malformed'),
  };
}
