/**
 * Raw HTTP for end-to-end tests, through node:http so that GET requests can carry a body
 * (fetch refuses them) exactly as Elasticsearch clients send them.
 */
import { request } from 'node:http';

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

/** A request with exactly these headers (and the body's content-length): no Content-Type is added. */
export function rawHttp(
  base: string,
  method: string,
  path: string,
  payload: string | Buffer | undefined,
  headers: Record<string, string>,
): Promise<HttpResult> {
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
