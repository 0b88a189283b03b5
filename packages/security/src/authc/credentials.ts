/**
 * The credentials of a request's `Authorization` header: `Basic base64(user:password)`,
 * `ApiKey base64(id:key)` and `Bearer <token>`, the scheme matched case-insensitively.
 */

export type Credentials =
  | { scheme: 'basic'; username: string; password: string }
  | { scheme: 'apikey'; value: string }
  | { scheme: 'bearer'; value: string };

/** A header that names a scheme but cannot be read. */
export class MalformedCredentials extends Error {}

function schemeOf(header: string): { scheme: string; rest: string } {
  const sp = header.indexOf(' ');
  if (sp < 0) return { scheme: header.toLowerCase(), rest: '' };
  return { scheme: header.slice(0, sp).toLowerCase(), rest: header.slice(sp + 1).trim() };
}

/** undefined: no header, or a scheme Shoal does not take (the request is then unauthenticated). */
export function parseAuthorization(header: string | undefined): Credentials | undefined {
  if (header === undefined || header === '') return undefined;
  const { scheme, rest } = schemeOf(header.trim());
  if (scheme === 'basic') {
    // UsernamePasswordToken.extractToken: the decoded value must hold a colon.
    const decoded = Buffer.from(rest, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (rest === '' || colon < 0) throw new MalformedCredentials('invalid basic authentication header value');
    return { scheme: 'basic', username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  if (scheme === 'apikey') return { scheme: 'apikey', value: rest };
  if (scheme === 'bearer') return { scheme: 'bearer', value: rest };
  return undefined;
}
