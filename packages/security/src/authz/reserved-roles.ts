/**
 * The built-in roles (Elasticsearch 8.x's ReservedRolesStore), each with metadata
 * `{"_reserved": true}`; the deprecated ones add `_deprecated` and `_deprecated_reason`. They
 * cannot be changed or deleted, and `GET /_security/role` lists them.
 */
import type { IndicesPrivileges, RoleDescriptor } from './role-descriptor.ts';

function idx(names: string[], privileges: string[], allowRestrictedIndices = false): IndicesPrivileges {
  return { names, privileges, allowRestrictedIndices };
}

const RESERVED = { _reserved: true };

function role(
  description: string,
  parts: Partial<Pick<RoleDescriptor, 'cluster' | 'indices' | 'applications' | 'runAs'>>,
  deprecatedReason?: string,
): RoleDescriptor {
  const metadata: Record<string, unknown> = deprecatedReason
    ? { ...RESERVED, _deprecated: true, _deprecated_reason: deprecatedReason }
    : { ...RESERVED };
  return {
    cluster: parts.cluster ?? [],
    indices: parts.indices ?? [],
    applications: parts.applications ?? [],
    runAs: parts.runAs ?? [],
    metadata,
    description,
  };
}

const DASHBOARD_APP = 'dashboard-.dashboard';
const MONITORING_BULK = 'cluster:admin/ext/monitoring/bulk';
/** Everything but dot-indices and ILM history: what `viewer` and `editor` read. */
const NON_SYSTEM = '/~(([.]|ilm-history-).*)/';
const OBSERVABILITY_READ = [
  '.slo-observability.*',
  '.siem-signals*',
  '.lists-*',
  '.items-*',
  '.alerts*',
  '.preview.alerts*',
  'profiling-*',
  '.profiling-*',
];

const dashboardAdmin = (deprecatedReason?: string) =>
  role(
    'Grants access to all features in the dashboard.',
    { applications: [{ application: DASHBOARD_APP, privileges: ['all'], resources: ['*'] }] },
    deprecatedReason,
  );

const dashboardSystem = () =>
  role(
    'Grants access necessary for the dashboard system user to read from and write to the dashboard indices.',
    {
      cluster: [
        'monitor',
        'manage_index_templates',
        MONITORING_BULK,
        'manage_saml',
        'manage_token',
        'manage_oidc',
        'manage_pipeline',
        'manage_ilm',
        'manage_transform',
        'cluster:admin/ext/security/api_key/invalidate',
        'grant_api_key',
        'manage_own_api_key',
        'cluster:admin/ext/security/privilege/builtin/get',
        'delegate_pki',
        'cluster:admin/ext/security/profile/get',
        'cluster:admin/ext/security/profile/activate',
        'cluster:admin/ext/security/profile/suggest',
        'cluster:admin/ext/security/profile/has_privileges',
        'write_fleet_secrets',
      ],
      indices: [
        idx(['.dashboard', '.dashboard-devnull', '.dashboard_*'], ['all']),
        idx(['.monitoring-*'], ['read', 'read_cross_cluster']),
        idx(['.management-beats'], ['create_index', 'read', 'write']),
        idx(['.reporting-*'], ['all']),
        idx(['.apm-agent-configuration', '.apm-custom-link', '.apm-source-map'], ['all']),
        idx(['.fleet-*'], ['all'], true),
        idx(
          ['logs-*', 'metrics-*', 'traces-*', 'synthetics-*'],
          ['read', 'view_index_metadata', 'delete_index'],
        ),
      ],
      applications: [{ application: 'dashboard-*', privileges: ['reserved_fleet-setup'], resources: ['*'] }],
    },
  );

const monitoringCluster = ['cluster:monitor/main', 'cluster:monitor/ext/info', 'cluster:monitor/remote/info'];

