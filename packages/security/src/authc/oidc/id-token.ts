/**
 * ID token validation as Elasticsearch's OpenIdConnectAuthenticator does it (Nimbus'
 * IDTokenValidator): signed with exactly the realm's `rp.signature_algorithm`, by a key of the
 * OP's JWK set (or the client secret for HMAC); `iss` the OP's issuer; `aud` naming the client
 * (and `azp` the client when there are several audiences); `exp` and `iat` present and right
 * within `allowed_clock_skew`; `nonce` the one the facilitator holds; and `at_hash` matching
 * the access token where the flow requires it.
 */
import { createHash } from 'node:crypto';
import { errors, type JWTPayload, jwtVerify } from 'jose';
import type { KeySource } from './jwk-source.ts';

/** Why an authentication response was refused; logged by the node, never shown to the caller. */
export class OidcAuthenticationFailure extends Error {}

export interface IdTokenExpectations {
  issuer: string;
  clientId: string;
  algorithm: string;
  nonce: string;
  clockSkewMs: number;
  now: number;
  /** The access token the flow returned, for `at_hash`; `required` in the `id_token token` flow. */
  accessToken?: { value: string; required: boolean };
}

function failed(reason: string): never {
  throw new OidcAuthenticationFailure(reason);
}

/** `at_hash`: the left half of the access token's hash (the signature algorithm's size), base64url. */
export function accessTokenHash(accessToken: string, algorithm: string): string {
  const bits = algorithm.slice(2);
  const digest = createHash(`sha${bits === '384' ? '384' : bits === '512' ? '512' : '256'}`)
    .update(accessToken, 'ascii')
    .digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

async function verifySignature(jwt: string, keys: KeySource, x: IdTokenExpectations): Promise<JWTPayload> {
  const options = {
    algorithms: [x.algorithm],
    currentDate: new Date(x.now),
    clockTolerance: Math.floor(x.clockSkewMs / 1000),
  };
  const verify = async () => {
    const key = await keys.key();
    return typeof (key as unknown) === 'function'
      ? (await jwtVerify(jwt, key as Exclude<typeof key, Uint8Array>, options)).payload
      : (await jwtVerify(jwt, key as Uint8Array, options)).payload;
  };
  try {
    try {
      return await verify();
    } catch (e) {
      // A key the OP rotated in since the JWK set was read: read it again, once.
      const keyProblem =
        e instanceof errors.JWSSignatureVerificationFailed || e instanceof errors.JWKSNoMatchingKey;
      if (keyProblem && (await keys.refresh())) return await verify();
      throw e;
    }
  } catch (e) {
    if (e instanceof errors.JWTExpired) failed(`Expired JWT: ${e.message}`);
    if (e instanceof errors.JOSEAlgNotAllowed) failed(`Signed JWT rejected: Another algorithm expected`);
    if (e instanceof errors.JOSEError) failed(`Failed to validate the ID token: ${e.code}: ${e.message}`);
    // The JWK set could not be read (a file missing or malformed, an OP that does not answer).
    failed(`Failed to get the OP's JWK set: ${(e as Error).message}`);
  }
}

/** The ID token's claims when it passes every check; else an OidcAuthenticationFailure. */
export async function validateIdToken(
  jwt: string,
  keys: KeySource,
  x: IdTokenExpectations,
): Promise<JWTPayload> {
  const claims = await verifySignature(jwt, keys, x);
  if (claims.iss !== x.issuer) failed(`Unexpected JWT issuer: ${String(claims.iss)}`);
  const aud = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
  if (!aud.includes(x.clientId)) failed(`Unexpected JWT audience: [${aud.join(', ')}]`);
  if (claims.azp !== undefined && claims.azp !== x.clientId)
    failed(`Unexpected JWT authorized party (azp) claim: ${String(claims.azp)}`);
  if (aud.length > 1 && claims.azp === undefined)
    failed('JWT authorized party (azp) claim required when multiple (aud) audiences present');
  const nowS = x.now / 1000;
  const skewS = x.clockSkewMs / 1000;
  if (typeof claims.exp !== 'number') failed('Missing JWT expiration (exp) claim');
  if (claims.exp + skewS < nowS) failed('Expired JWT');
  if (typeof claims.iat !== 'number') failed('Missing JWT issue time (iat) claim');
  if (claims.iat - skewS > nowS) failed('JWT issue time ahead of current time');
  if (typeof claims.sub !== 'string') failed('Missing JWT subject (sub) claim');
  if (claims.nonce === undefined) failed('Missing JWT nonce (nonce) claim');
  if (claims.nonce !== x.nonce) failed(`Unexpected JWT nonce (nonce) claim: ${String(claims.nonce)}`);
  const at = x.accessToken;
  if (at) {
    if (claims.at_hash === undefined) {
      if (at.required) failed("Failed to verify access token. ID Token doesn't contain at_hash claim");
    } else if (claims.at_hash !== accessTokenHash(at.value, x.algorithm)) {
      failed('Failed to verify access token. Access token hash (at_hash) mismatch');
    }
  }
  return claims;
}
