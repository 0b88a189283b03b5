import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node?.stop();
});

const as = (user: string, password: string) => ({ authorization: basicAuth(user, password) });

describe('the user APIs', () => {
  it('creates, reads, updates and deletes a native user', async () => {
    const created = await http(node.url, 'PUT', '/_security/user/joe', {
      password: 's3krit-password',
      roles: ['superuser'],
      full_name: 'Bazooka Joe',
      email: 'joe@bazooka.gum',
      metadata: { key1: 'val1' },
    });
    expect(created.status).toBe(200);
    expect(created.json).toEqual({ created: true });
    const got = await http(node.url, 'GET', '/_security/user/joe');
    expect(got.json).toEqual({
      joe: {
        username: 'joe',
        roles: ['superuser'],
        full_name: 'Bazooka Joe',
        email: 'joe@bazooka.gum',
        metadata: { key1: 'val1' },
        enabled: true,
      },
    });
    // An update without a password keeps it.
    const updated = await http(node.url, 'POST', '/_security/user/joe', { roles: ['viewer'], email: null });
    expect(updated.json).toEqual({ created: false });
    const after = await http(
      node.url,
      'GET',
      '/_security/_authenticate',
      undefined,
      as('joe', 's3krit-password'),
    );
    expect(after.json.roles).toEqual(['viewer']);
    expect(after.json.email).toBeNull();
    expect(after.json.full_name).toBe('Bazooka Joe');
    const deleted = await http(node.url, 'DELETE', '/_security/user/joe');
    expect(deleted.json).toEqual({ found: true });
    const again = await http(node.url, 'DELETE', '/_security/user/joe');
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ found: false });
    expect((await http(node.url, 'GET', '/', undefined, as('joe', 's3krit-password'))).status).toBe(401);
  });

  it('takes a password hash of the configured algorithm', async () => {
    await http(node.url, 'PUT', '/_security/user/bob', {
      password: 'correct horse battery staple',
      roles: [],
    });
    const doc = await http(node.url, 'GET', '/.security/_doc/user-bob');
    expect(doc.status).toBe(200);
    const hash = doc.json._source.password as string;
    expect(hash).toMatch(/^\$2[aby]\$10\$/);
    await http(node.url, 'PUT', '/_security/user/carl', { password_hash: hash, roles: ['superuser'] });
    const r = await http(
      node.url,
      'GET',
      '/_security/_authenticate',
      undefined,
      as('carl', 'correct horse battery staple'),
    );
    expect(r.json.username).toBe('carl');
    const bad = await http(node.url, 'PUT', '/_security/user/carl', { password_hash: 'not-a-hash' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('action_request_validation_exception');
  });

  it('lists the built-in users with the native ones, and answers 404 {} when none of the named exist', async () => {
    await http(node.url, 'PUT', '/_security/user/dora', { password: 'dora-pass', roles: ['viewer'] });
    const all = await http(node.url, 'GET', '/_security/user');
    expect(Object.keys(all.json)).toEqual(
      expect.arrayContaining([
        'elastic',
        'dashboard_system',
        'dashboard',
        'logstash_system',
        'beats_system',
        'apm_system',
        'remote_monitoring_user',
        'dora',
      ]),
    );
    expect(all.json.elastic.metadata).toEqual({ _reserved: true });
    expect(all.json.dashboard.metadata).toEqual({
      _reserved: true,
      _deprecated: true,
      _deprecated_reason: 'Please use the [dashboard_system] user instead.',
    });
    const some = await http(node.url, 'GET', '/_security/user/dora,nobody');
    expect(Object.keys(some.json)).toEqual(['dora']);
    const none = await http(node.url, 'GET', '/_security/user/nobody,_system');
    expect(none.status).toBe(404);
    expect(none.json).toEqual({});
  });

  it('refuses bad input with a 400 and stores nothing', async () => {
    const cases: [string, string, unknown, string, string][] = [
      [
        'PUT',
        '/_security/user/eve',
        { password: 'short' },
        'action_request_validation_exception',
        'Validation Failed: 1: passwords must be at least [6] characters long;',
      ],
      [
        'PUT',
        '/_security/user/eve',
        { roles: [] },
        'validation_exception',
        'Validation Failed: 1: password must be specified unless you are updating an existing user;',
      ],
      [
        'PUT',
        '/_security/user/eve',
        { password: 'long-enough', colour: 'red' },
        'parse_exception',
        'failed to parse add user request. unexpected field [colour]',
      ],
      [
        'PUT',
        '/_security/user/eve',
        { password: 'long-enough', roles: 'x', enabled: 'yes' },
        'parse_exception',
        'expected field [enabled] to be of type boolean, but found [string] instead',
      ],
      [
        'PUT',
        '/_security/user/elastic',
        { password: 'long-enough' },
        'action_request_validation_exception',
        'Validation Failed: 1: user [elastic] is reserved and only the password can be changed;',
      ],
      [
        'PUT',
        '/_security/user/_system',
        { password: 'long-enough' },
        'action_request_validation_exception',
        'Validation Failed: 1: user [_system] is internal;',
      ],
      [
        'PUT',
        '/_security/user/eve',
        { username: 'eva', password: 'long-enough' },
        'parse_exception',
        'failed to parse add user request. username in body [eva] does not match path [eve]',
      ],
      [
        'DELETE',
        '/_security/user/elastic',
        undefined,
        'illegal_argument_exception',
        'user [elastic] is reserved and cannot be deleted',
      ],
      [
        'PUT',
        '/_security/user/nobody/_password',
        { password: 'long-enough' },
        'validation_exception',
        'Validation Failed: 1: user must exist in order to change password;',
      ],
      [
        'PUT',
        '/_security/user/eve?refresh=sometimes',
        { password: 'long-enough' },
        'illegal_argument_exception',
        'Unknown value for refresh: [sometimes].',
      ],
      [
        'GET',
        '/_security/user?colour=red',
        undefined,
        'illegal_argument_exception',
        'request [/_security/user] contains unrecognized parameter: [colour]',
      ],
    ];
    for (const [method, path, body, type, reason] of cases) {
      const r = await http(node.url, method, path, body);
      expect({ path, status: r.status, type: r.json.error?.type, reason: r.json.error?.reason }).toEqual({
        path,
        status: 400,
        type,
        reason,
      });
    }
    expect((await http(node.url, 'GET', '/_security/user/eve')).status).toBe(404);
    const spaced = await http(node.url, 'PUT', '/_security/user/%20eve', { password: 'long-enough' });
    expect(spaced.status).toBe(400);
    expect(spaced.json.error.reason).toContain('Leading or trailing whitespace is not allowed.');
    const noBody = await http(node.url, 'PUT', '/_security/user/eve');
    expect(noBody.status).toBe(400);
    expect(noBody.json.error.reason).toBe('request body is required');
  });

  it('does not let users change their own enabled status', async () => {
    await http(node.url, 'PUT', '/_security/user/fay', { password: 'fay-password', roles: ['superuser'] });
    const r = await http(
      node.url,
      'PUT',
      '/_security/user/fay/_disable',
      undefined,
      as('fay', 'fay-password'),
    );
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe('users may not update the enabled status of their own account');
    const missing = await http(node.url, 'PUT', '/_security/user/nobody/_enable');
    expect(missing.status).toBe(400);
    expect(missing.json.error.type).toBe('validation_exception');
  });

  it("lets users change their own password but not another's without manage_security", async () => {
    await http(node.url, 'PUT', '/_security/user/gus', { password: 'gus-password', roles: ['viewer'] });
    const own = await http(
      node.url,
      'PUT',
      '/_security/user/gus/_password',
      { password: 'gus-password-2' },
      as('gus', 'gus-password'),
    );
    expect(own.status).toBe(200);
    const other = await http(
      node.url,
      'PUT',
      '/_security/user/elastic/_password',
      { password: 'stolen-pass' },
      as('gus', 'gus-password-2'),
    );
    expect(other.status).toBe(403);
    expect(other.json.error.reason).toBe(
      'action [cluster:admin/ext/security/user/change_password] is unauthorized for user [gus] with effective roles [viewer], this action is granted by the cluster privileges [manage_security,all]',
    );
  });
});

