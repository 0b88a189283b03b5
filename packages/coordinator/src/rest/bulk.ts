/** `POST /_bulk` and `/{index}/_bulk`: NDJSON in, per-item results out, `errors` if any failed. */

import { toShoalError } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { admitScripts } from '../scripts/compilation-limit.ts';
import type { NodeServices } from '../services.ts';
import { parseBulkBody } from '../write/bulk-lines.ts';
import type { WriteItem, WriteItemResult, WriteWaits } from '../write/write-item.ts';
import { executeWrites, type RefreshPolicy, refreshPolicy } from '../write/write-path.ts';
import { bulkItemJson } from '../write/write-response.ts';
import { checkWriteParams } from './params.ts';

async function bulk(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const start = process.hrtime.bigint();
  const waits = checkWriteParams(req.query);
  const refresh = refreshPolicy(req.query.refresh);
  const items = parseBulkBody(req.body, {
    index: req.params.index,
    routing: req.query.routing,
    requireAlias: req.query.require_alias === 'true' ? true : undefined,
    storedScript: (id) => s.storedScripts.get(id),
  });
  const scripts = items.flatMap((i) => (i.script ? [{ lang: 'painless', ...i.script }] : []));
  if (scripts.length > 0) admitScripts(s, scripts);
  const results = await writeAllowed(s, items, refresh, waits, req.deniedItems);
  const took = Number((process.hrtime.bigint() - start) / 1_000_000n);
  let errors = false;
  const rendered = results.map((r, i) => {
    if (r.error) errors = true;
    return bulkItemJson(items[i]!.action, r, refresh === 'true');
  });
  return { status: 200, body: { took, errors, items: rendered } };
}

/**
 * Runs the items security allowed; a refused one answers with its own error (a 403) in its
 * place, as Elasticsearch aborts a bulk item the user may not write.
 */
async function writeAllowed(
  s: NodeServices,
  items: WriteItem[],
  refresh: RefreshPolicy,
  waits: WriteWaits,
  denied: ReadonlyMap<number, Error> | undefined,
): Promise<WriteItemResult[]> {
  if (!denied) return executeWrites(s, items, refresh, waits);
  const allowed = items.filter((_, i) => !denied.has(i));
  const done = await executeWrites(s, allowed, refresh, waits);
  let next = 0;
  return items.map((item, i) => {
    const e = denied.get(i);
    if (e === undefined) return done[next++]!;
    const error = toShoalError(e).toWire();
    return { index: item.target, id: item.id ?? '', status: error.status, error };
  });
}

export function bulkRoutes(): Route<NodeServices>[] {
  return [
    { method: 'POST', path: '/_bulk', action: 'indices:data/write/bulk', handler: bulk },
    { method: 'PUT', path: '/_bulk', action: 'indices:data/write/bulk', handler: bulk },
    { method: 'POST', path: '/:index/_bulk', action: 'indices:data/write/bulk', handler: bulk },
    { method: 'PUT', path: '/:index/_bulk', action: 'indices:data/write/bulk', handler: bulk },
  ];
}
