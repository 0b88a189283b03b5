/**
 * The named cluster privileges (Elasticsearch's ClusterPrivilegeResolver, 8.19's list) as the
 * action patterns they grant, with the exclusions some carry (`manage` is every cluster action
 * but security's). Transport action names use Shoal's `ext` segment where Elasticsearch's
 * extension names its own.
 */
import { compilePatterns, type NamePredicate } from './patterns.ts';

const SECURITY = 'cluster:admin/ext/security/*';
const DELEGATE_PKI = 'cluster:admin/ext/security/delegate_pki';

/** The actions `read_security` grants (ClusterPrivilegeResolver.READ_SECURITY). */
const READ_SECURITY_ACTIONS = [
  'cluster:admin/ext/security/api_key/get',
  'cluster:admin/ext/security/api_key/query',
  'cluster:admin/ext/security/privilege/builtin/get',
  'cluster:admin/ext/security/privilege/get',
  'cluster:admin/ext/security/profile/get',
  'cluster:admin/ext/security/profile/suggest',
  'cluster:admin/ext/security/profile/has_privileges',
  'cluster:admin/ext/security/role/get',
  'cluster:admin/ext/security/role/query',
  'cluster:admin/ext/security/role_mapping/get',
  'cluster:admin/ext/security/service_account/get',
  'cluster:admin/ext/security/service_account/credential/get',
  'cluster:admin/ext/security/service_account/credential/get[n]',
  'cluster:admin/ext/security/user/get',
  'cluster:admin/ext/security/user/query',
  'cluster:admin/ext/security/user/list_privileges',
  'cluster:admin/ext/security/user/has_privileges',
  'cluster:admin/ext/security/settings/get',
];

interface Def {
  grant: string[];
  except?: string[];
}

