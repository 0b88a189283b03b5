import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http, TEST_PASSWORD } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

const CHALLENGES = ['Basic realm="security", charset="UTF-8"', 'Bearer realm="security"', 'ApiKey'];

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

const as = (user: string, password: string) => ({ authorization: basicAuth(user, password) });
const anonymous = { authorization: '' };

describe('authentication', () => {
  it('answers a request without credentials with a 401 and a challenge per scheme', async () => {
    const r = await http(node.url, 'GET', '/_cat/indices?v', undefined, anonymous);
    expect(r.status).toBe(401);
    // Three header lines; node:http joins repeated WWW-Authenticate lines with ", ".
    expect(r.headers['www-authenticate']).toBe(CHALLENGES.join(', '));
    const reason = 'missing authentication credentials for REST request [/_cat/indices?v]';
    const error = { type: 'security_exception', reason, header: { 'WWW-Authenticate': CHALLENGES } };
    expect(r.json).toEqual({ error: { root_cause: [error], ...error }, status: 401 });
  });

  it('refuses a wrong password, naming the user and the request', async () => {
    const r = await http(node.url, 'GET', '/', undefined, as('elastic', 'wrong-password'));
    expect(r.status).toBe(401);
    expect(r.json.error.reason).toBe('unable to authenticate user [elastic] for REST request [/]');
  });

  it('refuses an unknown user and a malformed Basic header', async () => {
    const r = await http(node.url, 'GET', '/', undefined, as('nobody', 'whatever'));
    expect(r.json.error.reason).toBe('unable to authenticate user [nobody] for REST request [/]');
    const bad = await http(node.url, 'GET', '/', undefined, { authorization: 'Basic bm9jb2xvbg==' });
    expect(bad.status).toBe(401);
    expect(bad.json.error.reason).toBe('invalid basic authentication header value');
  });

  it('refuses an API key it does not know, saying why in additional_unsuccessful_credentials', async () => {
    const key = Buffer.from('abc123:secret').toString('base64');
    const r = await http(node.url, 'GET', '/', undefined, { authorization: `ApiKey ${key}` });
    expect(r.status).toBe(401);
    expect(r.json.error.reason).toBe(
      'unable to authenticate with provided credentials and anonymous access is not allowed for this request',
    );
    expect(r.json.error.additional_unsuccessful_credentials).toBe(
      'API key: unable to find apikey with id abc123',
    );
  });

  it('tells the elastic user who it is', async () => {
    const r = await http(node.url, 'GET', '/_security/_authenticate');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      username: 'elastic',
      roles: ['superuser'],
      full_name: null,
      email: null,
      metadata: { _reserved: true },
      enabled: true,
      authentication_realm: { name: 'reserved', type: 'reserved' },
      lookup_realm: { name: 'reserved', type: 'reserved' },
      authentication_type: 'realm',
    });
  });

  it('authenticates a native user, and forgets the old password when it changes', async () => {
    await http(node.url, 'PUT', '/_security/user/ann', { password: 'ann-pass-1', roles: ['viewer'] });
    const first = await http(node.url, 'GET', '/_security/_authenticate', undefined, as('ann', 'ann-pass-1'));
    expect(first.status).toBe(200);
    expect(first.json.authentication_realm).toEqual({ name: 'default_native', type: 'native' });
    const changed = await http(
      node.url,
      'POST',
      '/_security/user/_password',
      { password: 'ann-pass-2' },
      as('ann', 'ann-pass-1'),
    );
    expect(changed.status).toBe(200);
    expect(changed.json).toEqual({});
    expect((await http(node.url, 'GET', '/', undefined, as('ann', 'ann-pass-1'))).status).toBe(401);
    expect(
      (await http(node.url, 'GET', '/_security/_authenticate', undefined, as('ann', 'ann-pass-2'))).status,
    ).toBe(200);
  });

  it('refuses a disabled user until it is enabled again', async () => {
    await http(node.url, 'PUT', '/_security/user/bob', { password: 'bob-pass', roles: ['viewer'] });
    expect(
      (await http(node.url, 'GET', '/_security/_authenticate', undefined, as('bob', 'bob-pass'))).status,
    ).toBe(200);
    expect((await http(node.url, 'PUT', '/_security/user/bob/_disable')).json).toEqual({});
    expect(
      (await http(node.url, 'GET', '/_security/_authenticate', undefined, as('bob', 'bob-pass'))).status,
    ).toBe(401);
    await http(node.url, 'PUT', '/_security/user/bob/_enable');
    expect(
      (await http(node.url, 'GET', '/_security/_authenticate', undefined, as('bob', 'bob-pass'))).status,
    ).toBe(200);
  });

  it('lets a built-in user sign in only once its password is set; the deprecated dashboard user gets a warning', async () => {
    expect((await http(node.url, 'GET', '/', undefined, as('dashboard_system', 'dash-pass'))).status).toBe(
      401,
    );
    await http(node.url, 'PUT', '/_security/user/dashboard_system/_password', { password: 'dash-pass' });
    const sys = await http(
      node.url,
      'GET',
      '/_security/_authenticate',
      undefined,
      as('dashboard_system', 'dash-pass'),
    );
    expect(sys.status).toBe(200);
    expect(sys.json.roles).toEqual(['dashboard_system']);
    // The deprecated user does not share dashboard_system's password.
    expect((await http(node.url, 'GET', '/', undefined, as('dashboard', 'dash-pass'))).status).toBe(401);
    await http(node.url, 'PUT', '/_security/user/dashboard/_password', { password: 'old-dash-pass' });
    const old = await http(
      node.url,
      'GET',
      '/_security/_authenticate',
      undefined,
      as('dashboard', 'old-dash-pass'),
    );
    expect(old.status).toBe(200);
    expect(String(old.headers.warning)).toContain('The user [dashboard] is deprecated');
  });

  it('keeps passwords across a restart', async () => {
    node = await node.restart();
    expect(
      (await http(node.url, 'GET', '/_security/_authenticate', undefined, as('ann', 'ann-pass-2'))).status,
    ).toBe(200);
    expect((await http(node.url, 'GET', '/')).status).toBe(200);
  });
});

