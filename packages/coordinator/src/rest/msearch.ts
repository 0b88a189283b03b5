/**
 * `GET|POST /_msearch` and `/{index}/_msearch` (msearch-action.ts). Search templates are not in
 * Shoal: their endpoints answer 501, naming what is missing, instead of a misleading 400 or 405.
 */
import { notImplemented } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { executeMultiSearch } from '../search/msearch-action.ts';
import type { NodeServices } from '../services.ts';

const msearch = async (req: RestRequest, s: NodeServices): Promise<RestResponse> => ({
  status: 200,
  body: await executeMultiSearch(req, s),
});

function templates(api: string): () => never {
  return () => {
    throw notImplemented(`search templates (the [${api}] API)`);
  };
}

export function msearchRoutes(): Route<NodeServices>[] {
  const action = 'indices:data/read/msearch';
  const msearchTemplate = templates('_msearch/template');
  const searchTemplate = templates('_search/template');
  const routes: Route<NodeServices>[] = [];
  for (const method of ['GET', 'POST'] as const) {
    routes.push(
      { method, path: '/_msearch', action, handler: msearch },
      { method, path: '/:index/_msearch', action, handler: msearch },
      {
        method,
        path: '/_msearch/template',
        action: 'indices:data/read/msearch/template',
        handler: msearchTemplate,
      },
      {
        method,
        path: '/:index/_msearch/template',
        action: 'indices:data/read/msearch/template',
        handler: msearchTemplate,
      },
      {
        method,
        path: '/_search/template',
        action: 'indices:data/read/search/template',
        handler: searchTemplate,
      },
      {
        method,
        path: '/:index/_search/template',
        action: 'indices:data/read/search/template',
        handler: searchTemplate,
      },
    );
  }
  return routes;
}
