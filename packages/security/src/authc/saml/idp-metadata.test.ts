import { beforeAll, describe, expect, it } from 'vitest';
import { TestSamlIdp } from '../../../../../test/support/saml-idp.ts';
import { parseIdpMetadata } from './idp-metadata.ts';

let idp: TestSamlIdp;
beforeAll(async () => {
  idp = await TestSamlIdp.create('https://idp.test', {
    entityId: 'sp',
    acs: 'https://sp/acs',
    logout: 'https://sp/out',
  });
});

describe('parseIdpMetadata', () => {
  it('reads the signing certificates and the redirect-binding endpoints of the entity', () => {
    const d = parseIdpMetadata(idp.metadataXml(), 'https://idp.test', 'idp.xml');
    expect(d.ssoUrl).toBe('https://idp.test/sso');
    expect(d.slo).toEqual({ location: 'https://idp.test/slo', responseLocation: 'https://idp.test/slo' });
    expect(d.signingCertificates.map((c) => c.subject)).toEqual(['CN=test-idp']);
  });

  it('finds the entity inside an EntitiesDescriptor, and names the one it cannot find', () => {
    const inner = idp.metadataXml().replace(/^<\?xml[^>]*>/, '');
    const all = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${inner}</md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(all, 'https://idp.test', 'all.xml').ssoUrl).toBe('https://idp.test/sso');
    expect(() => parseIdpMetadata(all, 'https://other', 'all.xml')).toThrow(
      'Cannot find metadata for entity [https://other] in [all.xml]',
    );
    expect(() => parseIdpMetadata('<x', 'https://idp.test', 'bad.xml')).toThrow(
      'Failed to parse SAML message',
    );
  });
});
