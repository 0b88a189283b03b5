import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { executeCount } from '../search/count-action.ts';
import { executeSearch } from '../search/search-action.ts';
import type { NodeServices } from '../services.ts';

const search = async (req: RestRequest, s: NodeServices): Promise<RestResponse> => ({
  status: 200,
  body: await executeSearch(req, s),
});

const count = async (req: RestRequest, s: NodeServices): Promise<RestResponse> => ({
  status: 200,
  body: await executeCount(req, s),
});

export function searchRoutes(): Route<NodeServices>[] {
  const action = 'indices:data/read/search';
  return [
    { method: 'GET', path: '/_search', action, handler: search },
    { method: 'POST', path: '/_search', action, handler: search },
    { method: 'GET', path: '/:index/_search', action, handler: search },
    { method: 'POST', path: '/:index/_search', action, handler: search },
    { method: 'GET', path: '/_count', action, handler: count },
    { method: 'POST', path: '/_count', action, handler: count },
    { method: 'GET', path: '/:index/_count', action, handler: count },
    { method: 'POST', path: '/:index/_count', action, handler: count },
  ];
}
