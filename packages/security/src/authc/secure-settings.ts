/**
 * Secure settings (Elasticsearch's keystore, `bin/elasticsearch-keystore add <setting>`).
 * Shoal keeps no keystore file: a secure setting is an environment variable named as the
 * setting (`xpack.security.authc.realms.oidc.oidc1.rp.client_secret=…`), read once at start;
 * among the plain node settings it is refused.
 */
import { isSecureRealmSetting } from '@shoal/protocol';

export function secureSettingsFrom(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && isSecureRealmSetting(key)) out[key] = value;
  }
  return out;
}
