import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expiryMillis, IssueError, issueLicense } from './license-issue.ts';
import { verifyLicense } from './license-signature.ts';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');

describe('issueLicense', () => {
  it('signs what it issues, counting resource units for enterprise only', () => {
    const ent = issueLicense({ type: 'enterprise', expires: '2030-01-01', maxResourceUnits: 7 }, privateKey);
    expect(ent).toMatchObject({
      max_nodes: -1,
      max_resource_units: 7,
      expiry_date_in_millis: Date.parse('2030-01-01'),
    });
    expect(verifyLicense(ent, publicKey)).toBe(true);
    expect(verifyLicense({ ...ent, expiry_date_in_millis: ent.expiry_date_in_millis + 1 }, publicKey)).toBe(
      false,
    );
    const gold = issueLicense({ type: 'gold', expires: '30d', now: 0 }, privateKey);
    expect(gold).toMatchObject({
      max_nodes: 100,
      max_resource_units: -1,
      expiry_date_in_millis: 30 * 86_400_000,
    });
  });

  it('refuses what cannot be issued', () => {
    expect(() => issueLicense({ type: 'basic', expires: '1d' }, privateKey)).toThrow(IssueError);
    expect(() => issueLicense({ type: 'diamond', expires: '1d' }, privateKey)).toThrow(IssueError);
    expect(() => issueLicense({ type: 'enterprise', expires: '1d', maxNodes: 3 }, privateKey)).toThrow(
      /resource units/,
    );
    expect(() => expiryMillis('soon', 0)).toThrow(IssueError);
  });
});
