/**
 * Index settings (IndexMetadata, IndexSettings, MetadataCreateIndexService), declared once.
 * Defaults and bounds are Elasticsearch 8's.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { defaultRoutingNumShards } from '../routing/shard-routing.ts';
import { javaInt, javaLong } from '../values/params.ts';
import type { Setting, SettingGroup } from './setting.ts';

const MAX_NUMBER_OF_SHARDS = 1024;

function index(
  key: string,
  type: Setting['type'],
  def: Setting['default'],
  props: { dynamic?: boolean; final?: boolean; private?: boolean } = {},
): Setting {
  return {
    key,
    type,
    default: def,
    scope: 'index',
    dynamic: props.dynamic ?? false,
    final: props.final,
    private: props.private,
  };
}

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

export const INDEX_SETTINGS: readonly Setting[] = [
  index('index.number_of_shards', { kind: 'int', min: 1, max: MAX_NUMBER_OF_SHARDS }, '1', { final: true }),
  index('index.number_of_replicas', { kind: 'int', min: 0 }, '1', { dynamic: true }),
  index(
    'index.number_of_routing_shards',
    { kind: 'int', min: 1 },
    (flat) => {
      const shards = javaInt(String(flat['index.number_of_shards'] ?? '1')) ?? 1;
      return String(defaultRoutingNumShards(shards));
    },
    { final: true },
  ),
  index('index.routing_partition_size', { kind: 'int', min: 1 }, '1', { final: true }),
  index('index.refresh_interval', { kind: 'time', minMs: -1 }, '1s', { dynamic: true }),
  index('index.max_result_window', { kind: 'int', min: 1 }, '10000', { dynamic: true }),
  index('index.max_inner_result_window', { kind: 'int', min: 1 }, '100', { dynamic: true }),
  index(
    'index.max_rescore_window',
    { kind: 'int', min: 1 },
    (flat) => flat['index.max_result_window'] ?? '10000',
    {
      dynamic: true,
    },
  ),
  index('index.max_slices_per_scroll', { kind: 'int', min: 1 }, '1024', { dynamic: true }),
  index('index.highlight.max_analyzed_offset', { kind: 'int', min: 1 }, '1000000', { dynamic: true }),
  index('index.max_docvalue_fields_search', { kind: 'int', min: 0 }, '100', { dynamic: true }),
  index('index.max_terms_count', { kind: 'int', min: 1 }, '65536', { dynamic: true }),
  index('index.max_regex_length', { kind: 'int', min: 1 }, '1000', { dynamic: true }),
  index('index.query.default_field', { kind: 'list' }, ['*'], { dynamic: true }),
  index('index.mapping.total_fields.limit', { kind: 'int', min: 0 }, '1000', { dynamic: true }),
  index(
    'index.translog.durability',
    {
      kind: 'enum',
      values: ['request', 'async'],
      invalid: (v) =>
        `No enum constant org.elasticsearch.index.translog.Translog.Durability.${v.toUpperCase()}`,
    },
    'request',
    { dynamic: true },
  ),
  index('index.translog.sync_interval', { kind: 'time', minMs: 100 }, '5s', { dynamic: true }),
  index('index.translog.flush_threshold_size', { kind: 'bytes' }, '10gb', { dynamic: true }),
  index(
    'index.auto_expand_replicas',
    { kind: 'string', validate: (v) => void parseAutoExpandReplicas(v) },
    'false',
    { dynamic: true },
  ),
  index('index.hidden', { kind: 'bool' }, 'false', { dynamic: true }),
  index(
    'index.codec',
    {
      kind: 'enum',
      values: ['default', 'best_compression'],
      invalid: (v) =>
        `unknown value for [index.codec] must be one of [default, best_compression] but was: ${v}`,
    },
    'default',
  ),
  index('index.blocks.read_only', { kind: 'bool' }, 'false', { dynamic: true }),
  index('index.blocks.read_only_allow_delete', { kind: 'bool' }, 'false', { dynamic: true }),
  index('index.blocks.read', { kind: 'bool' }, 'false', { dynamic: true }),
  index('index.blocks.write', { kind: 'bool' }, 'false', { dynamic: true }),
  index('index.blocks.metadata', { kind: 'bool' }, 'false', { dynamic: true }),
  // Filled in by the cluster at creation. `index.creation_date` may be given at creation (Elasticsearch allows it).
  index('index.creation_date', { kind: 'string', validate: validateLong }, '-1'),
  index('index.uuid', { kind: 'string' }, '_na_', { private: true }),
  index('index.version.created', { kind: 'string' }, '', { private: true }),
  index('index.provided_name', { kind: 'string' }, '', { private: true }),
];

/** Free-form families: analysis chains, similarities, allocation filters. */
export const INDEX_SETTING_GROUPS: readonly SettingGroup[] = [
  { prefix: 'index.analysis.', scope: 'index', dynamic: false },
  { prefix: 'index.similarity.', scope: 'index', dynamic: false },
  { prefix: 'index.routing.allocation.include.', scope: 'index', dynamic: true },
  { prefix: 'index.routing.allocation.exclude.', scope: 'index', dynamic: true },
  { prefix: 'index.routing.allocation.require.', scope: 'index', dynamic: true },
];
