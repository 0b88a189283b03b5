/**
 * Issuing a signed license (`npm run license`): the operator's key signs a license of a given
 * type and expiry. An enterprise license counts resource units; every other type counts nodes.
 */

import type { KeyObject } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { isLicenseType, type License, type LicenseType } from './license.ts';
import { signLicense } from './license-signature.ts';

export interface IssueOptions {
  type: string;
  /** An ISO-8601 date (`2027-06-30`, `2027-06-30T12:00:00Z`) or a span from now (`30d`, `12h`, `1y`). */
  expires: string;
  issuedTo?: string;
  issuer?: string;
  maxNodes?: number;
  maxResourceUnits?: number;
  now?: number;
}

/** A usage mistake, with a message for the operator. */
export class IssueError extends Error {}

const SPAN_MS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
};

export function expiryMillis(expires: string, now: number): number {
  const span = /^(\d+)([smhdwy])$/.exec(expires.trim());
  if (span) return now + Number(span[1]) * SPAN_MS[span[2]!]!;
  const ms = Date.parse(expires);
  if (!/^\d{4}-\d{2}-\d{2}/.test(expires) || Number.isNaN(ms)) {
    throw new IssueError(`--expires must be an ISO-8601 date or a span like 30d, got [${expires}]`);
  }
  return ms;
}

export function issueLicense(opts: IssueOptions, key: KeyObject): License {
  if (!isLicenseType(opts.type) || opts.type === 'basic') {
    throw new IssueError(
      `--type must be one of standard, gold, platinum, enterprise, trial, got [${opts.type}] (a cluster starts basic licenses itself)`,
    );
  }
  const type: LicenseType = opts.type;
  const now = opts.now ?? Date.now();
  const enterprise = type === 'enterprise';
  const count = (v: number | undefined, what: string, dflt: number): number => {
    const n = v ?? dflt;
    if (!Number.isInteger(n) || n < 1)
      throw new IssueError(`${what} must be a whole number of at least 1, got [${v}]`);
    return n;
  };
  if (enterprise && opts.maxNodes !== undefined)
    throw new IssueError(
      'an enterprise license counts resource units: use --max-resource-units, not --max-nodes',
    );
  if (!enterprise && opts.maxResourceUnits !== undefined)
    throw new IssueError('only an enterprise license counts resource units: use --max-nodes');
  return signLicense(
    {
      uid: randomUUID(),
      type,
      issue_date_in_millis: now,
      expiry_date_in_millis: expiryMillis(opts.expires, now),
      max_nodes: enterprise ? -1 : count(opts.maxNodes, '--max-nodes', 100),
      max_resource_units: enterprise ? count(opts.maxResourceUnits, '--max-resource-units', 100) : -1,
      issued_to: opts.issuedTo ?? 'shoal',
      issuer: opts.issuer ?? 'shoal',
      start_date_in_millis: -1,
    },
    key,
  );
}
