/**
 * HTTPS on the HTTP port: a CA and a server certificate made for the test (@peculiar/x509),
 * configured through `xpack.security.http.ssl.*` (the certificate by a path relative to the
 * config directory), then served, trusted by its CA fingerprint, and listed by
 * `GET /_ssl/certificates`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The 7.13 package's export map hides its typings from NodeNext resolution; its deep path has them.
import { Client } from '@elastic/elasticsearch/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprint, makeCa, makeSigned, type TestCertificate } from '../support/certificates.ts';
import { basicAuth, TEST_AUTH } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
let dir: string;
let ca: TestCertificate;
let server: TestCertificate;

async function makeCertificates() {
  ca = await makeCa('O=Shoal, CN=Shoal Test CA', '0f1e');
  server = await makeSigned(ca, 'O=Shoal, OU=search, CN=localhost', { serialNumber: '00a1b2', server: true });
  mkdirSync(join(dir, 'certs'));
  writeFileSync(join(dir, 'certs', 'http.crt'), server.pem);
  writeFileSync(join(dir, 'certs', 'http.key'), server.keyPem);
  writeFileSync(join(dir, 'ca.crt'), ca.pem);
}

function https(path: string, opts: { method?: string; body?: unknown; trustCa?: boolean } = {}) {
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response shapes
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = httpsRequest(
      new URL(path, node.url),
      {
        method: opts.method ?? 'GET',
        ...(opts.trustCa === false ? {} : { ca: ca.pem }),
        headers: {
          authorization: basicAuth(TEST_AUTH.username, TEST_AUTH.password),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shoal-tls-'));
  await makeCertificates();
  node = await startTestNode({
    env: { SHOAL_CONFIG_DIR: dir },
    args: [
      '-E',
      'xpack.security.http.ssl.enabled=true',
      '-E',
      'xpack.security.http.ssl.key=certs/http.key',
      '-E',
      'xpack.security.http.ssl.certificate=certs/http.crt',
      '-E',
      `xpack.security.http.ssl.certificate_authorities=${join(dir, 'ca.crt')}`,
    ],
  });
});
afterAll(async () => {
  await node?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('HTTPS', () => {
  it('serves HTTPS to a client trusting the CA, and nothing over plain HTTP', async () => {
    expect(node.url.startsWith('https://127.0.0.1:')).toBe(true);
    const root = await https('/');
    expect(root.status).toBe(200);
    expect(root.json.tagline).toBeDefined();
    await expect(https('/', { trustCa: false })).rejects.toThrow(/certificate/);
    const plain = await new Promise<number | Error>((resolve) => {
      const req = httpRequest(new URL('/', node.url.replace('https:', 'http:')), (res) =>
        resolve(res.statusCode ?? 0),
      );
      req.on('error', (e) => resolve(e));
      req.end();
    });
    expect(plain === 200).toBe(false);
  });

  it("logs the CA's fingerprint; the official client connects trusting that CA, and not without it", async () => {
    const expected = await fingerprint(ca);
    expect(node.logs.some((l) => l.ca_fingerprint === expected)).toBe(true);
    const client = new Client({ node: node.url, auth: node.auth, ssl: { ca: ca.pem }, maxRetries: 0 });
    const untrusting = new Client({ node: node.url, auth: node.auth, maxRetries: 0 });
    try {
      const health = await client.cluster.health();
      expect(health.body.cluster_name).toBeDefined();
      await expect(untrusting.cluster.health()).rejects.toThrow(/certificate/);
    } finally {
      await client.close();
      await untrusting.close();
    }
  });

  it('lists the configured certificates as Elasticsearch does', async () => {
    const r = await https('/_ssl/certificates');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([
      {
        path: join(dir, 'ca.crt'),
        format: 'PEM',
        alias: null,
        subject_dn: 'CN=Shoal Test CA,O=Shoal',
        serial_number: 'f1e',
        has_private_key: false,
        expiry: new Date(Math.floor(ca.cert.notAfter.getTime() / 1000) * 1000).toISOString(),
        issuer: 'CN=Shoal Test CA,O=Shoal',
      },
      {
        path: 'certs/http.crt',
        format: 'PEM',
        alias: null,
        subject_dn: 'CN=localhost,OU=search,O=Shoal',
        serial_number: 'a1b2',
        has_private_key: true,
        expiry: new Date(Math.floor(server.cert.notAfter.getTime() / 1000) * 1000).toISOString(),
        issuer: 'CN=Shoal Test CA,O=Shoal',
      },
    ]);
  });

  it('turns the token service on by default', async () => {
    const r = await https('/_security/oauth2/token', {
      method: 'POST',
      body: { grant_type: 'client_credentials' },
    });
    expect(r.status).toBe(200);
    expect(r.json.type).toBe('Bearer');
  });

  it('enrolls the dashboard with a new elastic/dashboard token and the HTTP CA; node enrollment is not there yet', async () => {
    const r = await https('/_security/enroll/dashboard');
    expect(r.status).toBe(200);
    expect(r.json.token.name).toMatch(/^enroll-process-token-\d+$/);
    expect(r.json.http_ca).toBe(ca.der64);
    const me = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(
        new URL('/_security/_authenticate', node.url),
        { ca: ca.pem, headers: { authorization: `Bearer ${r.json.token.value}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(me).toBe(200);
    const nodeEnrollment = await https('/_security/enroll/node');
    expect(nodeEnrollment.status).toBe(501);
  });
});