describe('the first start', () => {
  it('generates the elastic password when ELASTIC_PASSWORD is not set, shows it once and keeps only its hash', async () => {
    const fresh = await startTestNode({ env: { ELASTIC_PASSWORD: '' } });
    try {
      const m = /shown only this once:\s+(\S+)/.exec(fresh.stderr());
      expect(m).not.toBeNull();
      const password = m![1]!;
      expect(password).not.toBe(TEST_PASSWORD);
      expect((await http(fresh.url, 'GET', '/', undefined, as('elastic', password))).status).toBe(200);
      expect(JSON.stringify(fresh.logs)).not.toContain(password);
      const again = await fresh.restart();
      expect(again.stderr()).not.toContain('shown only this once');
      expect((await http(again.url, 'GET', '/', undefined, as('elastic', password))).status).toBe(200);
      await again.stop();
    } finally {
      await fresh.stop();
    }
  });

  it('serves everyone without credentials when xpack.security.enabled is false', async () => {
    const open = await startTestNode({ security: false });
    try {
      expect((await http(open.url, 'GET', '/', undefined, anonymous)).status).toBe(200);
      expect((await http(open.url, 'GET', '/_security/_authenticate', undefined, anonymous)).status).toBe(
        400,
      );
    } finally {
      await open.stop();
    }
  });
});

describe('npm run reset-password', () => {
  it('gives a user a new password through a temporary file-realm superuser, and removes it again', async () => {
    const root = resolve(import.meta.dirname, '../..');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/reset-password.ts',
        '--user',
        'ann',
        '--url',
        node.url,
        '--data-path',
        node.dataPath,
      ],
      { cwd: root },
    );
    const m = /Password for the \[ann\] user successfully reset\.\nNew value: (\S+)/.exec(stdout);
    expect(m).not.toBeNull();
    expect(
      (await http(node.url, 'GET', '/_security/_authenticate', undefined, as('ann', m![1]!))).status,
    ).toBe(200);
    expect((await http(node.url, 'GET', '/', undefined, as('ann', 'ann-pass-2'))).status).toBe(401);
    expect(readFileSync(join(node.dataPath, 'security', 'users'), 'utf8').trim()).toBe('');
    expect(readFileSync(join(node.dataPath, 'security', 'users_roles'), 'utf8').trim()).toBe('');
  });
});
