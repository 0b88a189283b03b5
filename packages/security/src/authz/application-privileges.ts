/**
 * Application privileges (Elasticsearch's ApplicationPrivilege): privileges an application
 * outside the cluster defines (`PUT /_security/privilege`) and roles grant over its resources
 * (a role's `applications`), for the application to check with `_has_privileges`. A name stands
 * for its stored actions; anything that is not a name (it has `/`, `:` or `*`) is an action
 * pattern itself.
 */
import { compilePatterns } from './patterns.ts';
import type { ApplicationPrivileges } from './role-descriptor.ts';

export interface ApplicationPrivilegeDescriptor {
  application: string;
  name: string;
  actions: string[];
  metadata: Record<string, unknown>;
}

const VALID_PREFIX = /^[a-z][A-Za-z0-9]*$/;
const VALID_NAME = /^[a-z][a-zA-Z0-9_.-]*$/;
/** Printable, visible ASCII (Java's `\p{Graph}`). */
const VALID_NAME_OR_ACTION = /^[\x21-\x7e]*$/;
const WHITESPACE = /\s/;
const INVALID_FILENAME_CHARS = ['\\', '/', '*', '?', '"', '<', '>', '|', ' ', ','];

/** ApplicationPrivilege.validateApplicationName(OrWildcard): the reason a name is refused. */
export function applicationNameError(application: string, allowWildcard: boolean): string | undefined {
  if (application === '') return 'Application names cannot be blank';
  const asterisk = application.indexOf('*');
  if (asterisk !== -1) {
    if (!allowWildcard) return `Application names may not contain '*' (found '${application}')`;
    if (application === '*') return undefined;
    if (asterisk !== application.length - 1)
      return `Application name patterns only support trailing wildcards (found '${application}')`;
  }
  if (WHITESPACE.test(application))
    return `Application names may not contain whitespace (found '${application}')`;
  const split = application.search(/[_-]/);
  let prefix = split === -1 ? application : application.slice(0, split);
  if (prefix.endsWith('*')) prefix = prefix.slice(0, -1);
  if (!VALID_PREFIX.test(prefix)) {
    return `An application name prefix must match the pattern ^[a-z][A-Za-z0-9]*$ (found '${prefix}')`;
  }
  if (prefix.length < 3 && asterisk === -1) {
    return `An application name prefix must be at least 3 characters long (found '${prefix}')`;
  }
  if (split !== -1) {
    let suffix = application.slice(split + 1);
    if (allowWildcard && suffix.endsWith('*')) suffix = suffix.slice(0, -1);
    if (INVALID_FILENAME_CHARS.some((c) => suffix.includes(c))) {
      return `An application name suffix may not contain any of the characters '${INVALID_FILENAME_CHARS.join('')}' (found '${suffix}')`;
    }
  }
  return undefined;
}

export function isPrivilegeName(name: string): boolean {
  return VALID_NAME.test(name);
}

export function privilegeNameError(name: string): string | undefined {
  return isPrivilegeName(name)
    ? undefined
    : `Application privilege names must match the pattern ^[a-z][a-zA-Z0-9_.-]*$ (found '${name}')`;
}

export function privilegeOrActionNameError(name: string): string | undefined {
  return VALID_NAME_OR_ACTION.test(name)
    ? undefined
    : `Application privilege names and actions must match the pattern ^\\p{Graph}*$ (found '${name}')`;
}

/** PutPrivilegesRequest.validate for one privilege. */
export function descriptorErrors(d: ApplicationPrivilegeDescriptor): string[] {
  const errors: string[] = [];
  const app = applicationNameError(d.application, false);
  if (app) errors.push(app);
  const name = privilegeNameError(d.name);
  if (name) errors.push(name);
  if (d.actions.length === 0) errors.push('Application privileges must have at least one action');
  for (const action of d.actions) {
    if (!/[/*:]/.test(action)) errors.push(`action [${action}] must contain one of [ '/' , '*' , ':' ]`);
    const bad = privilegeOrActionNameError(action);
    if (bad) errors.push(bad);
  }
  if (Object.keys(d.metadata).some((k) => k.startsWith('_'))) {
    errors.push(`metadata keys may not start with [_] (in privilege ${d.application} ${d.name})`);
  }
  return errors;
}

/** A role's `applications` entries checked as PutRoleRequest.validate checks them. */
export function roleApplicationErrors(entries: readonly ApplicationPrivileges[]): string[] {
  const errors: string[] = [];
  for (const e of entries) {
    const app = applicationNameError(e.application, true);
    if (app) errors.push(app);
    for (const p of e.privileges) {
      const bad = privilegeOrActionNameError(p);
      if (bad) errors.push(bad);
    }
  }
  return errors;
}

/** The action patterns privilege names and actions stand for in one application. */
function actionsOf(
  application: string,
  names: readonly string[],
  stored: readonly ApplicationPrivilegeDescriptor[],
) {
  const out: string[] = [];
  for (const n of names) {
    if (isPrivilegeName(n)) {
      const d = stored.find((s) => s.application === application && s.name === n);
      if (d) out.push(...d.actions);
    } else out.push(n);
  }
  return out;
}

/**
 * Whether one layer of entries (a role set, or one side of an API key's limited permission)
 * grants `privilege` on `resource` of `application`: every action it stands for is matched by
 * the actions of the entries whose application and resources match. Elasticsearch compares
 * automata; a requested action pattern is matched here as a literal string, which agrees for
 * every request that names actions a role could have granted.
 */
export function grantsApplicationPrivilege(
  entries: readonly ApplicationPrivileges[],
  stored: readonly ApplicationPrivilegeDescriptor[],
  application: string,
  resource: string,
  privilege: string,
): boolean {
  const matching = entries.filter(
    (e) => compilePatterns([e.application])(application) && compilePatterns(e.resources)(resource),
  );
  if (matching.length === 0) return false;
  const granted = compilePatterns(matching.flatMap((e) => actionsOf(application, e.privileges, stored)));
  return actionsOf(application, [privilege], stored).every((a) => granted(a));
}
