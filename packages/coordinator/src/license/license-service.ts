/**
 * The cluster's license and its operations (ClusterStateLicenseService, StartBasicClusterTask,
 * StartTrialClusterTask): what `PUT /_license`, `start_basic`, `start_trial` and
 * `DELETE /_license` do, with the statuses and bodies Elasticsearch answers. A cluster starts
 * on a self-generated basic license that never expires.
 */

import type { KeyObject } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { illegalArgument } from '@shoal/protocol';
import {
  BASIC_NEVER_EXPIRES,
  type License,
  type LicenseType,
  SELF_GENERATED_MAX_NODES,
  SELF_GENERATED_MAX_RESOURCE_UNITS,
  TRIAL_DURATION_MS,
} from './license.ts';
import { ackMessages } from './license-ack.ts';
import { verifyLicense } from './license-signature.ts';
import type { LicenseState, LicenseStore } from './license-store.ts';

export interface LicenseServiceOptions {
  clusterName: string;
  now?: () => number;
  /** The operator's verification key, read when a license is installed (it may be created after the node started). */
  verificationKey: () => KeyObject | undefined;
}

export interface PutLicenseOutcome {
  acknowledged: boolean;
  license_status: 'valid' | 'invalid' | 'expired';
  acknowledge?: Record<string, unknown>;
}

/** A start_basic / start_trial answer: its HTTP status and body. */
export interface StartOutcome {
  status: number;
  body: Record<string, unknown>;
}

const PUT_ACK_HEADER =
  'This license update requires acknowledgement. To acknowledge the license, please read the following messages and update the license again, this time with the "acknowledge=true" parameter:';
const BASIC_ACK_HEADER =
  'This license update requires acknowledgement. To acknowledge the license, please read the following messages and call /start_basic again, this time with the "acknowledge=true" parameter:';
const TRIAL_ACK_HEADER =
  'This API initiates a free 30-day trial for all platinum features. To begin your free trial, call /start_trial again and specify the "acknowledge=true" parameter.';
const TRIAL_ACK_MESSAGES = {
  security: ['With a trial license, security features are available, but are not enabled by default.'],
};

/** PostStartTrialRequest's valid types (LicenseService.VALID_TRIAL_TYPES). */
const VALID_TRIAL_TYPES: readonly LicenseType[] = ['enterprise', 'gold', 'platinum', 'trial'];

export class LicenseService {
  private state: LicenseState;
  private readonly now: () => number;

  constructor(
    private readonly store: LicenseStore,
    private readonly opts: LicenseServiceOptions,
  ) {
    this.now = opts.now ?? Date.now;
    const loaded = store.load();
    if (loaded) {
      this.state = loaded;
    } else {
      this.state = { license: this.basicLicense(), trialUsed: false };
      store.save(this.state);
    }
  }

  current(): License {
    return this.state.license;
  }

  clock(): number {
    return this.now();
  }

  basicEligible(): boolean {
    return this.state.license.type !== 'basic';
  }

  trialEligible(): boolean {
    return !this.state.trialUsed;
  }

  /** ClusterStateLicenseService.registerLicense. */
  put(next: License, acknowledge: boolean): PutLicenseOutcome {
    const now = this.now();
    if (
      !verifyLicense(next, this.opts.verificationKey()) ||
      next.issue_date_in_millis > now ||
      next.start_date_in_millis > now
    ) {
      return { acknowledged: true, license_status: 'invalid' };
    }
    if (next.type === 'basic') throw illegalArgument('Registering basic licenses is not allowed.');
    if (next.expiry_date_in_millis < now) return { acknowledged: true, license_status: 'expired' };
    if (!acknowledge) {
      const messages = ackMessages(next, this.state.license);
      if (Object.keys(messages).length > 0) {
        return {
          acknowledged: false,
          license_status: 'valid',
          acknowledge: { message: PUT_ACK_HEADER, ...messages },
        };
      }
    }
    this.commit({ license: next, trialUsed: this.state.trialUsed });
    return { acknowledged: true, license_status: 'valid' };
  }

  /** StartBasicClusterTask, answered as RestPostStartBasicLicense writes it. */
  startBasic(acknowledge: boolean): StartOutcome {
    const current = this.state.license;
    if (current.type === 'basic' && current.expiry_date_in_millis === BASIC_NEVER_EXPIRES) {
      return {
        status: 403,
        body: {
          acknowledged: true,
          basic_was_started: false,
          error_message: 'Operation failed: Current license is basic.',
        },
      };
    }
    const basic = this.basicLicense();
    if (!acknowledge) {
      const messages = ackMessages(basic, current);
      if (Object.keys(messages).length > 0) {
        return {
          status: 200,
          body: {
            acknowledged: false,
            basic_was_started: false,
            error_message: 'Operation failed: Needs acknowledgement.',
            acknowledge: { message: BASIC_ACK_HEADER, ...messages },
          },
        };
      }
    }
    this.commit({ license: basic, trialUsed: this.state.trialUsed });
    return { status: 200, body: { acknowledged: true, basic_was_started: true } };
  }

  /** StartTrialClusterTask, answered as RestPostStartTrialLicense writes it. */
  startTrial(acknowledge: boolean, type: string): StartOutcome {
    if (!(VALID_TRIAL_TYPES as readonly string[]).includes(type)) {
      throw illegalArgument(
        `Cannot start trial of type [${type}]. Valid trial types are [${[...VALID_TRIAL_TYPES].sort().join(',')}]`,
      );
    }
    if (!acknowledge) {
      return {
        status: 200,
        body: {
          acknowledged: false,
          trial_was_started: false,
          error_message: 'Operation failed: Needs acknowledgement.',
          acknowledge: { message: TRIAL_ACK_HEADER, ...TRIAL_ACK_MESSAGES },
        },
      };
    }
    if (this.state.trialUsed) {
      return {
        status: 403,
        body: {
          acknowledged: true,
          trial_was_started: false,
          error_message: 'Operation failed: Trial was already activated.',
        },
      };
    }
    const issue = this.now();
    const enterprise = type === 'enterprise';
    this.commit({
      license: {
        uid: randomUUID(),
        type: type as LicenseType,
        issue_date_in_millis: issue,
        expiry_date_in_millis: issue + TRIAL_DURATION_MS,
        max_nodes: enterprise ? -1 : SELF_GENERATED_MAX_NODES,
        max_resource_units: enterprise ? SELF_GENERATED_MAX_RESOURCE_UNITS : -1,
        issued_to: this.opts.clusterName,
        issuer: 'elasticsearch',
        start_date_in_millis: -1,
      },
      trialUsed: true,
    });
    return { status: 200, body: { acknowledged: true, trial_was_started: true, type } };
  }

  /**
   * `DELETE /_license`: the cluster goes back to a self-generated basic license (Elasticsearch
   * 8's removeLicense; deleting a basic license changes nothing).
   */
  delete(): void {
    this.startBasic(true);
  }

  private basicLicense(): License {
    return {
      uid: randomUUID(),
      type: 'basic',
      issue_date_in_millis: this.now(),
      expiry_date_in_millis: BASIC_NEVER_EXPIRES,
      max_nodes: SELF_GENERATED_MAX_NODES,
      max_resource_units: -1,
      issued_to: this.opts.clusterName,
      issuer: 'elasticsearch',
      start_date_in_millis: -1,
    };
  }

  private commit(next: LicenseState): void {
    this.store.save(next);
    this.state = next;
  }
}
