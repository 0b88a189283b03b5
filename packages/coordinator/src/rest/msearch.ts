/**
 * `GET|POST /_msearch`, `/{index}/_msearch` (msearch-action.ts), and their `_msearch/template`
 * forms, whose body lines are search templates (search-template.ts).
 */
import { parseSearchTemplateRequest } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { executeMultiSearch } from '../search/msearch-action.ts';
import { renderSearchBody } from '../search/search-template.ts';
import type { NodeServices } from '../services.ts';

const msearch = async (req: RestRequest, s: NodeServices): Promise<RestResponse> => ({
  status: 200,
  body: await executeMultiSearch(req, s),
});

/** `_msearch/template`: each body line is a search template, rendered into its search. */
const msearchTemplate = async (req: RestRequest, s: NodeServices): Promise<RestResponse> => ({
  status: 200,
  body: await executeMultiSearch(req, s, (source) =>
    renderSearchBody(parseSearchTemplateRequest(source), s.storedTemplates),
  ),
});

export function msearchRoutes(): Route<NodeServices>[] {
  const action = 'indices:data/read/msearch';
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
    );
  }
  return routes;
}
