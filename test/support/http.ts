/**
 * Raw HTTP for end-to-end tests, through node:http so that GET requests can carry a body
 * (fetch refuses them) exactly as Elasticsearch clients send them.
 */
import { request } from 'node:http';

/** The `elastic` user's password on every test node (node-process.ts sets ELASTIC_PASSWORD). */
export const TEST_PASSWORD = 'shoal-test-password';
export const TEST_AUTH = Object.freeze({ username: 'elastic', password: TEST_PASSWORD });

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

const DEFAULT_AUTHORIZATION = basicAuth(TEST_AUTH.username, TEST_AUTH.password);

/**
 * Requests carry the test superuser's credentials unless the caller sends its own
 * `authorization` header; an empty one sends none (tests of unauthenticated requests).
 */
function withCredentials(headers: Record<string, string>): Record<string, string> {
  const given = Object.keys(headers).find((k) => k.toLowerCase() === 'authorization');
  if (given === undefined) return { authorization: DEFAULT_AUTHORIZATION, ...headers };
  if (headers[given] !== '') return headers;
  const { [given]: _dropped, ...rest } = headers;
  return rest;
}

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON (undefined when empty or not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response shapes
  json: any;
}

export function http(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const payload =
    body === undefined
      ? undefined
      : typeof body === 'string' || Buffer.isBuffer(body)
        ? body
        : JSON.stringify(body);
  return rawHttp(
    base,
    method,
    path,
    payload,
    payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
  );
}

/**
 * A request with exactly these headers (and the body's content-length, and the test
 * credentials as `http` adds them): no Content-Type is added.
 */
export function rawHttp(
  base: string,
  method: string,
  path: string,
  payload: string | Buffer | undefined,
  headers: Record<string, string>,
): Promise<HttpResult> {
  headers = withCredentials(headers);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, base),
      {
        method,
        headers:
          payload === undefined
            ? headers
            : { 'content-length': String(Buffer.byteLength(payload)), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** NDJSON body for `_bulk` from action/source pairs. */
export function ndjson(lines: unknown[]): string {
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}
