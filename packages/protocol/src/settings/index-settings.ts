/**
 * Index settings (IndexScopedSettings.BUILT_IN_INDEX_SETTINGS and the index settings of
 * Elasticsearch's bundled modules), declared once. Defaults and bounds are Elasticsearch 8's.
 * This file holds the index's identity, shards and routing, blocks, search limits and
 * lifecycle; index-settings-engine.ts the storage side (translog, merges, slow logs, store);
 * index-settings-mapping.ts mappings, sorting and the index mode; index-setting-groups.ts the
 * prefix families.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { defaultRoutingNumShards } from '../routing/shard-routing.ts';
import { javaInt, javaLong } from '../values/params.ts';
import {
  BOOL,
  dyn,
  final,
  index,
  int,
  long,
  oneOf,
  validateActiveShardCount,
} from './index-setting-builder.ts';
import { ENGINE_SETTINGS } from './index-settings-engine.ts';
import { MAPPING_SETTINGS } from './index-settings-mapping.ts';
import type { Setting } from './setting.ts';

export { INDEX_SETTING_GROUPS } from './index-setting-groups.ts';

const MAX_NUMBER_OF_SHARDS = 1024;

/**
 * AutoExpandReplicas.parse: `false`, or `<min>-<max>` where max may be `all`.
 * Returns undefined for `false`.
 */
export function parseAutoExpandReplicas(value: string): { min: number; max: number } | undefined {
  if (value === 'false') return undefined;
  const dash = value.indexOf('-');
  const fail = () =>
    illegalArgument(`failed to parse [index.auto_expand_replicas] from value: [${value}] at index ${dash}`);
  if (dash === -1) throw fail();
  const min = javaInt(value.slice(0, dash));
  const rest = value.slice(dash + 1);
  const max = rest === 'all' ? 2147483647 : javaInt(rest);
  if (min === undefined || max === undefined) throw fail();
  if (min > max) {
    throw illegalArgument(
      `[index.auto_expand_replicas] minReplicas must be =< maxReplicas but wasn't ${min} > ${max}`,
    );
  }
  return { min, max };
}

function validateLong(value: string, key: string): void {
  if (javaLong(value) === undefined)
    throw illegalArgument(`Failed to parse value [${value}] for setting [${key}]`);
}

const DATA_TIERS = ['data_content', 'data_hot', 'data_warm', 'data_cold', 'data_frozen'];

/** DataTier's validator: a comma list of tier names (or empty). */
function validateTierPreference(value: string): void {
  if (value.trim() === '') return;
  const tiers = value.split(',').map((t) => t.trim());
  if (tiers.some((t) => !DATA_TIERS.includes(t))) {
    throw illegalArgument(
      `invalid tier names found in [${value}] allowed values are [${DATA_TIERS.join(', ')}]`,
    );
  }
}

const ALLOCATION_ENABLE = ['all', 'primaries', 'new_primaries', 'none'];
const REBALANCE_ENABLE = ['all', 'primaries', 'replicas', 'none'];

/** The API blocks (IndexMetadata.APIBlock): each a dynamic boolean `index.blocks.<name>`. */
export const BLOCK_NAMES = ['read_only', 'read', 'write', 'metadata', 'read_only_allow_delete'] as const;

