import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

describe('service accounts', () => {
  it('lists the built-in accounts', async () => {
    const all = await http(node.url, 'GET', '/_security/service');
    expect(Object.keys(all.json)).toEqual([
      'elastic/auto-ops',
      'elastic/dashboard',
      'elastic/enterprise-search-server',
      'elastic/fleet-server',
      'elastic/fleet-server-remote',
    ]);
    const fleet = await http(node.url, 'GET', '/_security/service/elastic/fleet-server');
    expect(fleet.json['elastic/fleet-server'].role_descriptor.cluster).toEqual([
      'monitor',
      'manage_own_api_key',
      'read_fleet_secrets',
    ]);
    expect(fleet.json['elastic/fleet-server'].role_descriptor.transient_metadata).toEqual({ enabled: true });
    expect((await http(node.url, 'GET', '/_security/service/nobody')).json).toEqual({});
  });

  it('creates a token that authenticates as the account, with its role descriptor', async () => {
    const created = await http(
      node.url,
      'POST',
      '/_security/service/elastic/fleet-server/credential/token/token1',
    );
    expect(created.status).toBe(200);
    expect(created.json.created).toBe(true);
    expect(created.json.token.name).toBe('token1');
    const value = created.json.token.value as string;
    // 00 01 00 01, then `elastic/fleet-server/token1:<secret>`, base64 without padding.
    expect(value.startsWith('AAEAAWVsYXN0aWMv')).toBe(true);
    expect(value.endsWith('=')).toBe(false);
    const decoded = Buffer.from(value, 'base64');
    expect([...decoded.subarray(0, 4)]).toEqual([0, 1, 0, 1]);
    expect(decoded.subarray(4).toString('utf8')).toMatch(/^elastic\/fleet-server\/token1:.+$/);
    const me = await http(node.url, 'GET', '/_security/_authenticate', undefined, bearer(value));
    expect(me.status).toBe(200);
    expect(me.json).toEqual({
      username: 'elastic/fleet-server',
      roles: [],
      full_name: 'Service account - elastic/fleet-server',
      email: null,
      token: { name: 'token1', type: '_service_account_index' },
      metadata: { _elastic_service_account: true },
      enabled: true,
      authentication_realm: { name: '_service_account', type: '_service_account' },
      lookup_realm: { name: '_service_account', type: '_service_account' },
      authentication_type: 'token',
    });
    expect((await http(node.url, 'PUT', '/logs-fleet/_doc/1', { a: 1 }, bearer(value))).status).toBe(201);
    const denied = await http(node.url, 'GET', '/_security/user', undefined, bearer(value));
    expect(denied.status).toBe(403);
    expect(denied.json.error.reason).toContain('is unauthorized for service account [elastic/fleet-server]');
    const dup = await http(
      node.url,
      'POST',
      '/_security/service/elastic/fleet-server/credential/token/token1',
    );
    expect(dup.status).toBe(409);
    const creds = await http(node.url, 'GET', '/_security/service/elastic/fleet-server/credential');
    expect(creds.json).toEqual({
      service_account: 'elastic/fleet-server',
      count: 1,
      tokens: { token1: {} },
      nodes_credentials: { _nodes: { total: 1, successful: 1, failed: 0 }, file_tokens: {} },
    });
    expect(
      (await http(node.url, 'DELETE', '/_security/service/elastic/fleet-server/credential/token/token1'))
        .json,
    ).toEqual({ found: true });
    const after = await http(node.url, 'GET', '/', undefined, bearer(value));
    expect(after.status).toBe(401);
    const gone = await http(
      node.url,
      'DELETE',
      '/_security/service/elastic/fleet-server/credential/token/token1',
    );
    expect(gone.status).toBe(404);
  });

  it('refuses bad names and unknown accounts', async () => {
    const bad = await http(node.url, 'POST', '/_security/service/elastic/fleet-server/credential/token/_bad');
    expect(bad.status).toBe(400);
    const unknown = await http(node.url, 'POST', '/_security/service/elastic/nobody/credential/token/t');
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.reason).toBe('service account [elastic/nobody] does not exist');
    const garbage = await http(node.url, 'GET', '/', undefined, bearer('not-a-token'));
    expect(garbage.status).toBe(401);
  });
});
