/**
 * `POST /_security/delegate_pki` (TransportDelegatePkiAuthenticationAction): a proxy that
 * authenticated a client by its certificate hands over the chain; the first PKI realm with
 * `delegation.enabled` that trusts it names the user, role mappings give the roles, and the
 * answer is an access token (no refresh token) for that user.
 */
import { X509Certificate } from 'node:crypto';
import {
  actionRequestValidation,
  authenticationFailed,
  featureNotEnabled,
  parseException,
} from '@shoal/protocol';
import { type Authentication, authenticateBody } from '../authc/authentication.ts';
import { CHALLENGES } from '../authc/authenticator.ts';
import { mappedRoles } from '../authz/role-mapping.ts';
import type { SecurityContext } from '../context.ts';
import { rfc2253 } from '../ssl/http-ssl.ts';
import { checkFields } from './object-parser.ts';
import { checkParams, ok, requiredObjectBody, type SecurityRequest, type SecurityRoute } from './route.ts';

const ACTION = 'cluster:admin/ext/security/delegate_pki';
const PARSER = 'delegate_pki_request';

function parseChain(req: SecurityRequest): X509Certificate[] {
  const body = requiredObjectBody(req);
  checkFields(req, PARSER, body, ['x509_certificate_chain']);
  const list = body.x509_certificate_chain;
  if (list === undefined) throw parseException(`[${PARSER}] Required [x509_certificate_chain]`);
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string'))
    throw parseException(`[${PARSER}] failed to parse field [x509_certificate_chain]`);
  return list.map((b64) => {
    try {
      return new X509Certificate(Buffer.from(b64, 'base64'));
    } catch {
      throw parseException(`[${PARSER}] failed to parse field [x509_certificate_chain]`);
    }
  });
}

async function delegate(ctx: SecurityContext, req: SecurityRequest, caller: Authentication) {
  checkParams(req, []);
  const chain = parseChain(req);
  const errors: string[] = [];
  if (chain.length === 0) errors.push('certificates chain array must not be empty');
  else if (chain.some((c, i) => i + 1 < chain.length && c.issuer !== chain[i + 1]!.subject))
    errors.push('certificates chain must be an ordered chain');
  if (errors.length > 0) throw actionRequestValidation(errors);
  if (!ctx.tokens) throw featureNotEnabled('security_tokens', 'security tokens are not enabled');
  const now = ctx.host.now();
  for (const realm of ctx.pkiRealms ?? []) {
    if (!realm.delegation) continue;
    const subject = realm.authenticate(chain, now);
    if (!subject) continue;
    const metadata = {
      pki_dn: subject.dn,
      pki_delegated_by_user: caller.user.username,
      pki_delegated_by_realm: caller.realm.name,
    };
    const mappings = (await ctx.roleMappings.list()).map((m) => m.mapping);
    const roles = mappedRoles(mappings, {
      username: subject.username,
      dn: subject.dn,
      groups: [],
      realmName: realm.ref.name,
      metadata,
    });
    const authentication: Authentication = {
      user: { username: subject.username, roles, fullName: null, email: null, metadata, enabled: true },
      realm: realm.ref,
      lookupRealm: realm.ref,
      type: 'realm',
    };
    const issued = await ctx.tokens.create(authentication, caller, false);
    return ok({
      access_token: issued.accessToken,
      type: 'Bearer',
      expires_in: Math.floor(ctx.tokens.timeoutMs / 1000),
      authentication: authenticateBody(authentication),
    });
  }
  const dn = rfc2253(chain[0]!.subject);
  throw authenticationFailed(`unable to authenticate user [${dn}] for action [${ACTION}]`, [...CHALLENGES]);
}

export function delegatePkiRoutes(ctx: SecurityContext): SecurityRoute[] {
  return [
    {
      method: 'POST',
      path: '/_security/delegate_pki',
      action: ACTION,
      handler: (req, auth) => delegate(ctx, req, auth),
    },
  ];
}
