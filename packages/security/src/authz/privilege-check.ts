/**
 * Whether a role holds a requested privilege (`_has_privileges`): every action the privilege
 * grants must be granted by the role. Elasticsearch compares automata; Shoal compares the two
 * over a set of sample actions made of every named privilege's own patterns (wildcards filled
 * in), which separates any two named privileges.
 */
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
