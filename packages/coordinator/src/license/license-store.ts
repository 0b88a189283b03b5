/**
 * Where the cluster's license lives. Today a node keeps it beside its own metadata
 * (`<data>/_state/license.json`, written atomically); once there is a cluster state it moves
 * there (Elasticsearch keeps LicensesMetadata in the cluster metadata) behind this same
 * interface.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from '../state/state-files.ts';
import type { License } from './license.ts';

export interface LicenseState {
  /** The license in force. */
  license: License;
  /** LicensesMetadata.mostRecentTrialVersion: once a trial ran, no other may start. */
  trialUsed: boolean;
}

export interface LicenseStore {
  /** The stored state, or undefined when the cluster never had a license. */
  load(): LicenseState | undefined;
  save(state: LicenseState): void;
}

const FORMAT = 1;

export class FileLicenseStore implements LicenseStore {
  private readonly path: string;

  constructor(stateDir: string) {
    this.path = join(stateDir, 'license.json');
  }

  load(): LicenseState | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    const j = JSON.parse(text) as { format: number } & LicenseState;
    if (j.format !== FORMAT) throw new Error(`unknown license state format [${j.format}] in ${this.path}`);
    return { license: j.license, trialUsed: j.trialUsed };
  }

  save(state: LicenseState): void {
    writeJsonAtomic(this.path, { format: FORMAT, ...state });
  }
}

/** A store in memory, for unit tests. */
export class MemoryLicenseStore implements LicenseStore {
  state: LicenseState | undefined;
  load(): LicenseState | undefined {
    return this.state;
  }
  save(state: LicenseState): void {
    this.state = structuredClone(state);
  }
}
