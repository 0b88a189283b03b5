/**
 * The named index privileges (Elasticsearch's IndexPrivilege, 8.19's list) as the index action
 * patterns they grant. The 7.8 rule lives here: `create_index` (and `manage`, `all`,
 * `auto_configure`) grant `indices:admin/auto_create`, the action a write to a missing index
 * needs, while the raw `indices:admin/create` action pattern does not.
 */
import { compilePatterns, type NamePredicate } from './patterns.ts';

const AUTO_CREATE = 'indices:admin/auto_create';
const AUTO_PUT_MAPPING = 'indices:admin/mapping/auto_put';

const DEFS: Record<string, string[]> = {
  none: [],
  all: ['indices:*', 'internal:transport/proxy/indices:*'],
  read: ['indices:data/read/*', 'indices:admin/resolve/index'],
  read_cross_cluster: ['internal:transport/proxy/indices:data/read/*', 'indices:admin/shards/search_shards'],
  create: ['indices:data/write/index*', 'indices:data/write/bulk*', AUTO_PUT_MAPPING],
  create_doc: [
    'indices:data/write/index',
    'indices:data/write/index[*',
    'indices:data/write/index:op_type/create',
    'indices:data/write/bulk*',
    AUTO_PUT_MAPPING,
  ],
  index: [
    'indices:data/write/index*',
    'indices:data/write/bulk*',
    'indices:data/write/update*',
    AUTO_PUT_MAPPING,
  ],
  delete: ['indices:data/write/delete*', 'indices:data/write/bulk*'],
  write: ['indices:data/write/*', AUTO_PUT_MAPPING],
  monitor: ['indices:monitor/*'],
  manage: ['indices:monitor/*', 'indices:admin/*', 'indices:data/read/field_caps*'],
  create_index: ['indices:admin/create', AUTO_CREATE, 'indices:admin/data_stream/create'],
  delete_index: ['indices:admin/delete', 'indices:admin/data_stream/delete'],
  view_index_metadata: [
    'indices:admin/aliases/get',
    'indices:admin/get',
    'indices:admin/mappings/fields/get*',
    'indices:admin/mappings/get',
    'indices:admin/shards/search_shards',
    'indices:admin/validate/query*',
    'indices:monitor/settings/get',
    'indices:admin/ilm/explain',
    'indices:admin/data_stream/lifecycle/explain',
    'indices:admin/data_stream/get',
    'indices:admin/resolve/index',
    'indices:data/read/field_caps*',
    'indices:admin/search/search_shards',
  ],
  maintenance: [
    'indices:admin/refresh*',
    'indices:admin/flush*',
    'indices:admin/synced_flush',
    'indices:admin/forcemerge*',
  ],
  auto_configure: [AUTO_PUT_MAPPING, AUTO_CREATE, 'indices:admin/data_stream/create'],
  manage_ilm: ['indices:admin/ilm/*'],
  manage_data_stream_lifecycle: ['indices:admin/data_stream/lifecycle/*'],
  manage_follow_index: ['indices:admin/ext/ccr/*', 'indices:monitor/stats*', 'indices:admin/create'],
  manage_leader_index: ['indices:admin/ext/ccr/forget_follower*', 'indices:admin/seq_no/*'],
  cross_cluster_replication: [
    'indices:data/read/ext/ccr/shard_changes*',
    'indices:monitor/stats*',
    'indices:admin/seq_no/*',
  ],
  cross_cluster_replication_internal: [
    'indices:internal/admin/ccr/restore/*',
    'internal:admin/ccr/restore/*',
  ],
};

/** The names `GET /_security/privilege/_builtin` lists, sorted. */
export const INDEX_PRIVILEGE_NAMES: readonly string[] = Object.freeze(Object.keys(DEFS).sort());

const compiled = new Map<string, NamePredicate>();

export function indexPrivilege(name: string): NamePredicate | undefined {
  let p = compiled.get(name);
  if (p) return p;
  const def = DEFS[name];
  if (!def) return undefined;
  p = compilePatterns(def);
  compiled.set(name, p);
  return p;
}

/** A privilege in a role's index entry: a name, or an index action pattern (`indices:admin/create`). */
export function indexPrivilegeOrPattern(entry: string): NamePredicate | undefined {
  const named = indexPrivilege(entry);
  if (named) return named;
  if (entry.startsWith('indices:') || entry.startsWith('internal:transport/proxy/indices:'))
    return compilePatterns([entry]);
  return undefined;
}

/** The action a write to a missing index is authorized for besides its own. */
export const AUTO_CREATE_ACTION = AUTO_CREATE;

/** Every action pattern the named privileges are made of (samples for comparing privileges). */
export const INDEX_PRIVILEGE_PATTERNS: readonly string[] = Object.freeze([
  ...new Set(Object.values(DEFS).flat()),
]);
