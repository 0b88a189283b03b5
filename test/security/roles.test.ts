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

describe('the role APIs', () => {
  it('creates, reads, updates and deletes a native role', async () => {
    const body = {
      description: 'Reads the logs',
      cluster: ['monitor'],
      indices: [{ names: ['logs-*', '/metrics-[0-9]+/'], privileges: ['read', 'view_index_metadata'] }],
      run_as: ['other_user'],
      metadata: { version: 1 },
    };
    const created = await http(node.url, 'PUT', '/_security/role/logs_reader', body);
    expect(created.json).toEqual({ role: { created: true } });
    const got = await http(node.url, 'GET', '/_security/role/logs_reader');
    expect(got.json).toEqual({
      logs_reader: {
        description: 'Reads the logs',
        cluster: ['monitor'],
        indices: [
          {
            names: ['logs-*', '/metrics-[0-9]+/'],
            privileges: ['read', 'view_index_metadata'],
            allow_restricted_indices: false,
          },
        ],
        applications: [],
        run_as: ['other_user'],
        metadata: { version: 1 },
        transient_metadata: { enabled: true },
      },
    });
    const updated = await http(node.url, 'POST', '/_security/role/logs_reader', { cluster: ['all'] });
    expect(updated.json).toEqual({ role: { created: false } });
    expect((await http(node.url, 'GET', '/_security/role/logs_reader')).json.logs_reader.cluster).toEqual([
      'all',
    ]);
    expect((await http(node.url, 'DELETE', '/_security/role/logs_reader')).json).toEqual({ found: true });
    const gone = await http(node.url, 'DELETE', '/_security/role/logs_reader');
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ found: false });
    const none = await http(node.url, 'GET', '/_security/role/logs_reader');
    expect(none.status).toBe(404);
    expect(none.json).toEqual({});
  });

  it('lists the built-in roles, marked reserved, the deprecated ones marked deprecated', async () => {
    const all = await http(node.url, 'GET', '/_security/role');
    for (const name of [
      'superuser',
      'viewer',
      'editor',
      'monitoring_user',
      'dashboard_admin',
      'dashboard_system',
      'dashboard_user',
    ]) {
      expect(all.json[name]?.metadata?._reserved).toBe(true);
    }
    expect(all.json.dashboard_user.metadata).toEqual({
      _reserved: true,
      _deprecated: true,
      _deprecated_reason: 'Please use the [dashboard_admin] role instead',
    });
    expect(all.json.dashboard_user.applications).toEqual(all.json.dashboard_admin.applications);
    expect(all.json.superuser.cluster).toEqual(['all']);
    expect(all.json.superuser.indices).toEqual([
      { names: ['*'], privileges: ['all'], allow_restricted_indices: false },
      {
        names: ['*'],
        privileges: ['monitor', 'read', 'view_index_metadata', 'read_cross_cluster'],
        allow_restricted_indices: true,
      },
    ]);
  });

  it('refuses bad roles with 400 and stores nothing', async () => {
    const reserved = await http(node.url, 'PUT', '/_security/role/superuser', { cluster: ['all'] });
    expect(reserved.status).toBe(400);
    expect(reserved.json.error.reason).toBe(
      'Validation Failed: 1: Role [superuser] is reserved and may not be used.;',
    );
    const cluster = await http(node.url, 'PUT', '/_security/role/bad', {
      cluster: ['bad_cluster_privilege'],
    });
    expect(cluster.status).toBe(400);
    expect(cluster.json.error.type).toBe('action_request_validation_exception');
    expect(cluster.json.error.reason).toMatch(
      /^Validation Failed: 1: unknown cluster privilege \[bad_cluster_privilege\]\. a privilege must be either one of the predefined cluster privilege names \[all,cancel_task,.*\] or a pattern over one of the available cluster actions;$/,
    );
    const index = await http(node.url, 'PUT', '/_security/role/bad', {
      indices: [{ names: ['x'], privileges: ['reed'] }],
    });
    expect(index.json.error.reason).toMatch(
      /unknown index privilege \[reed\]\. a privilege must be either one of the predefined fixed indices privileges \[all,auto_configure,/,
    );
    const field = await http(node.url, 'PUT', '/_security/role/bad', { cluster: [], colour: 'red' });
    expect(field.status).toBe(400);
    expect(field.json.error.type).toBe('parse_exception');
    expect(field.json.error.reason).toBe('failed to parse role [bad]. unexpected field [colour]');
    const names = await http(node.url, 'PUT', '/_security/role/bad', { indices: [{ privileges: ['read'] }] });
    expect(names.json.error.reason).toBe(
      'failed to parse indices privileges for role [bad]. missing required [names] field',
    );
    expect((await http(node.url, 'GET', '/_security/role/bad')).status).toBe(404);
    const del = await http(node.url, 'DELETE', '/_security/role/superuser');
    expect(del.status).toBe(400);
    expect(del.json.error.reason).toBe('role [superuser] is reserved and cannot be deleted');
  });

  it('keeps field and document level security as given', async () => {
    const body = {
      indices: [
        {
          names: ['x'],
          privileges: ['read'],
          field_security: { grant: ['a*'], except: ['ab'] },
          query: '{"term":{"a":1}}',
        },
      ],
    };
    expect((await http(node.url, 'PUT', '/_security/role/fls', body)).status).toBe(200);
    const got = await http(node.url, 'GET', '/_security/role/fls');
    expect(got.json.fls.indices).toEqual([{ ...body.indices[0], allow_restricted_indices: false }]);
  });

  it('clears the role cache with the node-level answer', async () => {
    const r = await http(node.url, 'POST', '/_security/role/*/_clear_cache');
    expect(r.status).toBe(200);
    expect(r.json._nodes).toEqual({ total: 1, successful: 1, failed: 0 });
    expect(r.json.cluster_name).toBe('shoal-local');
    expect(Object.values(r.json.nodes)).toEqual([{ name: 'node-1' }]);
    const realms = await http(node.url, 'POST', '/_security/realm/default_native/_clear_cache?usernames=a,b');
    expect(realms.status).toBe(200);
  });

  it('lists the built-in privileges', async () => {
    const r = await http(node.url, 'GET', '/_security/privilege/_builtin');
    expect(r.json.cluster).toHaveLength(62);
    expect(r.json.cluster).toEqual([...r.json.cluster].sort());
    expect(r.json.index).toEqual([
      'all',
      'auto_configure',
      'create',
      'create_doc',
      'create_index',
      'cross_cluster_replication',
      'cross_cluster_replication_internal',
      'delete',
      'delete_index',
      'index',
      'maintenance',
      'manage',
      'manage_data_stream_lifecycle',
      'manage_follow_index',
      'manage_ilm',
      'manage_leader_index',
      'monitor',
      'none',
      'read',
      'read_cross_cluster',
      'view_index_metadata',
      'write',
    ]);
    expect(r.json.remote_cluster).toEqual(['monitor_enrich', 'monitor_stats']);
  });

  it('puts and deletes roles in bulk, each on its own', async () => {
    const put = await http(node.url, 'POST', '/_security/role', {
      roles: {
        bulk_a: { cluster: ['monitor'] },
        bulk_b: { cluster: ['bad_cluster_privilege'] },
        superuser: { cluster: ['all'] },
      },
    });
    expect(put.status).toBe(200);
    expect(put.json.created).toEqual(['bulk_a']);
    expect(put.json.errors.count).toBe(2);
    expect(put.json.errors.details.bulk_b.type).toBe('action_request_validation_exception');
    expect(put.json.errors.details.superuser.reason).toBe(
      'Validation Failed: 1: Role [superuser] is reserved and may not be used.;',
    );
    const again = await http(node.url, 'POST', '/_security/role', {
      roles: { bulk_a: { cluster: ['monitor'] }, bulk_c: { cluster: [] } },
    });
    expect(again.json).toEqual({ created: ['bulk_c'], noop: ['bulk_a'] });
    const changed = await http(node.url, 'POST', '/_security/role', {
      roles: { bulk_a: { cluster: ['all'] } },
    });
    expect(changed.json).toEqual({ updated: ['bulk_a'] });
    const del = await http(node.url, 'DELETE', '/_security/role', {
      names: ['bulk_a', 'bulk_c', 'nope', 'superuser'],
    });
    expect(del.json).toEqual({
      deleted: ['bulk_a', 'bulk_c'],
      not_found: ['nope'],
      errors: {
        count: 1,
        details: {
          superuser: {
            type: 'illegal_argument_exception',
            reason: 'role [superuser] is reserved and cannot be deleted',
          },
        },
      },
    });
    const noBody = await http(node.url, 'POST', '/_security/role');
    expect(noBody.status).toBe(400);
  });
});

