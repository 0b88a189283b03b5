/** `GET|POST /_analyze` and `/{index}/_analyze`. */
import { indexNotFound } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { analyze, parseAnalyzeRequest } from '../search/analyze.ts';
import type { NodeServices } from '../services.ts';

function handler(req: RestRequest, s: NodeServices): RestResponse {
  const a = parseAnalyzeRequest(req.json(), req.query);
  const name = req.params.index ?? req.query.index;
  let index: ReturnType<NodeServices['indices']['get']>;
  if (name !== undefined) {
    index = s.indices.get(name) ?? s.indices.aliasTargets(name)[0];
    if (!index) throw indexNotFound(name);
  }
  return { status: 200, body: analyze(a, index) };
}

export function analyzeRoutes(): Route<NodeServices>[] {
  const action = 'indices:admin/analyze';
  return [
    { method: 'GET', path: '/_analyze', action, handler },
    { method: 'POST', path: '/_analyze', action, handler },
    { method: 'GET', path: '/:index/_analyze', action, handler },
    { method: 'POST', path: '/:index/_analyze', action, handler },
  ];
}
