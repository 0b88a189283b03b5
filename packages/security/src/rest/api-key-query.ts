/**
 * `GET|POST /_security/_query/api_key` (TransportQueryApiKeyAction): a search of the API key
 * documents on the node's query engine, with the query, sort and aggregations translated to
 * the stored fields. A caller who may only manage its own keys finds only its own.
 */
import type { Authentication } from '../authc/authentication.ts';
import { permissionOf, type SecurityContext } from '../context.ts';
import { API_KEY_FIELDS } from '../query/field-names.ts';
import { runQuery, withSort } from '../query/query-request.ts';
import { API_KEY_TYPE, apiKeyFromDoc } from '../store/api-key-store.ts';
import { boolQuery, keyJson } from './api-key-body.ts';
import { checkParams, ok, type SecurityRequest, type SecurityRoute } from './route.ts';

const ACTION = 'cluster:admin/ext/security/api_key/query';

const API = { parser: 'query_api_key_request', fields: API_KEY_FIELDS, aggregations: 'API Keys' };

async function queryApiKeys(ctx: SecurityContext, req: SecurityRequest, auth: Authentication) {
  checkParams(req, ['with_limited_by', 'with_profile_uid', 'typed_keys']);
  const withLimitedBy = boolQuery(req, 'with_limited_by');
  boolQuery(req, 'with_profile_uid');
  const typedKeys = boolQuery(req, 'typed_keys');
  const filters: Record<string, unknown>[] = [{ term: { type: API_KEY_TYPE } }];
  // Granted by manage_own_api_key only: the search keeps to the caller's own keys.
  if (!(await permissionOf(ctx, auth)).cluster(ACTION)) {
    filters.push({ term: { 'creator.principal': auth.user.username } });
    if (!auth.apiKey) filters.push({ term: { 'creator.realm': auth.realm.name } });
  }
  const r = await runQuery(ctx.host.store, req, API, filters, { typedKeys });
  const out: Record<string, unknown> = {
    total: r.total,
    count: r.hits.length,
    api_keys: r.hits.map((h) => withSort(keyJson(apiKeyFromDoc(h.id, h.doc), withLimitedBy), h.sort)),
  };
  if (r.aggregations) out.aggregations = r.aggregations;
  return ok(out);
}

export function apiKeyQueryRoutes(ctx: SecurityContext): SecurityRoute[] {
  const handler = (req: SecurityRequest, auth: Authentication) => queryApiKeys(ctx, req, auth);
  return [
    { method: 'GET', path: '/_security/_query/api_key', action: ACTION, handler },
    { method: 'POST', path: '/_security/_query/api_key', action: ACTION, handler },
  ];
}
