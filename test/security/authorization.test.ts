import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

const PASSWORD = 'test-user-password';
const as = (user: string) => ({ authorization: basicAuth(user, PASSWORD) });

async function user(name: string, roles: string[]): Promise<void> {
  const r = await http(node.url, 'PUT', `/_security/user/${name}`, { password: PASSWORD, roles });
  expect(r.status).toBe(200);
}

async function role(name: string, body: unknown): Promise<void> {
  const r = await http(node.url, 'PUT', `/_security/role/${name}`, body);
  expect(r.status).toBe(200);
}

beforeAll(async () => {
  // The memory report is one of Shoal's /_internal routes.
  node = await startTestNode({ env: { SHOAL_MEMORY_REPORT: '1' } });
  for (const index of ['logs-1', 'logs-2', 'other']) {
    await http(node.url, 'PUT', `/${index}/_doc/1?refresh=true`, { message: `in ${index}` });
  }
  await role('logs_reader', { cluster: ['monitor'], indices: [{ names: ['logs-*'], privileges: ['read'] }] });
  await role('new_writer', { indices: [{ names: ['new-*'], privileges: ['index'] }] });
  await role('new_creator', { indices: [{ names: ['new-*'], privileges: ['index', 'create_index'] }] });
  await role('raw_creator', {
    indices: [{ names: ['new-*'], privileges: ['index', 'indices:admin/create'] }],
  });
  await role('everything', { cluster: ['all'], indices: [{ names: ['*'], privileges: ['all'] }] });
  await role('runner', { run_as: ['reader'] });
  await user('reader', ['logs_reader']);
  await user('writer', ['new_writer']);
  await user('creator', ['new_creator']);
  await user('raw', ['raw_creator']);
  await user('admin', ['everything']);
  await user('runner', ['runner', 'viewer']);
  await user('ghost', ['logs_reader', 'no_such_role']);
});
afterAll(async () => {
  await node?.stop();
});

