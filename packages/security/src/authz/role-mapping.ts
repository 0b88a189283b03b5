/**
 * Role mappings (Elasticsearch's ExpressionRoleMapping): rules over what a realm knows of a user
 * (`username`, `dn`, `groups`, `realm.name`, `metadata.*`) that grant roles when they match.
 * Rules are `any`, `all`, `except` (inside `all` only) and `field`; a field value is a string
 * (with `*`/`?` wildcards, or a `/regex/`), a number, a boolean, null, or a list of those (any
 * matches).
 */
import { parseException } from '@shoal/protocol';
import { compilePatterns, regexError } from './patterns.ts';
import { type RoleTemplate, templateRoles } from './role-templates.ts';

export type FieldValue = string | number | boolean | null;

export type RoleMappingRule =
  | { any: RoleMappingRule[] }
  | { all: RoleMappingRule[] }
  | { except: RoleMappingRule }
  | { field: Record<string, FieldValue | FieldValue[]> };

export interface RoleMapping {
  enabled: boolean;
  roles: string[];
  roleTemplates: RoleTemplate[];
  rules: RoleMappingRule;
  metadata: Record<string, unknown>;
}

/** What the rules are matched against. */
export interface UserData {
  username: string;
  dn: string | null;
  groups: string[];
  realmName: string;
  metadata: Record<string, unknown>;
}

const KINDS = ['any', 'all', 'field', 'except'];

function fail(reason: string): never {
  throw parseException(`failed to parse rules expression. ${reason}`);
}

function isScalar(v: unknown): v is FieldValue {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** ExpressionParser: one key per rule object, `except` only inside `all`. */
export function parseRules(v: unknown, insideAll = false): RoleMappingRule {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail('expected an object');
  const entries = Object.entries(v);
  if (entries.length !== 1)
    fail(`expected exactly one of [${KINDS.join(', ')}] but found [${Object.keys(v).join(', ')}]`);
  const [kind, body] = entries[0]!;
  if (kind === 'any' || kind === 'all') {
    if (!Array.isArray(body)) fail(`expected an array for [${kind}]`);
    return kind === 'any'
      ? { any: body.map((r) => parseRules(r, false)) }
      : { all: body.map((r) => parseRules(r, true)) };
  }
  if (kind === 'except') {
    if (!insideAll) fail('the [except] element may only be used inside an [all] element');
    return { except: parseRules(body, false) };
  }
  if (kind === 'field') {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      fail('expected an object for [field]');
    const fields = Object.entries(body);
    if (fields.length !== 1) fail('the [field] element must name exactly one field');
    const [name, value] = fields[0]!;
    const values = Array.isArray(value) ? value : [value];
    for (const x of values) {
      if (!isScalar(x)) fail(`expected a field value for [${name}] but found an object or array`);
      if (typeof x === 'string') {
        const bad = regexError(x);
        if (bad !== undefined) fail(`invalid regular expression [${x}]: ${bad}`);
      }
    }
    return { field: { [name]: value as FieldValue | FieldValue[] } };
  }
  return fail(`expected one of [${KINDS.join(', ')}] but found [${kind}]`);
}

function fieldValues(user: UserData, name: string): unknown[] {
  if (name === 'username') return [user.username];
  if (name === 'dn') return [user.dn];
  if (name === 'groups') return user.groups;
  if (name === 'realm.name') return [user.realmName];
  if (name.startsWith('metadata.')) {
    const v = user.metadata[name.slice('metadata.'.length)];
    return Array.isArray(v) ? v : [v === undefined ? null : v];
  }
  return [];
}

function valueMatches(expected: FieldValue, actual: unknown): boolean {
  if (expected === null) return actual === null || actual === undefined;
  if (typeof expected === 'string') return typeof actual === 'string' && compilePatterns([expected])(actual);
  return actual === expected;
}

export function rulesMatch(rule: RoleMappingRule, user: UserData): boolean {
  if ('any' in rule) return rule.any.some((r) => rulesMatch(r, user));
  if ('all' in rule) return rule.all.every((r) => rulesMatch(r, user));
  if ('except' in rule) return !rulesMatch(rule.except, user);
  const [name, expected] = Object.entries(rule.field)[0]!;
  const wanted = Array.isArray(expected) ? expected : [expected];
  const actual = fieldValues(user, name);
  return wanted.some((w) => actual.some((a) => valueMatches(w, a)));
}

/** The roles the enabled mappings grant this user: their roles, or what their templates render. */
export function mappedRoles(mappings: RoleMapping[], user: UserData): string[] {
  const roles = new Set<string>();
  for (const m of mappings) {
    if (!m.enabled || !rulesMatch(m.rules, user)) continue;
    for (const r of m.roles) roles.add(r);
    for (const t of m.roleTemplates) for (const r of templateRoles(t, user)) roles.add(r);
  }
  return [...roles].sort();
}
