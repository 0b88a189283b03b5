/**
 * Whether a role holds a requested privilege (`_has_privileges`, a profile's
 * `_has_privileges`): every action the privilege grants must be granted by the role. Elasticsearch compares automata; Shoal compares the two
 * over a set of sample actions made of every named privilege's own patterns (wildcards filled
 * in), which separates any two named privileges.
 */
import { type ApplicationPrivilegeDescriptor, grantsApplicationPrivilege } from './application-privileges.ts';
import { CLUSTER_PRIVILEGE_PATTERNS, clusterPrivilegeOrPattern } from './cluster-privileges.ts';
import { INDEX_PRIVILEGE_PATTERNS, indexPrivilegeOrPattern } from './index-privileges.ts';
import type { NamePredicate } from './patterns.ts';
import type { Permission as Role } from './role.ts';

const fill = (p: string) => p.replace(/\*/g, 'x').replace(/\?/g, 'x');

function samplesOf(requested: string, patterns: readonly string[], pred: NamePredicate): string[] {
  const out = patterns.map(fill).filter((a) => pred(a));
  // An action pattern that no named privilege spells (`cluster:admin/foo/*`) is its own sample.
  if (requested.includes(':')) out.push(fill(requested));
  return out;
}

export function hasClusterPrivilege(role: Role, requested: string): boolean {
  if (requested === 'manage_own_api_key' && role.ownApiKeys) return true;
  const pred = clusterPrivilegeOrPattern(requested);
  if (!pred) return false;
  const samples = samplesOf(requested, CLUSTER_PRIVILEGE_PATTERNS, pred);
  return samples.length > 0 && samples.every((a) => role.cluster(a));
}

export function hasIndexPrivilege(role: Role, index: string, requested: string): boolean {
  const pred = indexPrivilegeOrPattern(requested);
  if (!pred) return false;
  const samples = samplesOf(requested, INDEX_PRIVILEGE_PATTERNS, pred);
  return samples.length > 0 && samples.every((a) => role.index(a, index));
}

/** The privileges a `_has_privileges` request asks about. */
export interface PrivilegesToCheck {
  cluster: string[];
  index: { names: string[]; privileges: string[] }[];
  application: { application: string; privileges: string[]; resources: string[] }[];
}

/** Each privilege asked about, held or not, and whether all are held. */
export interface PrivilegesCheck {
  all: boolean;
  cluster: Record<string, boolean>;
  index: Record<string, Record<string, boolean>>;
  application: Record<string, Record<string, Record<string, boolean>>>;
}

/**
 * AuthorizationService.checkPrivileges: every privilege asked about, by the role (an API
 * key's application privileges by each of its layers); `stored`: the application privileges
 * that define the names asked about.
 */
export function checkPrivileges(
  role: Role,
  asked: PrivilegesToCheck,
  stored: readonly ApplicationPrivilegeDescriptor[],
): PrivilegesCheck {
  const out: PrivilegesCheck = { all: true, cluster: {}, index: {}, application: {} };
  const note = (v: boolean) => {
    out.all &&= v;
    return v;
  };
  for (const p of asked.cluster) out.cluster[p] = note(hasClusterPrivilege(role, p));
  for (const r of asked.index) {
    for (const name of r.names) {
      const entry = out.index[name] ?? {};
      out.index[name] = entry;
      for (const p of r.privileges) entry[p] = note(hasIndexPrivilege(role, name, p));
    }
  }
  const layers = asked.application.length > 0 ? role.applicationLayers() : [];
  for (const r of asked.application) {
    const app = out.application[r.application] ?? {};
    out.application[r.application] = app;
    for (const resource of r.resources) {
      const entry = app[resource] ?? {};
      app[resource] = entry;
      for (const p of r.privileges) {
        entry[p] = note(
          layers.every((entries) => grantsApplicationPrivilege(entries, stored, r.application, resource, p)),
        );
      }
    }
  }
  return out;
}
