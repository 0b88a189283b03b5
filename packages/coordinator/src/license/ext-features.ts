/**
 * The extension features `GET /_ext` and `GET /_ext/usage` report (7.8's feature keys,
 * changes78.md §1.6), each with the lowest license mode that makes it available
 * (XPackLicenseState) and whether this node has it switched on.
 */
import { type License, type LicenseType, licenseStatus, MODE_RANK } from './license.ts';

interface Feature {
  name: string;
  /** The lowest operation mode that allows it. */
  minimum: LicenseType;
  /**
   * Whether Shoal provides it. The 7.8 features whose `ext.<feature>.enabled` became a
   * deprecated no-op are always on in Elasticsearch, and report so wherever Shoal serves them.
   */
  provided: boolean;
}

const FEATURES: readonly Feature[] = [
  { name: 'analytics', minimum: 'basic', provided: true },
  { name: 'ccr', minimum: 'platinum', provided: false },
  { name: 'enrich', minimum: 'basic', provided: false },
  { name: 'eql', minimum: 'basic', provided: false },
  { name: 'flattened', minimum: 'basic', provided: false },
  { name: 'frozen_indices', minimum: 'basic', provided: false },
  { name: 'graph', minimum: 'platinum', provided: false },
  { name: 'ilm', minimum: 'basic', provided: false },
  { name: 'logstash', minimum: 'standard', provided: false },
  { name: 'ml', minimum: 'platinum', provided: false },
  { name: 'monitoring', minimum: 'basic', provided: false },
  { name: 'rollup', minimum: 'basic', provided: false },
  { name: 'security', minimum: 'basic', provided: false },
  { name: 'slm', minimum: 'basic', provided: false },
  { name: 'spatial', minimum: 'basic', provided: true },
  { name: 'sql', minimum: 'basic', provided: false },
  { name: 'transform', minimum: 'basic', provided: false },
  { name: 'vectors', minimum: 'basic', provided: false },
  { name: 'voting_only', minimum: 'basic', provided: false },
  { name: 'watcher', minimum: 'standard', provided: false },
];

export interface FeatureState {
  available: boolean;
  enabled: boolean;
}

/** Available: the license is active and its mode reaches the feature's (a trial reaches all). */
export function featureStates(license: License, now: number): Record<string, FeatureState> {
  const active = licenseStatus(license, now) === 'active';
  const out: Record<string, FeatureState> = {};
  for (const f of FEATURES) {
    out[f.name] = {
      available: active && MODE_RANK[license.type] >= MODE_RANK[f.minimum],
      enabled: f.provided,
    };
  }
  return out;
}