describe('index privileges', () => {
  it('grants an index the role names and refuses another with the reason Elasticsearch gives', async () => {
    expect(
      (await http(node.url, 'GET', '/logs-1/_search', undefined, as('reader'))).json.hits.total.value,
    ).toBe(1);
    const denied = await http(node.url, 'GET', '/other/_search', undefined, as('reader'));
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({
      error: {
        root_cause: [
          {
            type: 'security_exception',
            reason:
              'action [indices:data/read/search] is unauthorized for user [reader] with effective roles [logs_reader] on indices [other], this action is granted by the index privileges [read,all]',
          },
        ],
        type: 'security_exception',
        reason:
          'action [indices:data/read/search] is unauthorized for user [reader] with effective roles [logs_reader] on indices [other], this action is granted by the index privileges [read,all]',
      },
      status: 403,
    });
    const mixed = await http(node.url, 'GET', '/logs-1,other/_doc/1', undefined, as('reader'));
    expect(mixed.status).toBe(403);
  });

  it('expands wildcards and _all only to the indices the user may read', async () => {
    for (const path of ['/_search', '/*/_search', '/logs-*,oth*/_search', '/_all/_count']) {
      const r = await http(
        node.url,
        'POST',
        `${path}${path.endsWith('_count') ? '' : '?size=10'}`,
        undefined,
        as('reader'),
      );
      expect({ path, status: r.status }).toEqual({ path, status: 200 });
      if (r.json.hits)
        expect(r.json.hits.hits.map((h: { _index: string }) => h._index).sort()).toEqual([
          'logs-1',
          'logs-2',
        ]);
      else expect(r.json.count).toBe(2);
    }
    const none = await http(node.url, 'GET', '/oth*/_search', undefined, as('reader'));
    expect(none.status).toBe(200);
    expect(none.json.hits.total.value).toBe(0);
  });

  it('names the missing roles of a user', async () => {
    const r = await http(node.url, 'GET', '/other/_search', undefined, as('ghost'));
    expect(r.json.error.reason).toBe(
      'action [indices:data/read/search] is unauthorized for user [ghost] with effective roles [logs_reader] (assigned roles [no_such_role] were not found) on indices [other], this action is granted by the index privileges [read,all]',
    );
  });

  it('needs create_index, not the raw indices:admin/create action, to create an index by writing to it', async () => {
    const writer = await http(node.url, 'PUT', '/new-1/_doc/1', { a: 1 }, as('writer'));
    expect(writer.status).toBe(403);
    expect(writer.json.error.reason).toBe(
      'action [indices:admin/auto_create] is unauthorized for user [writer] with effective roles [new_writer] on indices [new-1], this action is granted by the index privileges [auto_configure,create_index,manage,all]',
    );
    const raw = await http(node.url, 'PUT', '/new-1/_doc/1', { a: 1 }, as('raw'));
    expect(raw.status).toBe(403);
    expect(raw.json.error.reason).toContain(
      'action [indices:admin/auto_create] is unauthorized for user [raw]',
    );
    const creator = await http(node.url, 'PUT', '/new-1/_doc/1', { a: 1 }, as('creator'));
    expect(creator.status).toBe(201);
    // Once the index exists, index alone is enough.
    expect((await http(node.url, 'PUT', '/new-1/_doc/2', { a: 2 }, as('writer'))).status).toBe(201);
    // The raw action does allow the create-index API itself.
    expect((await http(node.url, 'PUT', '/new-2', undefined, as('raw'))).status).toBe(200);
  });

  it('authorizes each item of a bulk request: a denied item fails alone with its 403', async () => {
    const ok = await http(
      node.url,
      'POST',
      '/_bulk',
      ndjson([{ index: { _index: 'new-1', _id: '3' } }, { a: 3 }]),
      {
        ...as('writer'),
        'content-type': 'application/x-ndjson',
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.json.errors).toBe(false);
    const mixed = await http(
      node.url,
      'POST',
      '/_bulk?refresh=true',
      ndjson([
        { index: { _index: 'new-1', _id: '4' } },
        { a: 4 },
        { delete: { _index: 'other', _id: '1' } },
        { create: { _index: 'new-missing', _id: '1' } },
        { a: 5 },
        { update: { _index: 'other', _id: '1' } },
        { doc: { b: 1 } },
      ]),
      { ...as('writer'), 'content-type': 'application/x-ndjson' },
    );
    expect(mixed.status).toBe(200);
    expect(mixed.json.errors).toBe(true);
    const [indexed, deleted, created, updated] = mixed.json.items;
    expect(indexed.index).toMatchObject({ _index: 'new-1', _id: '4', status: 201, result: 'created' });
    expect(deleted.delete).toEqual({
      _index: 'other',
      _id: '1',
      status: 403,
      error: {
        type: 'security_exception',
        reason:
          'action [indices:data/write/delete] is unauthorized for user [writer] with effective roles [new_writer] on indices [other], this action is granted by the index privileges [delete,write,all]',
      },
    });
    // Writing to a missing index needs create_index as well: that item fails too.
    expect(created.create).toMatchObject({ _index: 'new-missing', status: 403 });
    expect(created.create.error.reason).toContain('action [indices:admin/auto_create] is unauthorized');
    expect(updated.update).toMatchObject({ status: 403 });
    expect(updated.update.error.reason).toContain('action [indices:data/write/update] is unauthorized');
    // The denied delete did nothing; the allowed write is there.
    expect((await http(node.url, 'GET', '/other/_doc/1')).json.found).toBe(true);
    expect((await http(node.url, 'GET', '/new-1/_doc/4')).json.found).toBe(true);
    // A user with no write privilege anywhere is refused the whole request.
    const none = await http(
      node.url,
      'POST',
      '/_bulk',
      ndjson([{ index: { _index: 'logs-1', _id: '9' } }, { a: 9 }]),
      { ...as('reader'), 'content-type': 'application/x-ndjson' },
    );
    expect(none.status).toBe(403);
  });

  it('keeps the security index from everyone: superusers may read it, no one may write it', async () => {
    expect((await http(node.url, 'GET', '/.security-7/_search')).status).toBe(200);
    const write = await http(node.url, 'PUT', '/.security-7/_doc/user-mallory', {
      password: 'x',
      type: 'user',
    });
    expect(write.status).toBe(403);
    expect(write.json.error.reason).toContain(
      'is unauthorized for user [elastic] with effective roles [superuser] on indices [.security-7]',
    );
    const admin = await http(node.url, 'GET', '/.security-7/_search', undefined, as('admin'));
    expect(admin.status).toBe(403);
    const all = await http(node.url, 'GET', '/_search?expand_wildcards=all&size=100', undefined, as('admin'));
    expect(all.status).toBe(200);
    expect(all.json.hits.hits.map((h: { _index: string }) => h._index)).not.toContain('.security-7');
  });
});

describe('cluster privileges', () => {
  it('grants monitor actions to monitor and refuses management', async () => {
    expect((await http(node.url, 'GET', '/_cluster/health', undefined, as('reader'))).status).toBe(200);
    const r = await http(node.url, 'PUT', '/_cluster/settings', { persistent: {} }, as('reader'));
    expect(r.status).toBe(403);
    expect(r.json.error.reason).toBe(
      'action [cluster:admin/settings/update] is unauthorized for user [reader] with effective roles [logs_reader], this action is granted by the cluster privileges [manage,all]',
    );
  });

  it("keeps Shoal's /_internal routes for superusers", async () => {
    expect((await http(node.url, 'GET', '/_internal/memory')).status).toBe(200);
    const r = await http(node.url, 'GET', '/_internal/memory', undefined, as('admin'));
    expect(r.status).toBe(403);
    expect(r.json.error.reason).toBe(
      'action [cluster:monitor/memory] is unauthorized for user [admin] with effective roles [everything]',
    );
  });
});

describe('privilege checks', () => {
  it('answers _has_privileges for the caller', async () => {
    const r = await http(
      node.url,
      'POST',
      '/_security/user/_has_privileges',
      {
        cluster: ['monitor', 'manage'],
        index: [{ names: ['logs-1', 'other'], privileges: ['read', 'write'] }],
      },
      as('reader'),
    );
    expect(r.json).toEqual({
      username: 'reader',
      has_all_requested: false,
      cluster: { monitor: true, manage: false },
      index: { 'logs-1': { read: true, write: false }, other: { read: false, write: false } },
      application: {},
    });
    const other = await http(
      node.url,
      'GET',
      '/_security/user/elastic/_has_privileges',
      { cluster: ['all'] },
      as('reader'),
    );
    expect(other.status).toBe(400);
    expect(other.json.error.reason).toBe('users may only check the privileges of their own account');
    const admin = await http(node.url, 'POST', '/_security/user/elastic/_has_privileges', {
      cluster: ['all', 'manage_security'],
    });
    expect(admin.json.has_all_requested).toBe(true);
  });

  it("lists the caller's own privileges", async () => {
    const r = await http(node.url, 'GET', '/_security/user/_privileges', undefined, as('reader'));
    expect(r.json).toEqual({
      cluster: ['monitor'],
      global: [],
      indices: [{ names: ['logs-*'], privileges: ['read'], allow_restricted_indices: false }],
      applications: [],
      run_as: [],
    });
  });
});

describe('run as', () => {
  it('acts as the named user when the role allows it, and refuses otherwise', async () => {
    const r = await http(node.url, 'GET', '/_security/_authenticate', undefined, {
      ...as('runner'),
      'es-security-runas-user': 'reader',
    });
    expect(r.status).toBe(200);
    expect(r.json.username).toBe('reader');
    expect(r.json.lookup_realm).toEqual({ name: 'default_native', type: 'native' });
    const search = await http(node.url, 'GET', '/other/_search', undefined, {
      ...as('runner'),
      'es-security-runas-user': 'reader',
    });
    expect(search.status).toBe(403);
    expect(search.json.error.reason).toContain(
      'is unauthorized for user [runner] run as [reader] with effective roles [logs_reader]',
    );
    const denied = await http(node.url, 'GET', '/', undefined, {
      ...as('runner'),
      'es-security-runas-user': 'admin',
    });
    expect(denied.status).toBe(403);
    expect(denied.json.error.reason).toBe(
      'action [cluster:monitor/main] is unauthorized for user [runner] with effective roles [runner,viewer], because user [runner] is unauthorized to run as [admin]',
    );
  });
});

describe('requests that name their indices in the body', () => {
  it('_msearch authorizes every search by the indices its header names', async () => {
    const ok = await http(
      node.url,
      'POST',
      '/_msearch',
      ndjson([{ index: 'logs-1' }, { query: { match_all: {} } }]),
      { 'content-type': 'application/x-ndjson', ...as('reader') },
    );
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.responses[0].hits.total.value).toBe(1);
    const denied = await http(
      node.url,
      'POST',
      '/logs-1/_msearch',
      ndjson([{}, { query: { match_all: {} } }, { index: 'other' }, { query: { match_all: {} } }]),
      { 'content-type': 'application/x-ndjson', ...as('reader') },
    );
    expect(denied.status).toBe(403);
    expect(denied.json.error.reason).toMatch(/on indices \[other\]/);
  });

  it('_reindex needs read on the source and write on the destination', async () => {
    await role('copier', {
      indices: [
        { names: ['logs-*'], privileges: ['read'] },
        { names: ['new-*'], privileges: ['write', 'create_index'] },
      ],
    });
    await user('copier', ['copier']);
    const noRead = await http(
      node.url,
      'POST',
      '/_reindex',
      { source: { index: 'other' }, dest: { index: 'new-copy' } },
      as('copier'),
    );
    expect(noRead.status).toBe(403);
    expect(noRead.json.error.reason).toMatch(/on indices \[other\]/);
    const noWrite = await http(
      node.url,
      'POST',
      '/_reindex',
      { source: { index: 'logs-1' }, dest: { index: 'other' } },
      as('copier'),
    );
    expect(noWrite.status).toBe(403);
    expect(noWrite.json.error.reason).toMatch(/on indices \[other\]/);
    const ok = await http(
      node.url,
      'POST',
      '/_reindex?refresh=true',
      { source: { index: 'logs-1' }, dest: { index: 'new-copy' } },
      as('copier'),
    );
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.created).toBe(1);
  });
});