const DEFS: Record<string, Def> = {
  none: { grant: [] },
  all: { grant: ['cluster:*'] },
  monitor: { grant: ['cluster:monitor/*'] },
  monitor_enrich: { grant: ['cluster:monitor/ext/enrich/*', 'cluster:admin/ext/enrich/get'] },
  monitor_inference: { grant: ['cluster:monitor/ext/inference*'] },
  monitor_ml: { grant: ['cluster:monitor/ext/ml/*'] },
  monitor_rollup: { grant: ['cluster:monitor/ext/rollup/*'] },
  monitor_snapshot: {
    grant: ['cluster:admin/snapshot/status*', 'cluster:admin/snapshot/get', 'cluster:admin/repository/get'],
  },
  monitor_stats: { grant: ['cluster:monitor/stats*'] },
  monitor_text_structure: { grant: ['cluster:monitor/text_structure/*'] },
  monitor_transform: { grant: ['cluster:monitor/data_frame/*', 'cluster:monitor/transform/*'] },
  monitor_data_frame_transforms: { grant: ['cluster:monitor/data_frame/*', 'cluster:monitor/transform/*'] },
  monitor_watcher: { grant: ['cluster:monitor/ext/watcher/*'] },
  monitor_connector: { grant: ['cluster:admin/ext/connector/get', 'cluster:admin/ext/connector/list'] },
  monitor_data_stream_global_retention: { grant: ['cluster:monitor/data_stream/global_retention/*'] },
  manage: {
    grant: ['cluster:*', 'indices:admin/template/*', 'indices:admin/index_template/*'],
    except: [SECURITY],
  },
  manage_security: { grant: [SECURITY], except: [DELEGATE_PKI] },
  read_security: { grant: READ_SECURITY_ACTIONS },
  manage_api_key: { grant: ['cluster:admin/ext/security/api_key/*'] },
  // Further limited to the caller's own keys by the API-key handlers; never grant or clear_cache
  // (ManageOwnApiKeyClusterPrivilege accepts only these requests).
  manage_own_api_key: {
    grant: [
      'cluster:admin/ext/security/api_key/create',
      'cluster:admin/ext/security/api_key/get',
      'cluster:admin/ext/security/api_key/invalidate',
      'cluster:admin/ext/security/api_key/update',
      'cluster:admin/ext/security/api_key/bulk_update',
      'cluster:admin/ext/security/api_key/query',
    ],
  },
  grant_api_key: { grant: ['cluster:admin/ext/security/api_key/grant'] },
  manage_service_account: { grant: ['cluster:admin/ext/security/service_account/*'] },
  manage_user_profile: { grant: ['cluster:admin/ext/security/profile/*'] },
  manage_token: { grant: ['cluster:admin/ext/security/token/*'] },
  manage_oidc: { grant: ['cluster:admin/ext/security/oidc/*'] },
  manage_saml: {
    grant: [
      'cluster:admin/ext/security/saml/*',
      'cluster:monitor/ext/security/saml/metadata',
      'cluster:admin/ext/security/token/invalidate',
      'cluster:admin/ext/security/token/refresh',
    ],
  },
  delegate_pki: { grant: [DELEGATE_PKI, 'cluster:admin/ext/security/token/invalidate'] },
  manage_index_templates: {
    grant: [
      'indices:admin/template/*',
      'indices:admin/index_template/*',
      'cluster:admin/component_template/*',
    ],
  },
  manage_ingest_pipelines: { grant: ['cluster:admin/ingest/pipeline/*'] },
  manage_pipeline: { grant: ['cluster:admin/ingest/pipeline/*'] },
  read_pipeline: { grant: ['cluster:admin/ingest/pipeline/get', 'cluster:admin/ingest/pipeline/simulate'] },
  manage_ilm: { grant: ['cluster:admin/ilm/*'] },
  read_ilm: { grant: ['cluster:admin/ilm/get', 'cluster:admin/ilm/operation_mode/get'] },
  manage_slm: { grant: ['cluster:admin/slm/*'] },
  read_slm: { grant: ['cluster:admin/slm/get', 'cluster:admin/slm/status'] },
  create_snapshot: {
    grant: [
      'cluster:admin/snapshot/create',
      'cluster:admin/snapshot/status*',
      'cluster:admin/snapshot/get',
      'cluster:admin/repository/get',
    ],
  },
  cancel_task: { grant: ['cluster:admin/tasks/cancel'] },
  transport_client: { grant: ['cluster:monitor/nodes/liveness', 'cluster:monitor/state'] },
  manage_ml: { grant: ['cluster:admin/ext/ml/*', 'cluster:monitor/ext/ml/*'] },
  manage_rollup: { grant: ['cluster:admin/ext/rollup/*', 'cluster:monitor/ext/rollup/*'] },
  manage_transform: {
    grant: [
      'cluster:admin/data_frame/*',
      'cluster:monitor/data_frame/*',
      'cluster:admin/transform/*',
      'cluster:monitor/transform/*',
    ],
  },
  manage_data_frame_transforms: {
    grant: [
      'cluster:admin/data_frame/*',
      'cluster:monitor/data_frame/*',
      'cluster:admin/transform/*',
      'cluster:monitor/transform/*',
    ],
  },
  manage_watcher: { grant: ['cluster:admin/ext/watcher/*', 'cluster:monitor/ext/watcher/*'] },
  manage_ccr: {
    grant: [
      'cluster:admin/ext/ccr/*',
      'cluster:monitor/state',
      'cluster:admin/ext/security/user/has_privileges',
    ],
  },
  read_ccr: { grant: ['cluster:monitor/state', 'cluster:admin/ext/security/user/has_privileges'] },
  manage_enrich: { grant: ['cluster:admin/ext/enrich/*', 'cluster:monitor/ext/enrich/*'] },
  manage_inference: { grant: ['cluster:admin/ext/inference/*', 'cluster:monitor/ext/inference*'] },
  manage_logstash_pipelines: { grant: ['cluster:admin/logstash/pipeline/*'] },
  manage_autoscaling: { grant: ['cluster:admin/autoscaling/*'] },
  manage_behavioral_analytics: { grant: ['cluster:admin/ext/application/analytics/*'] },
  post_behavioral_analytics_event: { grant: ['cluster:admin/ext/application/analytics/post_event'] },
  manage_search_application: { grant: ['cluster:admin/ext/application/search_application/*'] },
  manage_search_query_rules: { grant: ['cluster:admin/ext/query_rules/*'] },
  manage_search_synonyms: { grant: ['cluster:admin/synonyms/*'] },
  manage_connector: { grant: ['cluster:admin/ext/connector/*'] },
  read_connector_secrets: { grant: ['cluster:admin/ext/connector/secret/get'] },
  write_connector_secrets: {
    grant: [
      'cluster:admin/ext/connector/secret/post',
      'cluster:admin/ext/connector/secret/put',
      'cluster:admin/ext/connector/secret/delete',
    ],
  },
  read_fleet_secrets: { grant: ['cluster:admin/fleet/secrets/get'] },
  write_fleet_secrets: { grant: ['cluster:admin/fleet/secrets/post', 'cluster:admin/fleet/secrets/delete'] },
  manage_data_stream_global_retention: {
    grant: ['cluster:admin/data_stream/global_retention/*', 'cluster:monitor/data_stream/global_retention/*'],
  },
  cross_cluster_search: {
    grant: [
      'cluster:internal/remote_cluster/handshake',
      'cluster:internal/remote_cluster/nodes',
      'cluster:monitor/state',
    ],
  },
  cross_cluster_replication: {
    grant: [
      'cluster:internal/remote_cluster/handshake',
      'cluster:internal/remote_cluster/nodes',
      'cluster:monitor/state',
    ],
  },
};

/** The names `GET /_security/privilege/_builtin` lists, sorted. */
export const CLUSTER_PRIVILEGE_NAMES: readonly string[] = Object.freeze(Object.keys(DEFS).sort());

const compiled = new Map<string, NamePredicate>();

/** The actions a named cluster privilege grants, or undefined for an unknown name. */
export function clusterPrivilege(name: string): NamePredicate | undefined {
  let p = compiled.get(name);
  if (p) return p;
  const def = DEFS[name];
  if (!def) return undefined;
  const grant = compilePatterns(def.grant);
  const except = def.except ? compilePatterns(def.except) : undefined;
  p = except ? (a) => grant(a) && !except(a) : grant;
  compiled.set(name, p);
  return p;
}

/**
 * A privilege in a role's `cluster` list: a name, or an action pattern (`cluster:monitor/main`,
 * `cluster:admin/*`), which Elasticsearch accepts when it names cluster actions.
 */
export function clusterPrivilegeOrPattern(entry: string): NamePredicate | undefined {
  const named = clusterPrivilege(entry);
  if (named) return named;
  if (
    entry.startsWith('cluster:') ||
    entry.startsWith('indices:admin/template/') ||
    entry.startsWith('indices:admin/index_template/')
  ) {
    return compilePatterns([entry]);
  }
  return undefined;
}

/** Every action pattern the named privileges are made of (samples for comparing privileges). */
export const CLUSTER_PRIVILEGE_PATTERNS: readonly string[] = Object.freeze([
  ...new Set(Object.values(DEFS).flatMap((d) => [...d.grant, ...(d.except ?? [])])),
]);
