/**
 * Security's exceptions: ElasticsearchSecurityException (`security_exception`, 401 with the
 * `WWW-Authenticate` challenges or 403) and the ValidationException that the security actions
 * throw (`validation_exception`, 400, the same `Validation Failed: 1: …;` reason as
 * ActionRequestValidationException).
 */
import { ShoalError } from './shoal-error.ts';

/**
 * A failed authentication: 401 with one `WWW-Authenticate` challenge per scheme the node
 * accepts, written both as HTTP headers and in the body's `header` (as Elasticsearch's
 * DefaultAuthenticationFailureHandler does). `metadata` carries fields such as
 * `additional_unsuccessful_credentials`.
 */
export function authenticationFailed(
  reason: string,
  challenges: string[],
  metadata: Record<string, unknown> = {},
): ShoalError {
  return new ShoalError('security_exception', reason, 401, metadata, undefined, {
    bodyHeaders: { 'WWW-Authenticate': challenges },
  });
}

/** A denied action: 403 with AuthorizationDenialMessages' reason. */
export function accessDenied(reason: string): ShoalError {
  return new ShoalError('security_exception', reason, 403);
}

/** A security_exception with another status (ElasticsearchSecurityException's default is 500). */
export function securityException(reason: string, status = 500): ShoalError {
  return new ShoalError('security_exception', reason, status);
}

/** org.elasticsearch.common.ValidationException: `Validation Failed: 1: …;2: …;`. */
export function validationException(messages: string[]): ShoalError {
  const reason = `Validation Failed: ${messages.map((m, i) => `${i + 1}: ${m};`).join('')}`;
  return new ShoalError('validation_exception', reason, 400);
}

/**
 * An OAuth2 error of the token endpoint (RFC 6749 §5.2, as RestGetTokenAction answers):
 * 400 `{"error":"<code>","error_description":"<description>"}` — `invalid_grant`,
 * `invalid_request`, `unsupported_grant_type`.
 */
export function oauth2Error(code: string, description: string): ShoalError {
  return new ShoalError(code, description, 400, {}, undefined, { oauth2: true });
}

/**
 * FeatureNotEnabledException: a security service that is switched off (400, with
 * `disabled.feature` naming it for clients: `security_tokens`, `api_keys`).
 */
export function featureNotEnabled(feature: 'security_tokens' | 'api_keys', reason: string): ShoalError {
  return new ShoalError('feature_not_enabled_exception', reason, 400, { 'disabled.feature': feature });
}
