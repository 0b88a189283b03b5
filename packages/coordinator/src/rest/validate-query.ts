/** `GET|POST /_validate/query` and `/{index}/_validate/query`, and `/{index}/_explain/{id}`. */
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { describeOnShards } from '../search/describe-on-shards.ts';
import { explainAction } from '../search/explain-action.ts';
import { validateQuery } from '../search/validate-query.ts';
import type { NodeServices } from '../services.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';

async function handler(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const indices = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  return { status: 200, body: await validateQuery(req.json(), req.query, indices, describeOnShards(s)) };
}

export function validateQueryRoutes(): Route<NodeServices>[] {
  const action = 'indices:admin/validate/query';
  const explain = 'indices:data/read/explain';
  return [
    { method: 'GET', path: '/_validate/query', action, handler },
    { method: 'POST', path: '/_validate/query', action, handler },
    { method: 'GET', path: '/:index/_validate/query', action, handler },
    { method: 'POST', path: '/:index/_validate/query', action, handler },
    { method: 'GET', path: '/:index/_explain/:id', action: explain, handler: explainAction },
    { method: 'POST', path: '/:index/_explain/:id', action: explain, handler: explainAction },
  ];
}
