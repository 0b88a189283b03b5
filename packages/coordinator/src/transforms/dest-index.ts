/**
 * The destination index (TransformIndex): the source fields' types are read with
 * `_field_caps`, the destination's mappings deduced from them, and the index created with
 * one shard, `auto_expand_replicas: 0-1` and the `_meta` that names the transform — unless it
 * already exists, in which case it is used as it is.
 */
import { notImplemented } from '@shoal/protocol';
import type { InternalClient } from '../security/internal-client.ts';
import type { NodeServices } from '../services.ts';
import { deducePivotMappings, type FieldTypes, pivotFields } from './pivot.ts';
import { TRANSFORM_CONFIG_VERSION, type TransformConfig } from './transform-config.ts';

export async function sourceFieldTypes(
  client: InternalClient<NodeServices>,
  config: TransformConfig,
): Promise<FieldTypes> {
  const fields = config.pivot ? pivotFields(config.pivot) : [];
  if (config.sync) fields.push(config.sync.field);
  if (fields.length === 0) return {};
  const query: Record<string, string> = { fields: fields.join(','), ignore_unavailable: 'true' };
  const r = await client.call(
    'POST',
    '/:index/_field_caps',
    { index: config.source.index.join(',') },
    { query, body: config.source.runtimeMappings ? { runtime_mappings: config.source.runtimeMappings } : {} },
  );
  const out: FieldTypes = {};
  if (r.status !== 200) return out;
  for (const [name, byType] of Object.entries(
    (r.body.fields ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    const types = Object.keys(byType);
    if (types.length > 0) out[name] = types[0]!;
  }
  return out;
}

export function destMappings(
  config: TransformConfig,
  types: FieldTypes,
  now: number,
): Record<string, unknown> {
  const mappings: Record<string, unknown> = {
    _meta: {
      _transform: {
        transform: config.id,
        version: { created: TRANSFORM_CONFIG_VERSION },
        creation_date_in_millis: now,
      },
      created_by: 'transform',
    },
  };
  const deduce = config.settings.deduceMappings !== false;
  if (config.pivot && deduce) mappings.properties = deducePivotMappings(config.pivot, types);
  else if (config.latest) mappings.properties = {};
  return mappings;
}

export const DEST_INDEX_SETTINGS = { index: { number_of_shards: '1', auto_expand_replicas: '0-1' } };

export function destExists(s: NodeServices, name: string): boolean {
  return s.indices.get(name) !== undefined || s.indices.aliasTargets(name).length > 0;
}

/** Creates the destination index when missing; true when this call created it. */
export async function ensureDestIndex(
  s: NodeServices,
  client: InternalClient<NodeServices>,
  config: TransformConfig,
): Promise<boolean> {
  if (destExists(s, config.dest.index)) return false;
  const types = await sourceFieldTypes(client, config);
  const mappings = destMappings(config, types, Date.now());
  if (config.settings.deduceMappings === false) delete mappings.properties;
  const shapes = Object.entries((mappings.properties ?? {}) as Record<string, { type?: string }>)
    .filter(([, m]) => m.type === 'geo_shape')
    .map(([name]) => name);
  if (shapes.length > 0) {
    // geotile_grid group_by keys and geo_bounds results are geo_shape fields of the destination.
    throw notImplemented(`[geo_shape] destination fields [${shapes.join(', ')}] of a transform`);
  }
  const r = await client.call(
    'PUT',
    '/:index',
    { index: config.dest.index },
    { body: { settings: { number_of_shards: 1, auto_expand_replicas: '0-1' }, mappings } },
  );
  if (r.status === 200) {
    await setDestAliases(client, config);
    return true;
  }
  if (r.body?.error?.type === 'resource_already_exists_exception') return false;
  throw r.body?.error ?? new Error(`destination index [${config.dest.index}] not created: ${r.status}`);
}

/** `dest.aliases` on a destination just created (TransformIndex.setUpDestinationAliases). */
async function setDestAliases(client: InternalClient<NodeServices>, config: TransformConfig): Promise<void> {
  const aliases = config.dest.aliases ?? [];
  if (aliases.length === 0) return;
  const actions: Record<string, unknown>[] = [];
  for (const a of aliases) {
    if (a.move_on_creation) actions.push({ remove: { index: '*', alias: a.alias, must_exist: false } });
    actions.push({ add: { index: config.dest.index, alias: a.alias } });
  }
  const r = await client.call('POST', '/_aliases', {}, { body: { actions } });
  if (r.status !== 200)
    throw r.body?.error ?? new Error(`aliases of [${config.dest.index}] not set: ${r.status}`);
}
