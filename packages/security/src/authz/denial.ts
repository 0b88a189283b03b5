/**
 * The reason of a 403, as Elasticsearch's AuthorizationDenialMessages.Default.actionDenied
 * writes it:
 *
 *   action [<action>] is unauthorized for user [<name>] with effective roles [<r1,r2>]
 *   [ on indices [<i1,i2>]][, this action is granted by the cluster|index privileges [<p1,p2>]]
 *
 * The privileges named are those that grant the action, least powerful first
 * (ClusterPrivilegeResolver / IndexPrivilege.findPrivilegesThatGrant, sorted by access level).
 */
import type { Authentication } from '../authc/authentication.ts';
import { CLUSTER_PRIVILEGE_NAMES, clusterPrivilege } from './cluster-privileges.ts';
import { INDEX_PRIVILEGE_NAMES, indexPrivilege } from './index-privileges.ts';
import type { NamePredicate } from './patterns.ts';
import type { Permission as Role } from './role.ts';

/**
 * The actions against which privileges are ranked: a privilege that grants more of them is more
 * powerful. Each privilege's own patterns are in it (with their wildcards filled in), so a
 * privilege that strictly contains another always ranks above it.
 */
let universe: string[] | undefined;

function rankingActions(): string[] {
  if (universe) return universe;
  const set = new Set<string>();
  const add = (s: string) => set.add(s.replace(/\*/g, 'x'));
  for (const sample of SAMPLE_ACTIONS) add(sample);
  universe = [...set];
  return universe;
}

/** A spread of actions of every kind (enough to rank any two privileges that differ). */
const SAMPLE_ACTIONS = [
  'cluster:monitor/main',
  'cluster:monitor/health',
  'cluster:monitor/state',
  'cluster:monitor/stats',
  'cluster:monitor/nodes/stats',
  'cluster:monitor/nodes/liveness',
  'cluster:monitor/ext/ml/x',
  'cluster:monitor/ext/watcher/x',
  'cluster:monitor/ext/enrich/x',
  'cluster:monitor/transform/x',
  'cluster:admin/settings/update',
  'cluster:admin/snapshot/create',
  'cluster:admin/snapshot/get',
  'cluster:admin/repository/get',
  'cluster:admin/ilm/get',
  'cluster:admin/ilm/put',
  'cluster:admin/slm/get',
  'cluster:admin/ingest/pipeline/get',
  'cluster:admin/ingest/pipeline/put',
  'cluster:admin/tasks/cancel',
  'cluster:admin/ext/ml/x',
  'cluster:admin/ext/watcher/x',
  'cluster:admin/transform/x',
  'cluster:admin/ext/security/user/get',
  'cluster:admin/ext/security/user/put',
  'cluster:admin/ext/security/user/query',
  'cluster:admin/ext/security/role/get',
  'cluster:admin/ext/security/role/put',
  'cluster:admin/ext/security/api_key/create',
  'cluster:admin/ext/security/api_key/get',
  'cluster:admin/ext/security/api_key/grant',
  'cluster:admin/ext/security/token/create',
  'cluster:admin/ext/security/token/invalidate',
  'cluster:admin/ext/security/saml/x',
  'cluster:admin/ext/security/oidc/x',
  'cluster:admin/ext/security/profile/x',
  'cluster:admin/ext/security/service_account/x',
  'cluster:admin/ext/security/delegate_pki',
  'cluster:admin/ext/security/privilege/get',
  'indices:admin/template/x',
  'indices:data/read/search',
  'indices:data/read/get',
  'indices:data/read/field_caps',
  'indices:data/write/index',
  'indices:data/write/index:op_type/create',
  'indices:data/write/index:op_type/index',
  'indices:data/write/bulk',
  'indices:data/write/update',
  'indices:data/write/delete',
  'indices:admin/mapping/auto_put',
  'indices:admin/auto_create',
  'indices:admin/create',
  'indices:admin/delete',
  'indices:admin/get',
  'indices:admin/mappings/get',
  'indices:admin/refresh',
  'indices:admin/flush',
  'indices:admin/forcemerge',
  'indices:admin/aliases',
  'indices:admin/ilm/x',
  'indices:admin/data_stream/lifecycle/x',
  'indices:monitor/stats',
  'indices:monitor/settings/get',
  'internal:transport/proxy/indices:data/read/search',
];

function grantedBy(
  action: string,
  names: readonly string[],
  lookup: (n: string) => NamePredicate | undefined,
): string[] {
  const actions = rankingActions();
  const ranked: { name: string; level: number }[] = [];
  for (const name of names) {
    if (name === 'none') continue;
    const p = lookup(name)!;
    if (!p(action)) continue;
    let level = 0;
    for (const a of actions) if (p(a)) level++;
    ranked.push({ name, level });
  }
  ranked.sort((a, b) => a.level - b.level || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return ranked.map((r) => r.name);
}

const grantedMemo = new Map<string, string[]>();

export function privilegesThatGrant(
  action: string,
): { kind: 'cluster' | 'index'; names: string[] } | undefined {
  const kind = action.startsWith('cluster:')
    ? 'cluster'
    : action.startsWith('indices:')
      ? 'index'
      : undefined;
  if (!kind) return undefined;
  let names = grantedMemo.get(action);
  if (!names) {
    names =
      kind === 'cluster'
        ? grantedBy(action, CLUSTER_PRIVILEGE_NAMES, clusterPrivilege)
        : grantedBy(action, INDEX_PRIVILEGE_NAMES, indexPrivilege);
    grantedMemo.set(action, names);
  }
  return { kind, names };
}

/** `user [x] with effective roles [a,b]` (or `user [a] run as [b] with …`). */
export function principalText(auth: Authentication, role: Role, authenticatedAs?: string): string {
  let text: string;
  if (auth.apiKey) return `API key id [${auth.apiKey.id}] of user [${auth.user.username}]`;
  if (auth.token && auth.realm.type === '_service_account') return `service account [${auth.user.username}]`;
  text = authenticatedAs
    ? `user [${authenticatedAs}] run as [${auth.user.username}]`
    : `user [${auth.user.username}]`;
  text += ` with effective roles [${role.names.join(',')}]`;
  if (role.missing.length > 0) text += ` (assigned roles [${role.missing.join(',')}] were not found)`;
  return text;
}

export function actionDeniedMessage(
  action: string,
  principal: string,
  context?: string,
  withGrantingPrivileges = true,
): string {
  let message = `action [${action}] is unauthorized for ${principal}`;
  if (context) message += ` ${context}`;
  if (withGrantingPrivileges) {
    const granting = privilegesThatGrant(action);
    if (granting && granting.names.length > 0) {
      message += `, this action is granted by the ${granting.kind} privileges [${granting.names.join(',')}]`;
    }
  }
  return message;
}