export const RESERVED_ROLES: ReadonlyMap<string, RoleDescriptor> = new Map<string, RoleDescriptor>([
  [
    'superuser',
    role('Grants full access to cluster management and data indices.', {
      cluster: ['all'],
      indices: [
        idx(['*'], ['all'], false),
        idx(['*'], ['monitor', 'read', 'view_index_metadata', 'read_cross_cluster'], true),
      ],
      applications: [{ application: '*', privileges: ['*'], resources: ['*'] }],
      runAs: ['*'],
    }),
  ],
  [
    'viewer',
    role(
      'Grants read-only access to all features in the dashboard (including Solutions) and to data indices.',
      {
        indices: [
          idx([NON_SYSTEM], ['read', 'view_index_metadata']),
          idx(OBSERVABILITY_READ, ['read', 'view_index_metadata']),
        ],
        applications: [{ application: DASHBOARD_APP, privileges: ['read'], resources: ['*'] }],
      },
    ),
  ],
  [
    'editor',
    role(
      'Grants full access to all features in the dashboard (including Solutions) and read-only access to data indices.',
      {
        indices: [
          idx([NON_SYSTEM], ['read', 'view_index_metadata']),
          idx(['observability-annotations'], ['read', 'view_index_metadata', 'write']),
          idx(['.slo-observability.*'], ['read', 'view_index_metadata', 'write', 'manage']),
          idx(
            ['.siem-signals*', '.lists-*', '.items-*', '.alerts*', '.preview.alerts*'],
            ['read', 'view_index_metadata', 'write', 'maintenance'],
          ),
          idx(['profiling-*', '.profiling-*'], ['read', 'view_index_metadata']),
        ],
        applications: [{ application: DASHBOARD_APP, privileges: ['all'], resources: ['*'] }],
      },
    ),
  ],
  ['dashboard_admin', dashboardAdmin()],
  ['dashboard_user', dashboardAdmin('Please use the [dashboard_admin] role instead')],
  ['dashboard_system', dashboardSystem()],
  [
    'monitoring_user',
    role('Grants the minimum privileges required for any user of the monitoring UI.', {
      cluster: monitoringCluster,
      indices: [
        idx(['.monitoring-*'], ['read', 'read_cross_cluster']),
        idx(
          ['/metrics-(beats|elasticsearch|enterprisesearch|dashboard|logstash).*/'],
          ['read', 'read_cross_cluster'],
        ),
        idx(['metricbeat-*'], ['read', 'read_cross_cluster']),
      ],
      applications: [{ application: 'dashboard-*', privileges: ['reserved_monitoring'], resources: ['*'] }],
    }),
  ],
  [
    'remote_monitoring_agent',
    role('Grants the minimum privileges required to write data into the monitoring indices.', {
      cluster: [
        'manage_index_templates',
        'manage_ingest_pipelines',
        'monitor',
        'cluster:admin/ilm/get',
        'cluster:admin/ilm/put',
        'cluster:monitor/ext/watcher/watch/get',
        'cluster:admin/ext/watcher/watch/put',
        'cluster:admin/ext/watcher/watch/delete',
      ],
      indices: [
        idx(['.monitoring-*'], ['all']),
        idx(
          ['metricbeat-*'],
          ['index', 'create_index', 'view_index_metadata', 'indices:admin/aliases', 'indices:admin/rollover'],
        ),
      ],
    }),
  ],
  [
    'remote_monitoring_collector',
    role('Grants the minimum privileges required to collect monitoring data.', {
      cluster: ['monitor'],
      indices: [idx(['*'], ['monitor'], true), idx(['.dashboard*'], ['read'])],
    }),
  ],
  [
    'ingest_admin',
    role('Grants access to manage all index templates and all ingest pipeline configurations.', {
      cluster: ['manage_index_templates', 'manage_pipeline'],
    }),
  ],
  [
    'reporting_user',
    role(
      'Grants the specific privileges required to use reporting features.',
      {},
      'Please use dashboard feature privileges instead',
    ),
  ],
  [
    'logstash_system',
    role('Grants access necessary for the Logstash system user to send system-level data to the cluster.', {
      cluster: ['monitor', MONITORING_BULK],
    }),
  ],
  [
    'logstash_admin',
    role('Grants access to the logstash pipelines and indices.', {
      cluster: ['manage_logstash_pipelines'],
      indices: [idx(['.logstash*'], ['create', 'delete', 'index', 'manage', 'read'])],
    }),
  ],
  [
    'beats_system',
    role('Grants access necessary for the Beats system user to send system-level data to the cluster.', {
      cluster: ['monitor', MONITORING_BULK],
      indices: [idx(['.monitoring-beats-*'], ['create_index', 'create'])],
    }),
  ],
  [
    'beats_admin',
    role('Grants access to the .management-beats index.', { indices: [idx(['.management-beats'], ['all'])] }),
  ],
  [
    'apm_system',
    role('Grants access necessary for the APM system user to send system-level data to the cluster.', {
      cluster: ['monitor', MONITORING_BULK],
      indices: [idx(['.monitoring-beats-*'], ['create_index', 'create_doc'])],
    }),
  ],
  [
    'machine_learning_user',
    role(
      'Grants the minimum privileges required to view machine learning configuration, status, and work with results.',
      {
        cluster: ['monitor_ml'],
        indices: [
          idx(['.ml-anomalies*', '.ml-notifications*'], ['read', 'view_index_metadata']),
          idx(['.ml-annotations*'], ['read', 'view_index_metadata', 'write']),
        ],
        applications: [{ application: 'dashboard-*', privileges: ['reserved_ml_user'], resources: ['*'] }],
      },
    ),
  ],
  [
    'machine_learning_admin',
    role(
      'Provides all of the privileges of the machine_learning_user role plus the full use of the machine learning APIs.',
      {
        cluster: ['manage_ml'],
        indices: [
          idx(
            ['.ml-anomalies*', '.ml-notifications*', '.ml-state*', '.ml-meta*', '.ml-stats-*'],
            ['view_index_metadata', 'read'],
          ),
          idx(['.ml-annotations*'], ['view_index_metadata', 'read', 'write']),
        ],
        applications: [{ application: 'dashboard-*', privileges: ['reserved_ml_admin'], resources: ['*'] }],
      },
    ),
  ],
  [
    'transform_admin',
    role('Grants manage_transform cluster privileges, which enable you to manage transforms.', {
      cluster: ['manage_transform'],
      indices: [
        idx(['.transform-notifications*', '.data-frame-notifications*'], ['view_index_metadata', 'read']),
      ],
    }),
  ],
  [
    'transform_user',
    role('Grants monitor_transform cluster privileges, which enable you to use transforms.', {
      cluster: ['monitor_transform'],
      indices: [
        idx(['.transform-notifications*', '.data-frame-notifications*'], ['view_index_metadata', 'read']),
      ],
    }),
  ],
  [
    'data_frame_transforms_admin',
    role(
      'Grants manage_data_frame_transforms cluster privileges.',
      {
        cluster: ['manage_data_frame_transforms'],
        indices: [
          idx(['.data-frame-notifications*', '.transform-notifications*'], ['view_index_metadata', 'read']),
        ],
      },
      'Please use the [transform_admin] role instead',
    ),
  ],
  [
    'data_frame_transforms_user',
    role(
      'Grants monitor_data_frame_transforms cluster privileges.',
      {
        cluster: ['monitor_data_frame_transforms'],
        indices: [
          idx(['.data-frame-notifications*', '.transform-notifications*'], ['view_index_metadata', 'read']),
        ],
      },
      'Please use the [transform_user] role instead',
    ),
  ],
  [
    'watcher_admin',
    role('Allows users to create and execute all Watcher actions.', {
      cluster: ['manage_watcher'],
      indices: [idx(['.watches', '.triggered_watches', '.watcher-history-*'], ['read'])],
    }),
  ],
  [
    'watcher_user',
    role('Grants read access to the .watches index, the get watch action and the watcher stats.', {
      cluster: ['monitor_watcher'],
      indices: [idx(['.watches'], ['read']), idx(['.watcher-history-*'], ['read'])],
    }),
  ],
  ['rollup_admin', role('Grants manage_rollup cluster privileges.', { cluster: ['manage_rollup'] })],
  ['rollup_user', role('Grants monitor_rollup cluster privileges.', { cluster: ['monitor_rollup'] })],
  [
    'snapshot_user',
    role(
      'Grants the necessary privileges to create snapshots of all the indices and to view their metadata.',
      {
        cluster: ['create_snapshot', 'cluster:admin/repository/get'],
        indices: [idx(['*'], ['view_index_metadata'], true)],
      },
    ),
  ],
  [
    'enrich_user',
    role('Grants access to manage all enrich indices and access to all enrich policies.', {
      cluster: ['manage_enrich', 'manage_ingest_pipelines', 'monitor'],
      indices: [idx(['.enrich-*'], ['manage', 'read', 'write'])],
    }),
  ],
  [
    'inference_admin',
    role('Grants access necessary to manage inference models and performing inference.', {
      cluster: ['manage_inference'],
    }),
  ],
  [
    'inference_user',
    role('Grants access necessary to perform inference.', { cluster: ['monitor_inference'] }),
  ],
  [
    'transport_client',
    role('Grants the privileges required to access the cluster through the Java Transport Client.', {
      cluster: ['transport_client'],
    }),
  ],
]);

export function isReservedRole(name: string): boolean {
  return RESERVED_ROLES.has(name);
}
