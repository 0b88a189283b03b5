/**
 * User profiles end to end: activation by password (and by access token), get with a data
 * filter, enable/disable, labels and data updates with optimistic concurrency, suggestions by
 * name and hints, and has_privileges over the profiles' roles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;
const P = '/_security/profile';

async function activate(username: string, password: string) {
  const r = await http(node.url, 'POST', `${P}/_activate`, { grant_type: 'password', username, password });
  expect(r.status).toBe(200);
  return r.json;
}

beforeAll(async () => {
  node = await startTestNode({ args: ['-E', 'xpack.security.authc.token.enabled=true'] });
  await http(node.url, 'PUT', '/_security/role/reader', {
    cluster: ['monitor'],
    indices: [{ names: ['logs-*'], privileges: ['read'] }],
  });
  await http(node.url, 'PUT', '/_security/user/jacknich', {
    password: 'jack-password',
    roles: ['reader'],
    full_name: 'Jack Nicholson',
    email: 'jacknich@example.com',
  });
  await http(node.url, 'PUT', '/_security/user/jackrea', {
    password: 'jack-password',
    roles: ['superuser'],
    full_name: 'Jack Reacher',
  });
  await http(node.url, 'PUT', '/_security/user/bob', { password: 'bob-password', roles: [] });
});
afterAll(async () => {
  await node?.stop();
});

describe('user profiles', () => {
  it('activates a profile with the uid Elasticsearch computes, and activates it again without a new one', async () => {
    const p = await activate('jacknich', 'jack-password');
    expect(p.uid).toBe('u_79HkWkwmnBH5gqFKwoxggWPjEBOur1zLPXQPEl1VBW0_0');
    expect(p).toMatchObject({
      enabled: true,
      user: {
        username: 'jacknich',
        roles: ['reader'],
        realm_name: 'default_native',
        email: 'jacknich@example.com',
        full_name: 'Jack Nicholson',
      },
      labels: {},
      data: {},
    });
    expect(Object.keys(p)).toEqual(['uid', 'enabled', 'last_synchronized', 'user', 'labels', 'data', '_doc']);
    const again = await activate('jacknich', 'jack-password');
    expect(again.uid).toBe(p.uid);
    expect(again._doc._seq_no).toBeGreaterThan(p._doc._seq_no);
    const bob = await activate('bob', 'bob-password');
    expect(bob.user).toEqual({ username: 'bob', roles: [], realm_name: 'default_native' });
    const wrong = await http(node.url, 'POST', `${P}/_activate`, {
      grant_type: 'password',
      username: 'bob',
      password: 'nope-nope',
    });
    expect(wrong.status).toBe(401);
    const invalid = await http(node.url, 'POST', `${P}/_activate`, {
      grant_type: 'password',
      access_token: 'x',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error.reason).toBe(
      'Validation Failed: 1: [username] is required for grant_type [password];2: [password] is required for grant_type [password];3: [access_token] is not supported for grant_type [password];',
    );
  });

  it('activates with an access token', async () => {
    const token = await http(node.url, 'POST', '/_security/oauth2/token', {
      grant_type: 'password',
      username: 'jackrea',
      password: 'jack-password',
    });
    const r = await http(node.url, 'POST', `${P}/_activate`, {
      grant_type: 'access_token',
      access_token: token.json.access_token,
    });
    expect(r.status).toBe(200);
    expect(r.json.user.username).toBe('jackrea');
  });

  it('updates labels and data, gets them filtered, and refuses a stale version', async () => {
    const p = await activate('jacknich', 'jack-password');
    const upd = await http(node.url, 'POST', `${P}/${p.uid}/_data`, {
      labels: { direction: 'north' },
      data: { app1: { theme: 'default', font: { size: 12 } } },
    });
    expect(upd.json).toEqual({ acknowledged: true });
    await http(node.url, 'POST', `${P}/${p.uid}/_data`, {
      data: { app1: { font: { family: 'mono' } }, app2: { x: 1 } },
    });
    const got = await http(node.url, 'GET', `${P}/${p.uid},u_missing_0?data=app1`);
    expect(got.status).toBe(200);
    expect(got.json.profiles).toHaveLength(1);
    expect(got.json.profiles[0].labels).toEqual({ direction: 'north' });
    expect(got.json.profiles[0].data).toEqual({
      app1: { theme: 'default', font: { size: 12, family: 'mono' } },
    });
    expect(got.json.errors).toEqual({
      count: 1,
      details: {
        u_missing_0: { type: 'resource_not_found_exception', reason: 'profile document not found' },
      },
    });
    const stale = await http(
      node.url,
      'POST',
      `${P}/${p.uid}/_data?if_seq_no=${p._doc._seq_no}&if_primary_term=1`,
      {
        data: { app1: { theme: 'dark' } },
      },
    );
    expect(stale.status).toBe(409);
    expect(stale.json.error.type).toBe('version_conflict_engine_exception');
    const bad = await http(node.url, 'POST', `${P}/${p.uid}/_data`, { labels: { 'a.b': 1, _c: 2 } });
    expect(bad.json.error.reason).toBe(
      'Validation Failed: 1: application name must not contain dot, but found [a.b];2: application name must not start with underscore, but found [_c];',
    );
    const empty = await http(node.url, 'POST', `${P}/${p.uid}/_data`, {});
    expect(empty.json.error.reason).toBe('Validation Failed: 1: update request is empty;');
  });

  it('suggests enabled profiles by name prefix, and leaves disabled ones out', async () => {
    const byName = await http(node.url, 'POST', `${P}/_suggest`, { name: 'jack' });
    expect(byName.status).toBe(200);
    expect(byName.json.total).toEqual({ value: 2, relation: 'eq' });
    expect(byName.json.profiles.map((p: { user: { username: string } }) => p.user.username).sort()).toEqual([
      'jacknich',
      'jackrea',
    ]);
    expect(Object.keys(byName.json.profiles[0])).toEqual(['uid', 'user', 'labels', 'data']);
    const nich = await http(node.url, 'POST', `${P}/_suggest`, { name: 'Nicholsen x', data: 'app1' });
    expect(nich.json.profiles).toHaveLength(1);
    expect(nich.json.profiles[0].data.app1.theme).toBe('default');
    const hinted = await http(node.url, 'POST', `${P}/_suggest`, {
      hint: { labels: { direction: 'north' } },
    });
    expect(hinted.json.profiles[0].user.username).toBe('jacknich');
    const uid = nich.json.profiles[0].uid;
    expect((await http(node.url, 'POST', `${P}/${uid}/_disable`)).json).toEqual({ acknowledged: true });
    const after = await http(node.url, 'POST', `${P}/_suggest`, { name: 'jack' });
    expect(after.json.profiles.map((p: { user: { username: string } }) => p.user.username)).toEqual([
      'jackrea',
    ]);
    const disabled = await http(node.url, 'GET', `${P}/${uid}`);
    expect(disabled.json.profiles[0].enabled).toBe(false);
    await http(node.url, 'PUT', `${P}/${uid}/_enable`);
    expect((await http(node.url, 'GET', `${P}/${uid}`)).json.profiles[0].enabled).toBe(true);
    const both = await http(node.url, 'POST', `${P}/_suggest?data=app1`, { data: 'app1' });
    expect(both.status).toBe(400);
    const badHint = await http(node.url, 'POST', `${P}/_suggest`, { hint: { labels: { 'a*': 'x' } } });
    expect(badHint.json.error.reason).toBe(
      'Validation Failed: 1: [labels] hint key cannot contain wildcard;',
    );
    expect((await http(node.url, 'POST', `${P}/u_nobody_0/_enable`)).status).toBe(404);
  });

  it("answers has_privileges from each profile's roles, with missing profiles as errors", async () => {
    const nich = (await activate('jacknich', 'jack-password')).uid;
    const rea = (await activate('jackrea', 'jack-password')).uid;
    const r = await http(node.url, 'POST', `${P}/_has_privileges`, {
      uids: [nich, rea, 'u_nobody_0'],
      privileges: { cluster: ['monitor'], index: [{ names: ['logs-1'], privileges: ['read'] }] },
    });
    expect(r.status).toBe(200);
    expect(r.json.has_privilege_uids.sort()).toEqual([nich, rea].sort());
    expect(r.json.errors.details.u_nobody_0.type).toBe('resource_not_found_exception');
    const manage = await http(node.url, 'POST', `${P}/_has_privileges`, {
      uids: [nich, rea],
      privileges: { cluster: ['manage_security'] },
    });
    expect(manage.json).toEqual({ has_privilege_uids: [rea] });
  });
});