describe('the security index settings', () => {
  it('shows and changes the replica settings of the security index, and nothing else', async () => {
    const before = await http(node.url, 'GET', '/_security/settings');
    expect(before.json).toEqual({
      security: { index: { auto_expand_replicas: '0-1', number_of_replicas: '0' } },
      'security-profile': {},
      'security-tokens': {},
    });
    const put = await http(node.url, 'PUT', '/_security/settings', {
      security: { index: { auto_expand_replicas: '0-all' } },
    });
    expect(put.json).toEqual({ acknowledged: true });
    expect(
      (await http(node.url, 'GET', '/_security/settings')).json.security.index.auto_expand_replicas,
    ).toBe('0-all');
    const bad = await http(node.url, 'PUT', '/_security/settings', {
      security: { 'index.refresh_interval': '5s' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.reason).toContain(
      'illegal settings for index [security]: [index.refresh_interval]',
    );
  });
});

describe('querying roles', () => {
  it('finds native roles by name, description, metadata and applications, sorted by name', async () => {
    await http(node.url, 'PUT', '/_security/role/q_alpha', {
      description: 'first query role',
      metadata: { tier: 'gold' },
      applications: [{ application: 'app-one', privileges: ['read'], resources: ['*'] }],
    });
    await http(node.url, 'PUT', '/_security/role/q_beta', {
      description: 'second',
      metadata: { tier: 'silver' },
    });
    const r = await http(node.url, 'POST', '/_security/_query/role', {
      query: {
        bool: { must: [{ prefix: { name: 'q_' } }], should: [{ term: { 'metadata.tier': 'gold' } }] },
      },
      sort: ['name'],
    });
    expect(r.status).toBe(200);
    expect(r.json.total).toBe(2);
    expect(r.json.roles[0]).toMatchObject({
      name: 'q_alpha',
      description: 'first query role',
      applications: [{ application: 'app-one', privileges: ['read'], resources: ['*'] }],
      metadata: { tier: 'gold' },
      transient_metadata: { enabled: true },
      _sort: ['q_alpha'],
    });
    const byApp = await http(node.url, 'POST', '/_security/_query/role', {
      query: { term: { 'applications.application': 'app-one' } },
    });
    expect(byApp.json.roles.map((x: { name: string }) => x.name)).toEqual(['q_alpha']);
    const byText = await http(node.url, 'POST', '/_security/_query/role', {
      query: { match: { description: 'second' } },
    });
    expect(byText.json.roles.map((x: { name: string }) => x.name)).toEqual(['q_beta']);
    const builtIn = await http(node.url, 'POST', '/_security/_query/role', {
      query: { term: { name: 'superuser' } },
    });
    expect(builtIn.json).toEqual({ total: 0, count: 0, roles: [] });
  });
});

describe('application privileges', () => {
  const asUser = (u: string) => ({ authorization: basicAuth(u, 'app-user-password') });

  it('puts, gets and deletes privileges, with 404 {} for names none of which exist', async () => {
    const put = await http(node.url, 'PUT', '/_security/privilege', {
      myapp: {
        read: { actions: ['data:read/*', 'action:login'], metadata: { description: 'Read access' } },
        write: { actions: ['data:write/*', 'action:login'] },
      },
    });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ myapp: { read: { created: true }, write: { created: true } } });
    const again = await http(node.url, 'POST', '/_security/privilege', {
      myapp: { read: { actions: ['data:read/*', 'action:login'], metadata: { description: 'Read access' } } },
    });
    expect(again.json).toEqual({ myapp: { read: { created: false } } });
    const got = await http(node.url, 'GET', '/_security/privilege/myapp/read');
    expect(got.json).toEqual({
      myapp: {
        read: {
          application: 'myapp',
          name: 'read',
          actions: ['data:read/*', 'action:login'],
          metadata: { description: 'Read access' },
        },
      },
    });
    expect(Object.keys((await http(node.url, 'GET', '/_security/privilege/myapp')).json.myapp)).toEqual([
      'read',
      'write',
    ]);
    expect((await http(node.url, 'GET', '/_security/privilege')).json.myapp).toBeDefined();
    const missing = await http(node.url, 'GET', '/_security/privilege/myapp/nope');
    expect(missing).toMatchObject({ status: 404, json: {} });
    const deleted = await http(node.url, 'DELETE', '/_security/privilege/myapp/write,nope');
    expect(deleted.json).toEqual({ myapp: { write: { found: true }, nope: { found: false } } });
    expect((await http(node.url, 'DELETE', '/_security/privilege/myapp/nope')).status).toBe(404);
    const cleared = await http(node.url, 'POST', '/_security/privilege/myapp/_clear_cache');
    expect(cleared.json._nodes).toEqual({ total: 1, successful: 1, failed: 0 });
  });

  it('refuses bad names and actions with the validation texts', async () => {
    const r = await http(node.url, 'PUT', '/_security/privilege', {
      ab: { Read: { actions: ['read', 'has space:x'] }, ok: { actions: [], metadata: { _x: 1 } } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe(
      "Validation Failed: 1: An application name prefix must be at least 3 characters long (found 'ab');" +
        "2: Application privilege names must match the pattern ^[a-z][a-zA-Z0-9_.-]*$ (found 'Read');" +
        "3: action [read] must contain one of [ '/' , '*' , ':' ];" +
        "4: Application privilege names and actions must match the pattern ^\\p{Graph}*$ (found 'has space:x');" +
        "5: An application name prefix must be at least 3 characters long (found 'ab');" +
        '6: Application privileges must have at least one action;' +
        '7: metadata keys may not start with [_] (in privilege ab ok);',
    );
    const role = await http(node.url, 'PUT', '/_security/role/bad_app', {
      applications: [{ application: '0app', privileges: ['read'], resources: ['*'] }],
    });
    expect(role.json.error.reason).toBe(
      "Validation Failed: 1: An application name prefix must match the pattern ^[a-z][A-Za-z0-9]*$ (found '0app');",
    );
  });

  it("answers _has_privileges and _privileges with the roles' application privileges", async () => {
    await http(node.url, 'PUT', '/_security/privilege', {
      inventory: {
        read: { actions: ['data:read/*'] },
        write: { actions: ['data:write/*'] },
      },
    });
    await http(node.url, 'PUT', '/_security/role/inventory_reader', {
      applications: [
        { application: 'inventory', privileges: ['read', 'data:write/notes'], resources: ['product/*'] },
      ],
    });
    await http(node.url, 'PUT', '/_security/user/app_user', {
      password: 'app-user-password',
      roles: ['inventory_reader'],
    });
    const r = await http(
      node.url,
      'POST',
      '/_security/user/_has_privileges',
      {
        application: [
          {
            application: 'inventory',
            privileges: ['read', 'write', 'data:read/item', 'data:write/notes'],
            resources: ['product/1', 'order/1'],
          },
        ],
      },
      asUser('app_user'),
    );
    expect(r.json).toEqual({
      username: 'app_user',
      has_all_requested: false,
      cluster: {},
      index: {},
      application: {
        inventory: {
          'product/1': { read: true, write: false, 'data:read/item': true, 'data:write/notes': true },
          'order/1': { read: false, write: false, 'data:read/item': false, 'data:write/notes': false },
        },
      },
    });
    const mine = await http(node.url, 'GET', '/_security/user/_privileges', undefined, asUser('app_user'));
    expect(mine.json.applications).toEqual([
      { application: 'inventory', privileges: ['read', 'data:write/notes'], resources: ['product/*'] },
    ]);
  });

  it("lets global.application.manage manage only its applications' privileges", async () => {
    await http(node.url, 'PUT', '/_security/role/app_admin', {
      global: { application: { manage: { applications: ['team-*'] } } },
    });
    const role = await http(node.url, 'GET', '/_security/role/app_admin');
    expect(role.json.app_admin.global).toEqual({
      application: { manage: { applications: ['team-*'] } },
      profile: {},
      role: {},
    });
    await http(node.url, 'PUT', '/_security/user/app_admin_user', {
      password: 'app-user-password',
      roles: ['app_admin'],
    });
    const mine = await http(
      node.url,
      'PUT',
      '/_security/privilege',
      { 'team-a': { read: { actions: ['data:read/*'] } } },
      asUser('app_admin_user'),
    );
    expect(mine.status).toBe(200);
    expect(
      (await http(node.url, 'GET', '/_security/privilege/team-a', undefined, asUser('app_admin_user')))
        .status,
    ).toBe(200);
    const other = await http(
      node.url,
      'PUT',
      '/_security/privilege',
      { 'team-a': { read: { actions: ['data:read/*'] } }, inventory: { x: { actions: ['a:b'] } } },
      asUser('app_admin_user'),
    );
    expect(other.status).toBe(403);
    expect(
      (await http(node.url, 'GET', '/_security/privilege', undefined, asUser('app_admin_user'))).status,
    ).toBe(403);
    expect(
      (
        await http(
          node.url,
          'DELETE',
          '/_security/privilege/team-a/read',
          undefined,
          asUser('app_admin_user'),
        )
      ).status,
    ).toBe(200);
    const privileges = await http(
      node.url,
      'GET',
      '/_security/user/_privileges',
      undefined,
      asUser('app_admin_user'),
    );
    expect(privileges.json.global).toEqual([{ application: { manage: { applications: ['team-*'] } } }]);
    const bad = await http(node.url, 'PUT', '/_security/role/bad_global', { global: { cluster: {} } });
    expect(bad.json.error.type).toBe('x_content_parse_exception');
    expect(bad.json.error.reason).toMatch(
      /\] failed to parse privilege\. expected one of \[application, profile, role\] but found \[cluster\] instead$/,
    );
  });

  it('merges the application entries of several roles in _privileges as Elasticsearch does', async () => {
    await http(node.url, 'PUT', '/_security/role/merge_a', {
      applications: [
        { application: 'test-app', privileges: ['user'], resources: ['*'] },
        { application: 'test-app', privileges: ['read'], resources: ['object/1'] },
      ],
    });
    await http(node.url, 'PUT', '/_security/role/merge_b', {
      applications: [
        { application: 'test-app', privileges: ['dne'], resources: ['*'] },
        { application: 'test-app', privileges: ['read'], resources: ['object/2'] },
      ],
    });
    await http(node.url, 'PUT', '/_security/user/merged_user', {
      password: 'app-user-password',
      roles: ['merge_a', 'merge_b'],
    });
    const r = await http(node.url, 'GET', '/_security/user/_privileges', undefined, asUser('merged_user'));
    expect(r.json.applications).toEqual([
      { application: 'test-app', privileges: ['user', 'dne'], resources: ['*'] },
      { application: 'test-app', privileges: ['read'], resources: ['object/1', 'object/2'] },
    ]);
  });
});
