/**
 * A license (Elasticsearch's License): its fields, the rules that make one well formed, its
 * operation mode, and the two ways it is shown — `GET /_license`'s view (changes78.md §1.1) and
 * the `license` block of `GET /_ext` (§1.6).
 */
import { illegalArgument, parseException } from '@shoal/protocol';

export const LICENSE_TYPES = ['basic', 'standard', 'gold', 'platinum', 'enterprise', 'trial'] as const;
export type LicenseType = (typeof LICENSE_TYPES)[number];

/** The operation modes, lowest first; a trial allows everything. */
export const MODE_RANK: Record<LicenseType, number> = {
  basic: 1,
  standard: 2,
  gold: 3,
  platinum: 4,
  enterprise: 5,
  trial: 6,
};

export interface License {
  uid: string;
  type: LicenseType;
  issue_date_in_millis: number;
  expiry_date_in_millis: number;
  /** -1 when the license counts resource units instead (enterprise). */
  max_nodes: number;
  /** -1 when the license counts nodes. */
  max_resource_units: number;
  issued_to: string;
  issuer: string;
  start_date_in_millis: number;
  /** Absent on the licenses the node generates itself (basic, trial). */
  signature?: string;
}

/** LicenseService.BASIC_SELF_GENERATED_LICENSE_EXPIRATION_MILLIS: Long.MAX_VALUE - 365 days, never shown. */
export const BASIC_NEVER_EXPIRES = Number.MAX_SAFE_INTEGER;
/** LicenseSettings.SELF_GENERATED_LICENSE_MAX_NODES. */
export const SELF_GENERATED_MAX_NODES = 1000;
export const SELF_GENERATED_MAX_RESOURCE_UNITS = 1000;
/** NON_BASIC_SELF_GENERATED_LICENSE_DURATION: 30 days. */
export const TRIAL_DURATION_MS = 30 * 24 * 3600 * 1000;

export function isLicenseType(v: unknown): v is LicenseType {
  return typeof v === 'string' && (LICENSE_TYPES as readonly string[]).includes(v);
}

export type LicenseStatus = 'active' | 'expired' | 'invalid';

export function licenseStatus(l: License, now: number): LicenseStatus {
  return l.expiry_date_in_millis < now ? 'expired' : 'active';
}

function num(o: Record<string, unknown>, key: string, dflt: number): number {
  const v = o[key];
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  throw parseException(`failed to parse license - field [${key}] must be a number, got [${String(v)}]`);
}

function str(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string')
    throw parseException(`failed to parse license - field [${key}] must be a string`);
  return v;
}

/**
 * License.fromXContent and License.Builder.validate: the body's license object, with
 * Elasticsearch's "can not be null" / "has to be set" texts for what is missing.
 */
export function parseLicense(raw: unknown): License {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw parseException('failed to parse license - expected a license object');
  }
  const o = raw as Record<string, unknown>;
  const type = str(o, 'type');
  const uid = str(o, 'uid');
  const issuer = str(o, 'issuer');
  const issuedTo = str(o, 'issued_to');
  const signature = str(o, 'signature');
  const issue = num(o, 'issue_date_in_millis', -1);
  const expiry = num(o, 'expiry_date_in_millis', -1);
  const maxNodes = num(o, 'max_nodes', -1);
  const maxUnits = num(o, 'max_resource_units', -1);
  if (issuer === undefined) throw illegalArgument('issuer can not be null');
  if (issuedTo === undefined) throw illegalArgument('issuedTo can not be null');
  if (issue === -1) throw illegalArgument('issueDate has to be set');
  if (type === undefined) throw illegalArgument('type can not be null');
  if (uid === undefined) throw illegalArgument('uid can not be null');
  if (signature === undefined) throw illegalArgument('signature can not be null');
  if (expiry === -1) throw illegalArgument('expiryDate has to be set');
  if (!isLicenseType(type)) throw illegalArgument(`unknown license type [${type}]`);
  if (type === 'enterprise') {
    if (maxUnits === -1)
      throw illegalArgument('maxResourceUnits must be set for enterprise licenses (type=[enterprise])');
    if (maxNodes !== -1)
      throw illegalArgument('maxNodes may not be set for enterprise licenses (type=[enterprise])');
  } else {
    if (maxNodes === -1) throw illegalArgument('maxNodes has to be set');
    if (maxUnits !== -1)
      throw illegalArgument(
        `maxResourceUnits may only be set for enterprise licenses (not permitted for type=[${type}])`,
      );
  }
  return {
    uid,
    type,
    issue_date_in_millis: issue,
    expiry_date_in_millis: expiry,
    max_nodes: maxNodes,
    max_resource_units: maxUnits,
    issued_to: issuedTo,
    issuer,
    start_date_in_millis: num(o, 'start_date_in_millis', -1),
    signature,
  };
}

/**
 * `GET /_license`'s object (License.toInnerXContent, rest view). `hideEnterprise` (no
 * `accept_enterprise=true`) shows an enterprise license as platinum with its resource units as
 * `max_nodes`; `human` adds the `start_date` string as Elasticsearch's `?human` does.
 */
export function licenseRestView(
  l: License,
  opts: { now: number; hideEnterprise: boolean; human: boolean },
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    status: licenseStatus(l, opts.now),
    uid: l.uid,
    type: opts.hideEnterprise && l.type === 'enterprise' ? 'platinum' : l.type,
    issue_date: new Date(l.issue_date_in_millis).toISOString(),
    issue_date_in_millis: l.issue_date_in_millis,
  };
  if (l.expiry_date_in_millis !== BASIC_NEVER_EXPIRES) {
    out.expiry_date = new Date(l.expiry_date_in_millis).toISOString();
    out.expiry_date_in_millis = l.expiry_date_in_millis;
  }
  if (opts.hideEnterprise) {
    out.max_nodes = l.max_nodes === -1 ? l.max_resource_units : l.max_nodes;
  } else {
    out.max_nodes = l.max_nodes === -1 ? null : l.max_nodes;
    out.max_resource_units = l.max_resource_units === -1 ? null : l.max_resource_units;
  }
  out.issued_to = l.issued_to;
  out.issuer = l.issuer;
  if (opts.human && l.start_date_in_millis !== -1)
    out.start_date = new Date(l.start_date_in_millis).toISOString();
  out.start_date_in_millis = l.start_date_in_millis;
  return out;
}

/** The `license` block of `GET /_ext`: the real type and mode, never the platinum display. */
export function licenseExtView(l: License, opts: { now: number; human: boolean }): Record<string, unknown> {
  const out: Record<string, unknown> = {
    uid: l.uid,
    type: l.type,
    mode: l.type,
    status: licenseStatus(l, opts.now),
  };
  if (l.expiry_date_in_millis !== BASIC_NEVER_EXPIRES) {
    if (opts.human) out.expiry_date = new Date(l.expiry_date_in_millis).toISOString();
    out.expiry_date_in_millis = l.expiry_date_in_millis;
  }
  return out;
}
