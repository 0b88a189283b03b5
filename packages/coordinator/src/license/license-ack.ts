/**
 * What a license change asks the user to acknowledge (LicenseService.getAckMessages and the
 * per-feature messages of XPackLicenseState.ACKNOWLEDGMENT_MESSAGES), keyed by feature in
 * Elasticsearch's order. An empty map means the change needs no acknowledgement.
 */
import type { License, LicenseType } from './license.ts';

type Mode = LicenseType;
const PAID_OR_TRIAL: readonly Mode[] = ['trial', 'standard', 'gold', 'platinum', 'enterprise'];
const PLATINUM_UP: readonly Mode[] = ['trial', 'platinum', 'enterprise'];

function securityMessages(from: Mode, to: Mode): string[] {
  if (to === 'basic') {
    if (from === 'standard')
      return ['Security will default to disabled (set ext.security.enabled to enable security).'];
    if (from === 'trial' || from === 'gold' || from === 'platinum' || from === 'enterprise') {
      return [
        'Security will default to disabled (set ext.security.enabled to enable security).',
        'Authentication will be limited to the native and file realms.',
        'Security tokens and API keys will not be supported.',
        'IP filtering and auditing will be disabled.',
        'Field and document level access control will be disabled.',
        'Custom realms will be ignored.',
        'A custom authorization engine will be ignored.',
      ];
    }
  }
  if (to === 'gold' && from !== 'gold') {
    return [
      'Field and document level access control will be disabled.',
      'Custom realms will be ignored.',
      'A custom authorization engine will be ignored.',
    ];
  }
  if (to === 'standard' && from !== 'standard') {
    return [
      'Authentication will be limited to the native realms.',
      'IP filtering and auditing will be disabled.',
      'Field and document level access control will be disabled.',
      'Custom realms will be ignored.',
      'A custom authorization engine will be ignored.',
    ];
  }
  return [];
}

function toBasicFromPaid(message: string[]) {
  return (from: Mode, to: Mode) => (to === 'basic' && PAID_OR_TRIAL.includes(from) ? message : []);
}

function lostBelowPlatinum(message: string[]) {
  return (from: Mode, to: Mode) =>
    (to === 'basic' || to === 'standard' || to === 'gold') && PLATINUM_UP.includes(from) ? message : [];
}

const FEATURE_MESSAGES: [string, (from: Mode, to: Mode) => string[]][] = [
  ['security', securityMessages],
  ['watcher', toBasicFromPaid(['Watcher will be disabled'])],
  [
    'monitoring',
    (from, to) =>
      to === 'basic' && PAID_OR_TRIAL.includes(from)
        ? [
            'Multi-cluster support is disabled for clusters with [BASIC] license. If you are\n' +
              "running multiple clusters, users won't be able to access the clusters with\n" +
              '[BASIC] licenses from within a single dashboard instance. You will have to deploy a\n' +
              'separate and dedicated dashboard instance for each [BASIC] cluster you wish to monitor.',
            'Automatic index cleanup is locked to 7 days for clusters with [BASIC] license.',
          ]
        : [],
  ],
  ['graph', lostBelowPlatinum(['Graph will be disabled'])],
  ['ml', lostBelowPlatinum(['Machine learning will be disabled'])],
  ['logstash', toBasicFromPaid(['Logstash will no longer poll for centrally-managed pipelines'])],
  ['beats', toBasicFromPaid(['Beats will no longer be able to use centrally-managed configuration'])],
  [
    'sql',
    lostBelowPlatinum([
      'JDBC and ODBC support will be disabled, but you can continue to use SQL CLI and REST endpoint',
    ]),
  ],
  ['ccr', lostBelowPlatinum(['Cross-Cluster Replication will be disabled'])],
];

export function ackMessages(next: License, current: License): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (current.signature !== undefined && current.issue_date_in_millis > next.issue_date_in_millis) {
    out.license = [
      'The new license is older than the currently installed license. Are you sure you want to override the current license?',
    ];
  }
  for (const [feature, messages] of FEATURE_MESSAGES) {
    const m = messages(current.type, next.type);
    if (m.length > 0) out[feature] = m;
  }
  return out;
}
