import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BASIC_NEVER_EXPIRES } from './license.ts';
import { issueLicense } from './license-issue.ts';
import { LicenseService } from './license-service.ts';
import { MemoryLicenseStore } from './license-store.ts';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const NOW = Date.parse('2026-06-01T00:00:00Z');

function service(store = new MemoryLicenseStore()) {
  return new LicenseService(store, { clusterName: 'c', now: () => NOW, verificationKey: () => publicKey });
}

describe('LicenseService', () => {
  it('starts on a stored self-generated basic license that never expires', () => {
    const store = new MemoryLicenseStore();
    const s = service(store);
    expect(s.current()).toMatchObject({
      type: 'basic',
      expiry_date_in_millis: BASIC_NEVER_EXPIRES,
      issued_to: 'c',
    });
    expect(store.state?.license.uid).toBe(s.current().uid);
    expect(service(store).current().uid).toBe(s.current().uid);
  });

  it('verifies signatures: a changed field or another key makes the license invalid', () => {
    const s = service();
    const lic = issueLicense({ type: 'platinum', expires: '10d', now: NOW }, privateKey);
    expect(s.put({ ...lic, issued_to: 'someone else' }, true).license_status).toBe('invalid');
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(
      s.put(issueLicense({ type: 'platinum', expires: '10d', now: NOW }, other), true).license_status,
    ).toBe('invalid');
    expect(
      s.put(issueLicense({ type: 'gold', expires: '10d', now: NOW + 1000 }, privateKey), true).license_status,
    ).toBe('invalid');
    expect(s.put(lic, false)).toEqual({ acknowledged: true, license_status: 'valid' });
    expect(s.current().uid).toBe(lic.uid);
  });

  it('without a verification key accepts no signed license', () => {
    const s = new LicenseService(new MemoryLicenseStore(), {
      clusterName: 'c',
      now: () => NOW,
      verificationKey: () => undefined,
    });
    const lic = issueLicense({ type: 'gold', expires: '10d', now: NOW }, privateKey);
    expect(s.put(lic, true).license_status).toBe('invalid');
  });

  it('asks before installing an older license over a newer signed one', () => {
    const s = service();
    s.put(issueLicense({ type: 'platinum', expires: '10d', now: NOW }, privateKey), true);
    const older = issueLicense({ type: 'platinum', expires: '20d', now: NOW - 1000 }, privateKey);
    const r = s.put(older, false);
    expect(r.acknowledged).toBe(false);
    expect(r.acknowledge?.license).toEqual([
      'The new license is older than the currently installed license. Are you sure you want to override the current license?',
    ]);
  });

  it('starts one trial per cluster, even after going back to basic', () => {
    const s = service();
    expect(s.startTrial(true, 'enterprise').status).toBe(200);
    expect(s.current()).toMatchObject({ type: 'enterprise', max_nodes: -1, max_resource_units: 1000 });
    expect(s.startBasic(true).body).toEqual({ acknowledged: true, basic_was_started: true });
    expect(s.trialEligible()).toBe(false);
    expect(s.startTrial(true, 'trial').status).toBe(403);
  });
});