/** Identity, shards, replicas and routing (IndexMetadata, the allocation deciders). */
const METADATA_SETTINGS: readonly Setting[] = [
  index('index.number_of_shards', int(1, MAX_NUMBER_OF_SHARDS), '1', final),
  index('index.number_of_replicas', int(0), '1', dyn),
  index(
    'index.number_of_routing_shards',
    int(1),
    (flat) => {
      const shards = javaInt(String(flat['index.number_of_shards'] ?? '1')) ?? 1;
      return String(defaultRoutingNumShards(shards));
    },
    final,
  ),
  index('index.routing_partition_size', int(1), '1', final),
  index(
    'index.auto_expand_replicas',
    { kind: 'string', validate: (v) => void parseAutoExpandReplicas(v) },
    'false',
    dyn,
  ),
  index('index.hidden', BOOL, 'false', dyn),
  index('index.priority', int(0), '1', dyn),
  index('index.format', int(), '0', final),
  index('index.data_path', { kind: 'string' }, '', { deprecated: true }),
  index(
    'index.write.wait_for_active_shards',
    { kind: 'string', validate: validateActiveShardCount },
    '1',
    dyn,
  ),
  index('index.routing.allocation.total_shards_per_node', int(-1), '-1', dyn),
  index(
    'index.routing.allocation.enable',
    oneOf(ALLOCATION_ENABLE, (v) => `Illegal allocation.enable value [${v}]`),
    'all',
    dyn,
  ),
  index(
    'index.routing.rebalance.enable',
    oneOf(REBALANCE_ENABLE, (v) => `Illegal rebalance.enable value [${v}]`),
    'all',
    dyn,
  ),
  index('index.allocation.max_retries', int(0), '5', dyn),
  index(
    'index.routing.allocation.include._tier_preference',
    { kind: 'string', validate: validateTierPreference },
    '',
    dyn,
  ),
  index('index.unassigned.node_left.delayed_timeout', { kind: 'time', minMs: 0, minText: '0ms' }, '1m', dyn),
  ...BLOCK_NAMES.map((b) => index(`index.blocks.${b}`, BOOL, 'false', dyn)),
  // Filled in by the cluster at creation. `index.creation_date` may be given at creation (Elasticsearch allows it).
  index('index.creation_date', { kind: 'string', validate: validateLong }, '-1'),
  index('index.uuid', { kind: 'string' }, '_na_', { private: true }),
  index('index.version.created', { kind: 'string' }, '', { private: true }),
  index('index.provided_name', { kind: 'string' }, '', { private: true }),
];

/** Search and request limits (IndexSettings): each is enforced where Shoal has the feature. */
const SEARCH_SETTINGS: readonly Setting[] = [
  index('index.max_result_window', int(1), '10000', dyn),
  index('index.max_inner_result_window', int(1), '100', dyn),
  index('index.max_rescore_window', int(1), (flat) => flat['index.max_result_window'] ?? '10000', dyn),
  index('index.max_slices_per_scroll', int(1), '1024', dyn),
  index('index.max_script_fields', int(0), '32', dyn),
  index('index.max_docvalue_fields_search', int(0), '100', dyn),
  index('index.max_terms_count', int(1), '65536', dyn),
  index('index.max_regex_length', int(1), '1000', dyn),
  index('index.max_ngram_diff', int(0), '1', dyn),
  index('index.max_shingle_diff', int(0), '3', dyn),
  index('index.max_refresh_listeners', int(0), '1000', dyn),
  index('index.analyze.max_token_count', int(1), '10000', dyn),
  index('index.highlight.max_analyzed_offset', int(1), '1000000', dyn),
  index('index.highlight.weight_matches_mode.enabled', BOOL, 'true', dyn),
  index('index.query.default_field', { kind: 'list' }, ['*'], dyn),
  index('index.query_string.lenient', BOOL, 'false'),
  index('index.query.parse.allow_unmapped_fields', BOOL, 'true'),
  index('index.search.idle.after', { kind: 'time', minMs: 0, minText: '0m' }, '30s', dyn),
  index('index.requests.cache.enable', BOOL, 'true', dyn),
  index('index.queries.cache.enabled', BOOL, 'true'),
  index('index.warmer.enabled', BOOL, 'true', dyn),
  // Ingest pipelines: `_none` is Elasticsearch's no-op pipeline.
  index('index.default_pipeline', { kind: 'string' }, '_none', dyn),
  index('index.final_pipeline', { kind: 'string' }, '_none', dyn),
];

/** Index lifecycle management (IndexSettings and LifecycleSettings). */
const LIFECYCLE_SETTINGS: readonly Setting[] = [
  index('index.lifecycle.name', { kind: 'string' }, '', dyn),
  index('index.lifecycle.rollover_alias', { kind: 'string' }, '', dyn),
  index('index.lifecycle.indexing_complete', BOOL, 'false', dyn),
  index('index.lifecycle.origination_date', long(-1), '-1', dyn),
  index('index.lifecycle.parse_origination_date', BOOL, 'false', dyn),
  index('index.lifecycle.skip', BOOL, 'false', dyn),
  index('index.lifecycle.prefer_ilm', BOOL, 'true', dyn),
  index(
    'index.lifecycle.step.wait_time_threshold',
    { kind: 'time', minMs: 3_600_000, minText: '1h' },
    '12h',
    dyn,
  ),
];

export const INDEX_SETTINGS: readonly Setting[] = [
  ...METADATA_SETTINGS,
  ...SEARCH_SETTINGS,
  ...ENGINE_SETTINGS,
  ...MAPPING_SETTINGS,
  ...LIFECYCLE_SETTINGS,
];
