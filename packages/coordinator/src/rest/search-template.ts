/**
 * `GET|POST /_search/template`, `/{index}/_search/template` (a search whose body is a rendered
 * template) and `GET|POST /_render/template[/{id}]` (the rendered body alone).
 */
import { parseSearchTemplateRequest, stringifyJson } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { executeSearch } from '../search/search-action.ts';
import { renderSearchBody, type TemplateLookup } from '../search/search-template.ts';
import type { NodeServices } from '../services.ts';

/** Stored templates come from the stored scripts, when the node keeps them. */
function storedTemplates(s: NodeServices): TemplateLookup | undefined {
  return s.storedTemplates;
}

/** The same request with the rendered search as its body. */
function withBody(req: RestRequest, body: Record<string, unknown>): RestRequest {
  const bytes = Buffer.from(stringifyJson(body));
  return {
    method: req.method,
    path: req.path,
    params: req.params,
    query: req.query,
    body: bytes,
    json: () => body,
    get signal() {
      return req.signal;
    },
    onDisconnect: (l) => req.onDisconnect(l),
    onUndelivered: (l) => req.onUndelivered(l),
    warnings: req.warnings,
    headers: req.headers,
    ...(req.indexAccess && { indexAccess: req.indexAccess }),
  };
}

async function searchTemplate(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const template = parseSearchTemplateRequest(req.json());
  const body = renderSearchBody(template, storedTemplates(s));
  // The URL's `explain` wins over the template request's (as in Elasticsearch 8.8+).
  if (template.explain !== undefined && req.query.explain === undefined) body.explain = template.explain;
  if (template.profile !== undefined) body.profile = template.profile;
  return { status: 200, body: await executeSearch(withBody(req, body), s) };
}

function renderTemplateHandler(req: RestRequest, s: NodeServices): RestResponse {
  const template = parseSearchTemplateRequest(req.json(), { id: req.params.id });
  return { status: 200, body: { template_output: renderSearchBody(template, storedTemplates(s)) } };
}

export function searchTemplateRoutes(): Route<NodeServices>[] {
  const action = 'indices:data/read/search/template';
  const render = 'cluster:admin/script/template/render';
  return [
    { method: 'GET', path: '/_search/template', action, handler: searchTemplate },
    { method: 'POST', path: '/_search/template', action, handler: searchTemplate },
    { method: 'GET', path: '/:index/_search/template', action, handler: searchTemplate },
    { method: 'POST', path: '/:index/_search/template', action, handler: searchTemplate },
    { method: 'GET', path: '/_render/template', action: render, handler: renderTemplateHandler },
    { method: 'POST', path: '/_render/template', action: render, handler: renderTemplateHandler },
    { method: 'GET', path: '/_render/template/:id', action: render, handler: renderTemplateHandler },
    { method: 'POST', path: '/_render/template/:id', action: render, handler: renderTemplateHandler },
  ];
}
