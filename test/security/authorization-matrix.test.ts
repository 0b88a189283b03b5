/**
 * Every route the node serves, generated from its route table: a user whose roles grant
 * nothing gets a 403 (unless the route is one every user may use on their own account or
 * context), and a user whose role grants exactly the route's action does not. A new route
 * cannot be added without an action that authorization understands.
 */
import { passwordHasher, securityRouteTable } from '@shoal/security';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../../packages/coordinator/src/routes.ts';
import { basicAuth, http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

/** Actions any authenticated user may take (own account, own contexts). */
const OPEN_TO_ALL = new Set([
  'cluster:admin/ext/security/user/authenticate',
  'cluster:admin/ext/security/user/has_privileges',
  'cluster:admin/ext/security/user/list_privileges',
  'indices:data/read/scroll/clear',
  'indices:data/read/point_in_time/delete',
  'indices:data/read/close_point_in_time',
]);

const PASSWORD = 'matrix-password';

let node: TestNode;
const routes = [
  ...allRoutes().map(({ method, path, action }) => ({ method, path, action })),
  ...securityRouteTable(),
];

function concrete(path: string): string {
  return path
    .replace(/:index/g, 'matrix-idx')
    .replace(/:id/g, '1')
    .replace(/:(username|user|name|realms|scroll_id|metric|fields|target)/g, 'matrix-target')
    .replace(/:[a-z_]+/g, 'x');
}

/** A role granting exactly one action (and, for writes, creating the index they write to). */
function roleFor(action: string): unknown {
  if (action.startsWith('indices:')) {
    const privileges = [action];
    if (action.startsWith('indices:data/write/'))
      privileges.push('indices:data/write/*', 'indices:admin/auto_create');
    if (action === 'indices:admin/aliases') privileges.push('indices:admin/delete');
    // Composite requests run as shard-level actions too (`indices:data/read/mget[shard]`).
    if (action === 'indices:data/read/mget') privileges.push('indices:data/read/mget*');
    return { indices: [{ names: ['*'], privileges }] };
  }
  return { cluster: [action] };
}

const userOf = (action: string) => `granted-${action.replace(/[^a-z0-9]+/gi, '-')}`;

beforeAll(async () => {
  node = await startTestNode({ env: { SHOAL_MEMORY_REPORT: '1' } });
  await http(node.url, 'PUT', '/matrix-idx/_doc/1?refresh=true', { a: 1 });
  await http(node.url, 'PUT', '/_security/user/matrix-target', { password: PASSWORD, roles: [] });
  const hash = await passwordHasher().hash(PASSWORD);
  await http(node.url, 'PUT', '/_security/user/nobody', { password_hash: hash, roles: [] });
  for (const action of new Set(routes.map((r) => r.action))) {
    const role = userOf(action);
    expect((await http(node.url, 'PUT', `/_security/role/${role}`, roleFor(action))).status).toBe(200);
    expect(
      (await http(node.url, 'PUT', `/_security/user/${role}`, { password_hash: hash, roles: [role] })).status,
    ).toBe(200);
  }
}, 180_000);
afterAll(async () => {
  await node?.stop();
});

describe('the authorization matrix', () => {
  it('covers routes of every kind', () => {
    expect(routes.length).toBeGreaterThan(100);
    for (const r of routes) expect(r.action).toMatch(/^(cluster|indices):[a-z_]+\//);
  });

  it('refuses every route to a user without privileges, and grants it to one with exactly its action', async () => {
    const problems: string[] = [];
    for (const r of routes) {
      const path = concrete(r.path);
      const nobody = await http(node.url, r.method, path, undefined, {
        authorization: basicAuth('nobody', PASSWORD),
      });
      const open =
        OPEN_TO_ALL.has(r.action) ||
        (r.action.endsWith('/change_password') && !path.includes('matrix-target'));
      if (open ? nobody.status === 403 : nobody.status !== 403) {
        problems.push(`${r.method} ${r.path} [${r.action}] as a user without privileges: ${nobody.status}`);
      }
      const granted = await http(node.url, r.method, path, undefined, {
        authorization: basicAuth(userOf(r.action), PASSWORD),
      });
      const internal = r.path.startsWith('/_internal/');
      // A 403 of the API itself (start_basic on a basic license) is not a refusal by security.
      const refused =
        granted.status === 401 ||
        (granted.status === 403 && granted.json?.error?.type === 'security_exception');
      if (internal ? granted.status !== 403 : refused) {
        problems.push(
          `${r.method} ${r.path} [${r.action}] as a user granted it: ${granted.status} ${granted.text.slice(0, 200)}`,
        );
      }
    }
    expect(problems).toEqual([]);
  }, 240_000);
});