describe('querying users', () => {
  it('finds native users (never the built-in ones) with a query, a sort and paging', async () => {
    for (const [name, roles, enabled] of [
      ['q-ann', ['viewer'], true],
      ['q-bob', ['editor', 'viewer'], true],
      ['q-cat', ['viewer'], false],
    ] as const) {
      await http(node.url, 'PUT', `/_security/user/${name}`, {
        password: 'query-password',
        roles,
        enabled,
        email: `${name}@example.com`,
      });
    }
    const r = await http(node.url, 'POST', '/_security/_query/user', {
      query: { bool: { must: [{ prefix: { username: 'q-' } }, { term: { roles: 'viewer' } }] } },
      sort: [{ username: 'desc' }],
      from: 1,
      size: 1,
    });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      total: 3,
      count: 1,
      users: [
        {
          username: 'q-bob',
          roles: ['editor', 'viewer'],
          full_name: null,
          email: 'q-bob@example.com',
          metadata: {},
          enabled: true,
          _sort: ['q-bob'],
        },
      ],
    });
    const all = await http(node.url, 'GET', '/_security/_query/user');
    const names = all.json.users.map((u: { username: string }) => u.username);
    expect(names).not.toContain('elastic');
    expect(names).toEqual(expect.arrayContaining(['q-ann', 'q-bob', 'q-cat']));
    const disabled = await http(node.url, 'POST', '/_security/_query/user', {
      query: { term: { enabled: false } },
    });
    expect(disabled.json.users.map((u: { username: string }) => u.username)).toEqual(['q-cat']);
  });

  it('refuses a password field, a sort on email, and an unknown body field', async () => {
    const pw = await http(node.url, 'POST', '/_security/_query/user', { query: { term: { password: 'x' } } });
    expect(pw.status).toBe(400);
    expect(pw.json.error.reason).toBe('Field [password] is not allowed for querying or aggregation');
    const sort = await http(node.url, 'POST', '/_security/_query/user', { sort: ['email'] });
    expect(sort.json.error.reason).toBe('sorting is not supported for field [email]');
    const aggs = await http(node.url, 'POST', '/_security/_query/user', { aggs: {} });
    expect(aggs.status).toBe(400);
    expect(aggs.json.error.type).toBe('x_content_parse_exception');
  });
});
