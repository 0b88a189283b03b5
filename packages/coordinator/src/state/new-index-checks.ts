/**
 * What MetadataCreateIndexService adds to and checks of a new index beyond its settings' own
 * validation: the default tier preference, the routing partition against the routing shards
 * and the mapping, and the index sort against the mapping.
 */
import type { IndexMapping } from '@shoal/engine';
import {
  checkIndexSort,
  type FlatSettings,
  getInt,
  illegalArgument,
  type SettingsUpdate,
  type ShoalError,
} from '@shoal/protocol';

/**
 * DataTier.DefaultHotAllocationSettingProvider: a new index prefers the content tier unless
 * the request names a tier preference or any allocation filter of its own.
 */
export function defaultTierPreference(given: SettingsUpdate): FlatSettings {
  const own = Object.keys(given).some((k) =>
    /^index\.routing\.allocation\.(include|exclude|require)\./.test(k),
  );
  return own ? {} : { 'index.routing.allocation.include._tier_preference': 'data_content' };
}

/** DocumentMapper.validate: a partitioned index's documents must all carry a routing value. */
export function partitionNeedsRouting(index: string): ShoalError {
  return illegalArgument(`mapping type [_doc] must have routing required for partitioned index [${index}]`);
}

/** IndexMetadata.Builder.build: the partition must be smaller than the routing shards. */
export function checkRoutingPartition(
  settings: Readonly<FlatSettings>,
  routingNumShards: number,
  index: { name: string; uuid: string },
): void {
  const partition = getInt(settings, 'index.routing_partition_size');
  if (partition !== 1 && partition >= routingNumShards) {
    throw illegalArgument(
      `routing partition size [${partition}] should be a positive number less than the number of routing shards [${routingNumShards}] for [[${index.name}/${index.uuid}]]`,
    );
  }
}

/**
 * The checks that need the new index's mapping: a partitioned index's mapping requires routing
 * (when a mapping was given: without one the first dynamic update is refused instead), and the
 * index sort names sortable fields.
 */
export function checkNewMapping(
  name: string,
  settings: Readonly<FlatSettings>,
  mapping: IndexMapping,
  mappingGiven: boolean,
): void {
  const partition = getInt(settings, 'index.routing_partition_size');
  if (partition > 1 && mappingGiven && !mapping.routingRequired) throw partitionNeedsRouting(name);
  checkIndexSort(settings, {
    field: (path) => mapping.field(path),
    hasNested: hasNestedField(mapping.toJSON()),
  });
}

/** Whether a mappings JSON holds a `nested` field at any depth. */
function hasNestedField(json: Record<string, unknown>): boolean {
  const props = json.properties as Record<string, Record<string, unknown>> | undefined;
  if (!props) return false;
  return Object.values(props).some((f) => f.type === 'nested' || hasNestedField(f));
}
