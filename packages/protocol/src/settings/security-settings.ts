/**
 * Security's node settings (Elasticsearch's XPackSettings, TokenService and the HTTP SSL
 * settings), fixed at node start-up: `-E key=value` or the config file's `settings`.
 */
import type { Setting } from './setting.ts';

function node(key: string, type: Setting['type'], def: Setting['default']): Setting {
  return { key, type, default: def, scope: 'node', dynamic: false };
}

export const HTTP_SSL_ENABLED = 'xpack.security.http.ssl.enabled';
export const TOKEN_SERVICE_ENABLED = 'xpack.security.authc.token.enabled';

export const SECURITY_SETTINGS: readonly Setting[] = [
  node('xpack.security.enabled', { kind: 'bool' }, 'true'),
  node('xpack.security.authc.password_hashing.algorithm', { kind: 'string' }, 'bcrypt'),
  // XPackSettings.TOKEN_SERVICE_ENABLED_SETTING: on when HTTP has TLS, unless set.
  node(TOKEN_SERVICE_ENABLED, { kind: 'bool' }, (flat) => flat[HTTP_SSL_ENABLED] ?? 'false'),
  // TokenService.TOKEN_EXPIRATION: 20m, at least 1s and at most 1h.
  node(
    'xpack.security.authc.token.timeout',
    { kind: 'time', minMs: 1000, minText: '1s', maxMs: 3_600_000, maxText: '1h' },
    '20m',
  ),
  node(HTTP_SSL_ENABLED, { kind: 'bool' }, 'false'),
  node('xpack.security.http.ssl.key', { kind: 'string' }, ''),
  node('xpack.security.http.ssl.key_passphrase', { kind: 'string' }, ''),
  node('xpack.security.http.ssl.certificate', { kind: 'string' }, ''),
  node('xpack.security.http.ssl.certificate_authorities', { kind: 'list' }, []),
];
