/**
 * A SAML realm (Elasticsearch's SamlRealm), the service provider of one IdP: builds the
 * AuthnRequest a facilitator sends the browser to, consumes the IdP's Response into a user and
 * the token metadata logout needs, builds LogoutRequests and LogoutResponses, and reads the
 * IdP's logout messages.
 */
import type { RealmRef } from '../authentication.ts';
import { type IdpDescriptor, type MetadataSource, metadataSource } from './idp-metadata.ts';
import { type LogoutRequestResult, parseLogoutRequest, validateLogoutResponse } from './logout-messages.ts';
import {
  authnRequestXml,
  logoutRequestXml,
  logoutResponseXml,
  newMessageId,
  redirectUrl,
} from './messages.ts';
import { ReplayCache } from './replay-cache.ts';
import { type SamlNameId, validateResponse } from './response.ts';
import { SAML_REALM_TYPE, type SamlRealmConfig } from './saml-settings.ts';
import { spMetadataXml } from './sp-metadata.ts';
import { type SamlUser, TOKEN_METADATA, tokenMetadata, userFromAttributes } from './user-attributes.ts';
import { samlFailure } from './xml.ts';

export interface SamlAuthenticated {
  user: SamlUser;
  /** Kept with the access token: the NameID and session logout and invalidate match on. */
  tokenMetadata: Record<string, string | null>;
}

export class SamlRealm {
  readonly ref: RealmRef;
  private readonly metadata: MetadataSource;
  private readonly replays: ReplayCache;

  constructor(
    readonly config: SamlRealmConfig,
    private readonly now: () => number,
  ) {
    this.ref = { name: config.name, type: SAML_REALM_TYPE };
    this.metadata = metadataSource(config.idp.metadata, config.idp.entityId, now);
    this.replays = new ReplayCache(now);
  }

  get name(): string {
    return this.config.name;
  }

  get acs(): string {
    return this.config.sp.acs;
  }

  /** The IdP's metadata; a SamlException (the realm cannot authenticate) when it cannot be read. */
  async idp(): Promise<IdpDescriptor> {
    try {
      return await this.metadata.get();
    } catch (e) {
      return samlFailure(
        `SAML realm [saml/${this.name}] cannot authenticate because the metadata could not be resolved: ${(e as Error).message}`,
      );
    }
  }

  /** SamlRealm.buildAuthenticationRequest: the AuthnRequest's id and its redirect URL. */
  async prepare(relayState?: string): Promise<{ id: string; redirect: string }> {
    const idp = await this.idp();
    if (!idp.ssoUrl) {
      samlFailure(
        `Identity Provider [${idp.entityId}] does not have a SingleSignOnService with the HTTP-Redirect binding`,
      );
    }
    const id = newMessageId();
    const xml = authnRequestXml(this.config, id, idp.ssoUrl, this.now());
    return {
      id,
      redirect: redirectUrl(this.config, idp.ssoUrl, 'SAMLRequest', 'AuthnRequest', xml, relayState),
    };
  }

  /** Validates the IdP's Response; a SamlException says why it was refused. */
  async authenticate(xml: string, ids: readonly string[]): Promise<SamlAuthenticated> {
    const idp = await this.idp();
    const attributes = await validateResponse(xml, ids, { realm: this.config, idp, now: this.now() });
    const user = userFromAttributes(this.config, attributes);
    if (!this.replays.claim(attributes.assertionId, attributes.acceptedUntil))
      samlFailure(`SAML assertion [${attributes.assertionId}] has already been used`);
    return { user, tokenMetadata: tokenMetadata(this.name, attributes.nameId, attributes.session) };
  }

  /**
   * SamlRealm.buildLogoutRequest: the LogoutRequest for a token's NameID and session, or null
   * when the IdP has no single logout endpoint (or `idp.use_single_logout` is false).
   */
  async logoutRedirect(metadata: Record<string, unknown>): Promise<{ id: string; redirect: string } | null> {
    const idp = await this.idp();
    if (!idp.slo || !this.config.idp.useSingleLogout) return null;
    const str = (k: string) => (typeof metadata[k] === 'string' ? (metadata[k] as string) : null);
    const value = str(TOKEN_METADATA.nameIdValue);
    if (value === null) return null;
    const nameId: SamlNameId = {
      value,
      format: str(TOKEN_METADATA.nameIdFormat),
      idpNameQualifier: str(TOKEN_METADATA.nameIdQualifier),
      spNameQualifier: str(TOKEN_METADATA.nameIdSpQualifier),
      spProvidedId: str(TOKEN_METADATA.nameIdSpProvidedId),
    };
    const id = newMessageId();
    const xml = logoutRequestXml(
      this.config,
      id,
      idp.slo.location,
      nameId,
      str(TOKEN_METADATA.session),
      this.now(),
    );
    return { id, redirect: redirectUrl(this.config, idp.slo.location, 'SAMLRequest', 'LogoutRequest', xml) };
  }

  /** The IdP's LogoutRequest (IdP-initiated logout), validated. */
  async parseLogoutRequest(queryString: string): Promise<LogoutRequestResult> {
    return parseLogoutRequest(queryString, { realm: this.config, idp: await this.idp() });
  }

  /** The LogoutResponse to a LogoutRequest of the IdP, or null without a single logout endpoint. */
  async logoutResponseRedirect(inResponseTo: string, relayState?: string): Promise<string | null> {
    const idp = await this.idp();
    if (!idp.slo || !this.config.idp.useSingleLogout) return null;
    const xml = logoutResponseXml(this.config, inResponseTo, idp.slo.responseLocation, this.now());
    return redirectUrl(
      this.config,
      idp.slo.responseLocation,
      'SAMLResponse',
      'LogoutResponse',
      xml,
      relayState,
    );
  }

  /** The IdP's answer to an SP-initiated logout, validated. */
  async completeLogout(payload: { queryString: string } | { content: string }, ids: readonly string[]) {
    validateLogoutResponse(payload, ids, { realm: this.config, idp: await this.idp() });
  }

  spMetadata(): string {
    return spMetadataXml(this.config);
  }
}
