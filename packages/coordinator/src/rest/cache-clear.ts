/**
 * `POST /_cache/clear`, `POST /{index}/_cache/clear` (TransportClearIndicesCacheAction): with
 * `request=true` drops the shards' request cache entries, with `query=true` their segments'
 * filter caches, and with neither flag (nor `fielddata`) both. Shoal keeps no fielddata (its
 * fields aggregate from doc values), so `fielddata` and `fields` have nothing to clear. Like
 * Elasticsearch, a `metadata_write` block refuses it; the answer is the `_shards` counts.
 */
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { onEveryShard } from './flush-merge.ts';
import { boolParam } from './params.ts';

async function clearCache(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const fielddata = boolParam(req.query, 'fielddata', false) || req.query.fields !== undefined;
  let query = boolParam(req.query, 'query', false);
  let request = boolParam(req.query, 'request', false);
  if (!query && !request && !fielddata) {
    query = true;
    request = true;
  }
  return onEveryShard(
    req,
    s,
    (c) => c.worker!.run({ t: 'clear_cache', keys: [c.key], request, query }),
    'metadata_write',
  );
}

export function cacheClearRoutes(): Route<NodeServices>[] {
  return [
    { method: 'POST', path: '/_cache/clear', action: 'indices:admin/cache/clear', handler: clearCache },
    {
      method: 'POST',
      path: '/:index/_cache/clear',
      action: 'indices:admin/cache/clear',
      handler: clearCache,
    },
  ];
}
