/**
 * Service accounts (Elasticsearch's ServiceAccountService): built-in principals of the
 * `elastic` namespace for the stack's own services, each with one role descriptor named after
 * it, authenticated with `Authorization: Bearer <token>`. A token is
 * base64-without-padding of the bytes `00 01 00 01` followed by `<ns>/<service>/<name>:<secret>`.
 */
import { RESERVED_ROLES } from '../authz/reserved-roles.ts';
import type { IndicesPrivileges, RoleDescriptor } from '../authz/role-descriptor.ts';

const MAGIC = Buffer.from([0x00, 0x01, 0x00, 0x01]);

function idx(names: string[], privileges: string[], allowRestrictedIndices = false): IndicesPrivileges {
  return { names, privileges, allowRestrictedIndices };
}

function descriptor(parts: Partial<RoleDescriptor>): RoleDescriptor {
  return {
    cluster: parts.cluster ?? [],
    indices: parts.indices ?? [],
    applications: parts.applications ?? [],
    runAs: [],
    metadata: {},
  };
}

const FLEET_INDICES = [
  '.fleet-actions*',
  '.fleet-agents*',
  '.fleet-artifacts*',
  '.fleet-enrollment-api-keys*',
  '.fleet-policies*',
  '.fleet-policies-leader*',
  '.fleet-servers*',
  '.fleet-fileds*',
];

/** The 8.19 built-in accounts, sorted by name. */
const ACCOUNTS: Record<string, RoleDescriptor> = {
  'elastic/auto-ops': descriptor({
    cluster: ['monitor', 'read_ilm', 'read_slm'],
    indices: [idx(['*'], ['monitor', 'view_index_metadata'], true)],
  }),
  'elastic/dashboard': { ...RESERVED_ROLES.get('dashboard_system')!, metadata: {}, description: undefined },
  'elastic/enterprise-search-server': descriptor({
    cluster: ['manage', 'manage_security'],
    indices: [
      idx(
        [
          'search-*',
          '.search-acl-filter-*',
          '.elastic-analytics-*',
          '.ent-search-*',
          '.monitoring-ent-search-*',
          'metricbeat-ent-search-*',
          'enterprise-search-*',
          'logs-app_search.analytics-default',
          'logs-elastic_analytics.events-*',
          'logs-enterprise_search.api-default',
          'logs-enterprise_search.audit-default',
          'logs-app_search.search_relevance_suggestions-default',
          'logs-crawler-default',
          'logs-elastic_crawler-default',
          'logs-workplace_search.analytics-default',
          'logs-workplace_search.content_events-default',
          '.elastic-connectors*',
        ],
        ['manage', 'read', 'write'],
      ),
    ],
  }),
  'elastic/fleet-server': descriptor({
    cluster: ['monitor', 'manage_own_api_key', 'read_fleet_secrets'],
    indices: [
      idx(
        [
          'logs-*',
          'metrics-*',
          'traces-*',
          '.logs-endpoint.diagnostic.collection-*',
          '.logs-endpoint.action.responses-*',
          '.logs-endpoint.heartbeat-*',
        ],
        ['write', 'create_index', 'auto_configure'],
      ),
      idx(['profiling-*'], ['read', 'write']),
      idx(['traces-apm.sampled-*'], ['read', 'monitor', 'maintenance']),
      idx(['.fleet-secrets*'], ['read'], true),
      idx(FLEET_INDICES, ['read', 'write', 'monitor', 'create_index', 'auto_configure', 'maintenance'], true),
      idx(['synthetics-*'], ['read', 'write', 'create_index', 'auto_configure']),
    ],
    applications: [{ application: 'dashboard-*', privileges: ['reserved_fleet-setup'], resources: ['*'] }],
  }),
  'elastic/fleet-server-remote': descriptor({
    cluster: ['monitor', 'manage_own_api_key'],
    indices: [
      idx(
        ['logs-*', 'metrics-*', 'traces-*', 'synthetics-*', 'profiling-*'],
        ['write', 'create_index', 'auto_configure'],
      ),
    ],
  }),
};

export const SERVICE_ACCOUNT_NAMES: readonly string[] = Object.freeze(Object.keys(ACCOUNTS).sort());

export function serviceAccountDescriptor(principal: string): RoleDescriptor | undefined {
  return ACCOUNTS[principal];
}

export interface ServiceToken {
  namespace: string;
  service: string;
  name: string;
  secret: string;
}

export function encodeServiceToken(t: ServiceToken): string {
  const body = Buffer.from(`${t.namespace}/${t.service}/${t.name}:${t.secret}`, 'utf8');
  return Buffer.concat([MAGIC, body]).toString('base64').replace(/=+$/, '');
}

/** undefined: not a service-account token (another kind of bearer token). */
export function decodeServiceToken(value: string): ServiceToken | undefined {
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length <= MAGIC.length || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const text = bytes.subarray(MAGIC.length).toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  const parts = text.slice(0, colon).split('/');
  if (parts.length !== 3 || parts.some((p) => p === '')) return undefined;
  return { namespace: parts[0]!, service: parts[1]!, name: parts[2]!, secret: text.slice(colon + 1) };
}

/** Token names: 1–256 of `[a-zA-Z0-9_-]`, not starting with `_`. */
export function tokenNameError(name: string): string | undefined {
  if (/^[a-zA-Z0-9-][a-zA-Z0-9_-]{0,255}$/.test(name)) return undefined;
  return (
    `invalid service token name [${name}], must be 1-256 characters long, contain only alphanumeric characters, ` +
    'dashes and underscores, and must not begin with an underscore'
  );
}
