import { describe, expect, it } from 'vitest';
import { secureSettingsFrom } from './secure-settings.ts';

describe('secureSettingsFrom', () => {
  it('takes the secure realm settings from the environment, and nothing else', () => {
    const secret = 'xpack.security.authc.realms.oidc.oidc1.rp.client_secret';
    expect(
      secureSettingsFrom({
        [secret]: 's3cret',
        'xpack.security.authc.realms.oidc.oidc1.rp.client_id': 'c',
        'xpack.security.enabled': 'false',
        PATH: '/usr/bin',
        UNSET: undefined,
      }),
    ).toEqual({ [secret]: 's3cret' });
  });
});
