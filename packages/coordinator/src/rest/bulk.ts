/** `POST /_bulk` and `/{index}/_bulk`: NDJSON in, per-item results out, `errors` if any failed. */
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { parseBulkBody } from '../write/bulk-lines.ts';
import { executeWrites, refreshPolicy } from '../write/write-path.ts';
import { bulkItemJson } from '../write/write-response.ts';
import { checkWriteParams } from './params.ts';

async function bulk(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const start = process.hrtime.bigint();
  checkWriteParams(req.query);
  const refresh = refreshPolicy(req.query.refresh);
  const items = parseBulkBody(req.body, {
    index: req.params.index,
    routing: req.query.routing,
    requireAlias: req.query.require_alias === 'true' ? true : undefined,
  });
  const results = await executeWrites(s, items, refresh);
  const took = Number((process.hrtime.bigint() - start) / 1_000_000n);
  let errors = false;
  const rendered = results.map((r, i) => {
    if (r.error) errors = true;
    return bulkItemJson(items[i]!.action, r, refresh === 'true');
  });
  return { status: 200, body: { took, errors, items: rendered } };
}

export function bulkRoutes(): Route<NodeServices>[] {
  return [
    { method: 'POST', path: '/_bulk', action: 'indices:data/write/bulk', handler: bulk },
    { method: 'PUT', path: '/_bulk', action: 'indices:data/write/bulk', handler: bulk },
    { method: 'POST', path: '/:index/_bulk', action: 'indices:data/write/bulk', handler: bulk },
    { method: 'PUT', path: '/:index/_bulk', action: 'indices:data/write/bulk', handler: bulk },
  ];
}
