/**
 * The IdP's SAML metadata (`idp.metadata.path`): its signing certificates and its single
 * sign-on and single logout endpoints, read from the EntityDescriptor whose entityID is
 * `idp.entity_id`. A file is re-read when it changes (Elasticsearch's file watcher); an https
 * URL is fetched again after `idp.metadata.http.refresh`, keeping the last good copy when a
 * refresh fails.
 */
import { X509Certificate } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { Element } from '@xmldom/xmldom';
import type { MetadataLocation } from './saml-settings.ts';
import { attr, children, descendants, is, NS, parseXml, REDIRECT_BINDING, text } from './xml.ts';

export interface IdpDescriptor {
  entityId: string;
  signingCertificates: X509Certificate[];
  /** The SingleSignOnService of the HTTP-Redirect binding. */
  ssoUrl?: string;
  /** The SingleLogoutService of the HTTP-Redirect binding: where requests and responses go. */
  slo?: { location: string; responseLocation: string };
}

/** Reads the descriptor of `entityId` out of a metadata document (EntityDescriptor or EntitiesDescriptor). */
export function parseIdpMetadata(xml: string, entityId: string, source: string): IdpDescriptor {
  const root = parseXml(xml);
  const entities = is(root, NS.metadata, 'EntityDescriptor')
    ? [root]
    : descendants(root, NS.metadata, 'EntityDescriptor');
  const entity = entities.find((e) => attr(e, 'entityID') === entityId);
  if (!entity) throw new Error(`Cannot find metadata for entity [${entityId}] in [${source}]`);
  const idp = children(entity, NS.metadata, 'IDPSSODescriptor')[0];
  if (!idp) throw new Error(`The metadata of [${entityId}] in [${source}] has no IDPSSODescriptor`);
  const out: IdpDescriptor = { entityId, signingCertificates: signingCertificates(idp) };
  const redirect = (name: string) =>
    children(idp, NS.metadata, name).find((s) => attr(s, 'Binding') === REDIRECT_BINDING);
  const sso = attr(redirect('SingleSignOnService'), 'Location');
  if (sso) out.ssoUrl = sso;
  const slo = redirect('SingleLogoutService');
  const location = attr(slo, 'Location');
  if (location) out.slo = { location, responseLocation: attr(slo, 'ResponseLocation') || location };
  return out;
}

/** The certificates of KeyDescriptors for signing (`use="signing"`, or no `use`: for both). */
function signingCertificates(idp: Element): X509Certificate[] {
  const out: X509Certificate[] = [];
  for (const kd of children(idp, NS.metadata, 'KeyDescriptor')) {
    const use = attr(kd, 'use');
    if (use !== undefined && use !== 'signing') continue;
    for (const c of descendants(kd, NS.dsig, 'X509Certificate')) {
      const b64 = (text(c) ?? '').replace(/\s+/g, '');
      out.push(new X509Certificate(Buffer.from(b64, 'base64')));
    }
  }
  return out;
}

export interface MetadataSource {
  /** The current descriptor; throws (with the reason) when none could be read. */
  get(): Promise<IdpDescriptor>;
}

class FileMetadata implements MetadataSource {
  private loaded: { mtimeMs: number; size: number; idp: IdpDescriptor } | undefined;

  constructor(
    private readonly path: string,
    private readonly entityId: string,
  ) {}

  async get(): Promise<IdpDescriptor> {
    const s = await stat(this.path);
    if (this.loaded && this.loaded.mtimeMs === s.mtimeMs && this.loaded.size === s.size)
      return this.loaded.idp;
    const idp = parseIdpMetadata(await readFile(this.path, 'utf8'), this.entityId, this.path);
    this.loaded = { mtimeMs: s.mtimeMs, size: s.size, idp };
    return idp;
  }
}

/** How long the IdP may take to answer (`idp.metadata.http.connect_timeout` and friends). */
const HTTP_TIMEOUT_MS = 5000;

class UrlMetadata implements MetadataSource {
  private loaded: { at: number; idp: IdpDescriptor } | undefined;
  private fetching: Promise<IdpDescriptor> | undefined;

  constructor(
    private readonly url: URL,
    private readonly refreshMs: number,
    private readonly entityId: string,
    private readonly now: () => number,
  ) {}

  async get(): Promise<IdpDescriptor> {
    if (this.loaded && this.now() - this.loaded.at < this.refreshMs) return this.loaded.idp;
    this.fetching ??= this.fetch().finally(() => {
      this.fetching = undefined;
    });
    try {
      return await this.fetching;
    } catch (e) {
      if (this.loaded) return this.loaded.idp;
      throw e;
    }
  }

  private async fetch(): Promise<IdpDescriptor> {
    const res = await fetch(this.url, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`[${this.url}] answered with HTTP status ${res.status}`);
    const idp = parseIdpMetadata(await res.text(), this.entityId, this.url.toString());
    this.loaded = { at: this.now(), idp };
    return idp;
  }
}

export function metadataSource(
  location: MetadataLocation,
  entityId: string,
  now: () => number,
): MetadataSource {
  return location.kind === 'file'
    ? new FileMetadata(location.path, entityId)
    : new UrlMetadata(location.url, location.refreshMs, entityId, now);
}
