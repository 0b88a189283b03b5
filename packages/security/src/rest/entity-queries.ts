/**
 * `GET|POST /_security/_query/user` (8.14+) and `/_security/_query/role` (8.15+): searches of
 * the native users and roles on the node's query engine. The built-in users and roles are not
 * in the security index, so neither query finds them, as in Elasticsearch.
 */
import { userJson } from '../authc/user.ts';
import { descriptorFromDoc, descriptorJson } from '../authz/role-descriptor.ts';
import type { SecurityContext } from '../context.ts';
import { ROLE_FIELDS, USER_FIELDS } from '../query/field-names.ts';
import { runQuery, withSort } from '../query/query-request.ts';
import { nativeUserFromDoc, ROLE_TYPE, USER_TYPE, withoutSearchFields } from '../store/documents.ts';
import { boolQuery } from './api-key-body.ts';
import { checkParams, ok, type SecurityRequest, type SecurityRoute } from './route.ts';

const A = 'cluster:admin/ext/security';

async function queryUsers(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, ['with_profile_uid']);
  boolQuery(req, 'with_profile_uid');
  const api = { parser: 'query_user_request', fields: USER_FIELDS };
  const r = await runQuery(ctx.host.store, req, api, [{ term: { type: USER_TYPE } }]);
  return ok({
    total: r.total,
    count: r.hits.length,
    users: r.hits.map((h) => withSort(userJson(nativeUserFromDoc(h.doc).user), h.sort)),
  });
}

async function queryRoles(ctx: SecurityContext, req: SecurityRequest) {
  checkParams(req, []);
  const api = { parser: 'query_role_request', fields: ROLE_FIELDS };
  const r = await runQuery(ctx.host.store, req, api, [{ term: { type: ROLE_TYPE } }]);
  return ok({
    total: r.total,
    count: r.hits.length,
    roles: r.hits.map((h) => {
      const descriptor = descriptorFromDoc(withoutSearchFields(h.doc));
      return withSort({ name: String(h.doc.name), ...descriptorJson(descriptor) }, h.sort);
    }),
  });
}

export function entityQueryRoutes(ctx: SecurityContext): SecurityRoute[] {
  const users = (req: SecurityRequest) => queryUsers(ctx, req);
  const roles = (req: SecurityRequest) => queryRoles(ctx, req);
  return [
    { method: 'GET', path: '/_security/_query/user', action: `${A}/user/query`, handler: users },
    { method: 'POST', path: '/_security/_query/user', action: `${A}/user/query`, handler: users },
    { method: 'GET', path: '/_security/_query/role', action: `${A}/role/query`, handler: roles },
    { method: 'POST', path: '/_security/_query/role', action: `${A}/role/query`, handler: roles },
  ];
}
