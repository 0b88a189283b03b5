/**
 * A role's `global` section (Elasticsearch's ConfigurableClusterPrivileges): privileges scoped
 * to applications — `application.manage` (the application privilege APIs for some
 * applications) and `profile.write` (some applications' part of user profiles).
 */
import { notImplemented, xContentParse } from '@shoal/protocol';
import { isObject, typeName } from './json-tokens.ts';

export interface GlobalPrivileges {
  manageApplications?: string[];
  writeProfileApplications?: string[];
}

function privilegeParseError(message: string): never {
  throw xContentParse(1, 1, `failed to parse privilege. ${message}`);
}

/** `{"<field>": {"applications": [..]}}` inside a category: the one scope its category has. */
function scopedApplications(scope: string, v: unknown): string[] {
  if (!isObject(v)) privilegeParseError(`expected [START_OBJECT] but found [${typeName(v)}] instead`);
  const entries = Object.entries(v as Record<string, unknown>);
  const out: string[] = [];
  for (const [k, inner] of entries) {
    if (k !== scope) privilegeParseError(`expected field name [${scope}] but found [${k}] instead`);
    if (!isObject(inner))
      privilegeParseError(`expected [START_OBJECT] but found [${typeName(inner)}] instead`);
    for (const [ik, apps] of Object.entries(inner as Record<string, unknown>)) {
      if (ik !== 'applications')
        privilegeParseError(`expected field name [applications] but found [${ik}] instead`);
      if (!Array.isArray(apps) || !apps.every((a) => typeof a === 'string'))
        privilegeParseError(`expected [START_ARRAY] but found [${typeName(apps)}] instead`);
      out.push(...(apps as string[]));
    }
  }
  return out;
}

/** ConfigurableClusterPrivileges.parse: `application.manage` and `profile.write` (`role.manage` is a 501). */
export function parseGlobal(v: unknown): GlobalPrivileges | undefined {
  if (v === null) return undefined;
  if (!isObject(v)) privilegeParseError(`expected [START_OBJECT] but found [${typeName(v)}] instead`);
  const g: GlobalPrivileges = {};
  for (const [category, body] of Object.entries(v as Record<string, unknown>)) {
    if (category === 'application') {
      const apps = scopedApplications('manage', body);
      if (isObject(body) && 'manage' in body) g.manageApplications = apps;
    } else if (category === 'profile') {
      const apps = scopedApplications('write', body);
      if (isObject(body) && 'write' in body) g.writeProfileApplications = apps;
    } else if (category === 'role') {
      if (isObject(body) && Object.keys(body).length > 0)
        throw notImplemented('the global privilege [role.manage]');
    } else {
      privilegeParseError(`expected one of [application, profile, role] but found [${category}] instead`);
    }
  }
  return g.manageApplications || g.writeProfileApplications ? g : undefined;
}

/** The `global` section as Elasticsearch writes it: every category, empty ones included. */
export function globalJson(g: GlobalPrivileges): Record<string, unknown> {
  return {
    application: g.manageApplications ? { manage: { applications: g.manageApplications } } : {},
    profile: g.writeProfileApplications ? { write: { applications: g.writeProfileApplications } } : {},
    role: {},
  };
}
