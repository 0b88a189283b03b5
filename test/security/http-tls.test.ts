/**
 * HTTPS on the HTTP port: a CA and a server certificate made for the test (@peculiar/x509),
 * configured through `xpack.security.http.ssl.*` (the certificate by a path relative to the
 * config directory), then served, trusted by its CA fingerprint, and listed by
 * `GET /_ssl/certificates`.
 */
// @peculiar/x509 resolves its services through decorators' metadata.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// The 7.13 package's export map hides its typings from NodeNext resolution; its deep path has them.
import { Client } from '@elastic/elasticsearch/index.js';
import * as x509 from '@peculiar/x509';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, TEST_AUTH } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

let node: TestNode;
let dir: string;
let caPem: string;
let caCert: x509.X509Certificate;
let serverCert: x509.X509Certificate;

async function makeCertificates() {
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 2 * 24 * 3600_000);
  const caKeys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
  caCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '0f1e',
    name: 'O=Shoal, CN=Shoal Test CA',
    notBefore,
    notAfter,
    keys: caKeys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const keys = await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify']);
  serverCert = await x509.X509CertificateGenerator.create({
    serialNumber: '00a1b2',
    subject: 'O=Shoal, OU=search, CN=localhost',
    issuer: caCert.subject,
    notBefore,
    notAfter,
    signingKey: caKeys.privateKey,
    publicKey: keys.publicKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'dns', value: 'localhost' },
      ]),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  caPem = caCert.toString('pem');
  mkdirSync(join(dir, 'certs'));
  writeFileSync(join(dir, 'certs', 'http.crt'), serverCert.toString('pem'));
  writeFileSync(join(dir, 'certs', 'http.key'), x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'));
  writeFileSync(join(dir, 'ca.crt'), caPem);
}

function https(path: string, opts: { method?: string; body?: unknown; trustCa?: boolean } = {}) {
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response shapes
  return new Promise<{ status: number; json: any }>((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = httpsRequest(
      new URL(path, node.url),
      {
        method: opts.method ?? 'GET',
        ...(opts.trustCa === false ? {} : { ca: caPem }),
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
    const fingerprint = Buffer.from(await caCert.getThumbprint('SHA-256')).toString('hex');
    expect(node.logs.some((l) => l.ca_fingerprint === fingerprint)).toBe(true);
    const client = new Client({ node: node.url, auth: node.auth, ssl: { ca: caPem }, maxRetries: 0 });
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
        expiry: new Date(Math.floor(caCert.notAfter.getTime() / 1000) * 1000).toISOString(),
        issuer: 'CN=Shoal Test CA,O=Shoal',
      },
      {
        path: 'certs/http.crt',
        format: 'PEM',
        alias: null,
        subject_dn: 'CN=localhost,OU=search,O=Shoal',
        serial_number: 'a1b2',
        has_private_key: true,
        expiry: new Date(Math.floor(serverCert.notAfter.getTime() / 1000) * 1000).toISOString(),
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
});
