/**
 * A small OpenID provider for end-to-end tests, on loopback over HTTPS with a certificate of a
 * CA made per run: a token endpoint that trades the codes the test hands out for signed ID
 * tokens, a UserInfo endpoint (claims `department` and `groups`), a JWK set (whose signing
 * key the test may rotate) and an end-session URL. Keys are
 * generated per run with jose; the authorization endpoint is never called (the test plays
 * the browser and builds the callback URL itself).
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { makeCa, makeSigned, type TestCertificate } from './certificates.ts';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

export interface SigningKey {
  kid: string;
  privateKey: PrivateKey;
  jwk: Record<string, unknown>;
}

export interface TokenRequestSeen {
  authorization: string | undefined;
  form: Record<string, string>;
}

export interface TestOidcProvider {
  /** `https://127.0.0.1:<port>`, also the issuer. */
  issuer: string;
  ca: TestCertificate;
  clientId: string;
  clientSecret: string;
  /** The key ID tokens are signed with now. */
  signing: SigningKey;
  /** The JWK set the provider publishes (`/jwks`). */
  jwks(): { keys: Record<string, unknown>[] };
  /** A new RS256 key (not published until `publish`). */
  newKey(kid: string): Promise<SigningKey>;
  /** Signs with the new key from now on and publishes only it. */
  rotate(key: SigningKey): void;
  /** An ID token with the usual claims for this client, `claims` added or overriding. */
  idToken(claims: JWTPayload, opts?: { key?: SigningKey; alg?: string; secret?: string }): Promise<string>;
  /** A code the token endpoint trades for an ID token with these claims. */
  code(claims: JWTPayload): string;
  /** The token requests received so far. */
  tokenRequests: TokenRequestSeen[];
  close(): Promise<void>;
}

async function rsaKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

function readBody(req: import('node:http').IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** RFC 6749 §2.3.1: Basic credentials of the form-urlencoded client id and secret. */
function clientAuthenticated(header: string | undefined, clientId: string, secret: string): boolean {
  if (!header?.startsWith('Basic ')) return false;
  const [id, password] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
  const decode = (s: string | undefined) => decodeURIComponent((s ?? '').replace(/\+/g, ' '));
  return decode(id) === clientId && decode(password) === secret;
}

export async function startOidcProvider(clientId: string, clientSecret: string): Promise<TestOidcProvider> {
  const ca = await makeCa('CN=Test OP CA');
  const tls = await makeSigned(ca, 'CN=localhost', { server: true });
  let signing = await rsaKey('k1');
  let published = [signing.jwk];
  const codes = new Map<string, JWTPayload>();
  /** The claims of the ID token given with each access token (for `/userinfo`). */
  const issued = new Map<string, JWTPayload>();
  const userInfo = { department: 'search', groups: ['from-userinfo'] };
  const tokenRequests: TokenRequestSeen[] = [];
  let next = 0;
  let issuer = '';

  const idToken: TestOidcProvider['idToken'] = async (claims, opts = {}) => {
    const key = opts.key ?? signing;
    const alg = opts.alg ?? 'RS256';
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({ iss: issuer, aud: clientId, iat: now, exp: now + 300, ...claims });
    if (opts.secret !== undefined) {
      return jwt.setProtectedHeader({ alg }).sign(new TextEncoder().encode(opts.secret));
    }
    return jwt.setProtectedHeader({ alg, kid: key.kid }).sign(key.privateKey);
  };

  const server: Server = createServer({ key: tls.keyPem, cert: tls.pem }, async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', issuer);
    if (req.method === 'GET' && url.pathname === '/jwks') return send(200, { keys: published });
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
      tokenRequests.push({ authorization: req.headers.authorization, form });
      if (!clientAuthenticated(req.headers.authorization, clientId, clientSecret))
        return send(401, { error: 'invalid_client' });
      const claims = form.grant_type === 'authorization_code' ? codes.get(form.code ?? '') : undefined;
      if (!claims) return send(400, { error: 'invalid_grant', error_description: 'unknown code' });
      codes.delete(form.code!);
      const accessToken = `op-access-${next++}`;
      issued.set(accessToken, claims);
      return send(200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 300,
        id_token: await idToken(claims),
      });
    }
    if (req.method === 'GET' && url.pathname === '/userinfo') {
      const claims = issued.get(req.headers.authorization?.replace(/^Bearer /, '') ?? '');
      if (!claims) return send(401, { error: 'invalid_token' });
      return send(200, { sub: claims.sub, ...userInfo });
    }
    send(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    ca,
    clientId,
    clientSecret,
    get signing() {
      return signing;
    },
    jwks: () => ({ keys: published }),
    newKey: rsaKey,
    rotate(key) {
      signing = key;
      published = [key.jwk];
    },
    idToken,
    code(claims) {
      const code = `code-${next++}`;
      codes.set(code, claims);
      return code;
    },
    tokenRequests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
