/**
 * RoleDescriptor: what a role grants, as `PUT /_security/role/{name}` takes it and the role
 * APIs write it. Parsing follows RoleDescriptor.parse (its `parse_exception` texts for unknown
 * fields and wrong types); the privilege names are checked separately (validateDescriptor), as
 * PutRoleRequest.validate does.
 */
import { notImplemented, parseException } from '@shoal/protocol';
import { roleApplicationErrors } from './application-privileges.ts';
import { CLUSTER_PRIVILEGE_NAMES, clusterPrivilegeOrPattern } from './cluster-privileges.ts';
import { fieldSecurityError } from './field-security.ts';
import { type GlobalPrivileges, globalJson, parseGlobal } from './global-privileges.ts';
import { INDEX_PRIVILEGE_NAMES, indexPrivilegeOrPattern } from './index-privileges.ts';
import { isObject, typeName } from './json-tokens.ts';
import { regexError } from './patterns.ts';

export interface FieldSecurity {
  grant?: string[];
  except?: string[];
}

export interface IndicesPrivileges {
  names: string[];
  privileges: string[];
  fieldSecurity?: FieldSecurity;
  /** The DLS query as JSON text, as Elasticsearch keeps it. */
  query?: string;
  allowRestrictedIndices: boolean;
}

export interface ApplicationPrivileges {
  application: string;
  privileges: string[];
  resources: string[];
}

export type { GlobalPrivileges };

export interface RoleDescriptor {
  cluster: string[];
  global?: GlobalPrivileges;
  indices: IndicesPrivileges[];
  applications: ApplicationPrivileges[];
  runAs: string[];
  metadata: Record<string, unknown>;
  description?: string;
}

function stringArray(v: unknown, fail: (found: string) => never): string[] {
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v)) fail(typeName(v));
  for (const s of v as unknown[]) if (typeof s !== 'string') fail(typeName(s));
  return v as string[];
}

function parseFieldSecurity(role: string, val: unknown): FieldSecurity {
  if (!isObject(val)) {
    throw parseException(
      `failed to parse indices privileges for role [${role}]. expected field [field_security] value to be an object, but found [${typeName(val)}] instead`,
    );
  }
  if (Object.keys(val).length === 0) {
    throw parseException(
      `failed to parse indices privileges for role [${role}]. "field_security" must not be empty.`,
    );
  }
  const fieldSecurity: FieldSecurity = {};
  for (const [fk, fv] of Object.entries(val)) {
    if (fk !== 'grant' && fk !== 'except') {
      throw parseException(
        `failed to parse indices privileges for role [${role}]. "field_security" only accepts options grant and except, but got: ${fk}`,
      );
    }
    if (fv === null) {
      throw parseException(`failed to parse indices privileges for role [${role}]. ${fk} must not be null.`);
    }
    fieldSecurity[fk] = stringArray(fv, (found): never => {
      throw parseException(
        `failed to parse indices privileges for role [${role}]. expected field [${fk}] value to be a string or an array of strings, but found [${found}] instead`,
      );
    });
  }
  return fieldSecurity;
}

