import { describe, expect, it } from 'vitest';
import { loadHttpSsl, rfc2253, SslConfigError } from './http-ssl.ts';

describe('HTTP TLS settings', () => {
  it('are off unless enabled', () => {
    expect(loadHttpSsl({}, '/nowhere')).toBeUndefined();
    expect(loadHttpSsl({ 'xpack.security.http.ssl.enabled': 'false' }, '/nowhere')).toBeUndefined();
  });

  it('refuse to start without a key and a certificate, naming the settings', () => {
    expect(() => loadHttpSsl({ 'xpack.security.http.ssl.enabled': 'true' }, '/nowhere')).toThrow(
      SslConfigError,
    );
    expect(() => loadHttpSsl({ 'xpack.security.http.ssl.enabled': 'true' }, '/nowhere')).toThrow(
      /\[xpack\.security\.http\.ssl\.key\] and \[xpack\.security\.http\.ssl\.certificate\]/,
    );
  });

  it('name a file that cannot be read', () => {
    const settings = {
      'xpack.security.http.ssl.enabled': 'true',
      'xpack.security.http.ssl.key': 'certs/missing.key',
      'xpack.security.http.ssl.certificate': 'certs/missing.crt',
    };
    expect(() => loadHttpSsl(settings, '/nowhere')).toThrow(/\/nowhere\/certs\/missing\.key/);
  });

  it('write distinguished names as X500Principal does (RFC 2253, last RDN first)', () => {
    expect(rfc2253('C=US\nO=Shoal\nCN=node-1')).toBe('CN=node-1,O=Shoal,C=US');
  });
});