function parseIndices(role: string, v: unknown): IndicesPrivileges[] {
  if (!Array.isArray(v)) {
    throw parseException(
      `failed to parse indices privileges for role [${role}]. expected field [indices] value to be an array, but found [${typeName(v)}] instead`,
    );
  }
  return v.map((entry) => {
    if (!isObject(entry)) {
      throw parseException(
        `failed to parse indices privileges for role [${role}]. expected field [indices] value to be an array of objects, but found an array element of type [${typeName(entry)}]`,
      );
    }
    let names: string[] | undefined;
    let privileges: string[] | undefined;
    let fieldSecurity: FieldSecurity | undefined;
    let query: string | undefined;
    let allowRestrictedIndices = false;
    for (const [k, val] of Object.entries(entry)) {
      const fail = (found: string): never => {
        throw parseException(
          `failed to parse indices privileges for role [${role}]. expected field [${k}] value to be a string or an array of strings, but found [${found}] instead`,
        );
      };
      if (k === 'names') names = stringArray(val, fail);
      else if (k === 'privileges') privileges = stringArray(val, fail);
      else if (k === 'allow_restricted_indices') {
        if (typeof val !== 'boolean') {
          throw parseException(
            `failed to parse indices privileges for role [${role}]. expected field [${k}] value to be a boolean, but found [${typeName(val)}] instead`,
          );
        }
        allowRestrictedIndices = val;
      } else if (k === 'query') {
        if (val === null) continue;
        if (typeof val === 'string') query = val;
        else if (isObject(val)) query = JSON.stringify(val);
        else {
          throw parseException(
            `failed to parse indices privileges for role [${role}]. expected field [query] value to be null, a string, an array, or an object, but found [${typeName(val)}] instead`,
          );
        }
      } else if (k === 'field_security') {
        fieldSecurity = parseFieldSecurity(role, val);
      } else {
        throw parseException(
          `failed to parse indices privileges for role [${role}]. unexpected field [${k}]`,
        );
      }
    }
    if (names === undefined) {
      throw parseException(
        `failed to parse indices privileges for role [${role}]. missing required [names] field`,
      );
    }
    if (privileges === undefined) {
      throw parseException(
        `failed to parse indices privileges for role [${role}]. missing required [privileges] field`,
      );
    }
    if (fieldSecurity) {
      if (fieldSecurity.except !== undefined && fieldSecurity.grant === undefined) {
        throw parseException(
          `failed to parse indices privileges for role [${role}]. field_security requires grant if except is given`,
        );
      }
      const error = fieldSecurityError(fieldSecurity);
      if (error) throw parseException(`failed to parse indices privileges for role [${role}] - ${error}`);
    }
    const out: IndicesPrivileges = { names, privileges, allowRestrictedIndices };
    if (fieldSecurity) out.fieldSecurity = fieldSecurity;
    if (query !== undefined) out.query = query;
    return out;
  });
}

function parseApplications(role: string, v: unknown): ApplicationPrivileges[] {
  if (!Array.isArray(v)) {
    throw parseException(
      `failed to parse application privileges for role [${role}]. expected field [applications] value to be an array, but found [${typeName(v)}] instead`,
    );
  }
  return v.map((entry) => {
    if (!isObject(entry)) {
      throw parseException(
        `failed to parse application privileges for role [${role}]. expected field [applications] value to be an array of objects, but found an array element of type [${typeName(entry)}]`,
      );
    }
    let application: string | undefined;
    let privileges: string[] | undefined;
    let resources: string[] | undefined;
    for (const [k, val] of Object.entries(entry)) {
      const fail = (found: string): never => {
        throw parseException(
          `failed to parse application privileges for role [${role}]. expected field [${k}] value to be a string or an array of strings, but found [${found}] instead`,
        );
      };
      if (k === 'application') {
        if (typeof val !== 'string') fail(typeName(val));
        application = val as string;
      } else if (k === 'privileges') privileges = stringArray(val, fail);
      else if (k === 'resources') resources = stringArray(val, fail);
      else
        throw parseException(
          `failed to parse application privileges for role [${role}]. unexpected field [${k}]`,
        );
    }
    for (const [field, value] of [
      ['application', application],
      ['privileges', privileges],
      ['resources', resources],
    ] as const) {
      if (value === undefined) {
        throw parseException(
          `failed to parse application privileges for role [${role}]. missing required [${field}] field`,
        );
      }
    }
    return { application: application!, privileges: privileges!, resources: resources! };
  });
}

/** RoleDescriptor.parse for a request body (the role's name comes from the path). */
export function parseRoleDescriptor(role: string, body: unknown): RoleDescriptor {
  if (!isObject(body)) {
    throw parseException(
      `failed to parse role [${role}]. expected an object but found [${typeName(body)}] instead`,
    );
  }
  const d: RoleDescriptor = { cluster: [], indices: [], applications: [], runAs: [], metadata: {} };
  for (const [k, v] of Object.entries(body)) {
    const fail = (found: string): never => {
      throw parseException(
        `failed to parse role [${role}]. expected field [${k}] value to be an array of strings, but found [${found}] instead`,
      );
    };
    switch (k) {
      case 'cluster':
        d.cluster = stringArray(v, fail);
        break;
      case 'indices':
      case 'index':
        d.indices = parseIndices(role, v);
        break;
      case 'applications':
      case 'application':
        d.applications = parseApplications(role, v);
        break;
      case 'run_as':
        d.runAs = stringArray(v, fail);
        break;
      case 'metadata':
        if (!isObject(v)) {
          throw parseException(
            `expected field [metadata] to be of type object, but found [${typeName(v)}] instead`,
          );
        }
        d.metadata = v;
        break;
      case 'description':
        if (typeof v !== 'string') {
          throw parseException(
            `failed to parse role [${role}]. expected field [description] value to be a string, but found [${typeName(v)}] instead`,
          );
        }
        d.description = v;
        break;
      case 'transient_metadata':
        // Written by Elasticsearch in responses; a body sent back as it was read is accepted.
        if (!isObject(v)) {
          throw parseException(
            `failed to parse role [${role}]. expected field [transient_metadata] value to be an object, but found [${typeName(v)}] instead`,
          );
        }
        break;
      case 'global': {
        const g = parseGlobal(v);
        if (g) d.global = g;
        break;
      }
      case 'remote_indices':
      case 'remote_cluster':
        if (
          v !== null &&
          !(Array.isArray(v) && v.length === 0) &&
          !(isObject(v) && Object.keys(v).length === 0)
        ) {
          throw notImplemented(`the role field [${k}]`);
        }
        break;
      default:
        throw parseException(`failed to parse role [${role}]. unexpected field [${k}]`);
    }
  }
  return d;
}

/** PutRoleRequest.validate: unknown privilege names and bad metadata keys, all at once. */
export function validateDescriptor(d: RoleDescriptor): string[] {
  const errors: string[] = [];
  for (const p of d.cluster) {
    if (!clusterPrivilegeOrPattern(p)) {
      errors.push(
        `unknown cluster privilege [${p.toLowerCase()}]. a privilege must be either one of the predefined cluster privilege names [${CLUSTER_PRIVILEGE_NAMES.join(',')}] or a pattern over one of the available cluster actions`,
      );
    }
  }
  for (const ip of d.indices) {
    for (const p of ip.privileges) {
      if (!indexPrivilegeOrPattern(p)) {
        errors.push(
          `unknown index privilege [${p.toLowerCase()}]. a privilege must be either one of the predefined fixed indices privileges [${INDEX_PRIVILEGE_NAMES.join(',')}] or a pattern over one of the available index actions`,
        );
      }
    }
    for (const n of ip.names) {
      const bad = regexError(n);
      if (bad !== undefined) errors.push(`invalid index name pattern [${n}]: ${bad}`);
    }
  }
  errors.push(...roleApplicationErrors(d.applications));
  for (const k of Object.keys(d.metadata)) {
    if (k.startsWith('_'))
      errors.push(`role descriptor metadata keys may not start with [_] but found these keys: [${k}]`);
  }
  return errors;
}

/** The role APIs' wire form (GET role, role_descriptors of API keys). */
export function descriptorJson(d: RoleDescriptor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (d.description !== undefined) out.description = d.description;
  out.cluster = d.cluster;
  if (d.global) out.global = globalJson(d.global);
  out.indices = d.indices.map((ip) => {
    const o: Record<string, unknown> = { names: ip.names, privileges: ip.privileges };
    if (ip.fieldSecurity) o.field_security = ip.fieldSecurity;
    if (ip.query !== undefined) o.query = ip.query;
    o.allow_restricted_indices = ip.allowRestrictedIndices;
    return o;
  });
  out.applications = d.applications;
  out.run_as = d.runAs;
  out.metadata = d.metadata;
  out.transient_metadata = { enabled: true };
  return out;
}

/** How a descriptor is kept in the system index (its wire form without transient fields). */
export function descriptorDoc(d: RoleDescriptor): Record<string, unknown> {
  const { transient_metadata: _t, ...rest } = descriptorJson(d);
  return rest;
}

/** A stored descriptor back (trusted input: written by descriptorDoc). */
export function descriptorFromDoc(doc: Record<string, unknown>): RoleDescriptor {
  const { type: _type, name: _name, ...body } = doc;
  return parseRoleDescriptor(String(doc.name ?? ''), body);
}
