/**
 * `POST /{index}/_close` and `POST /{index}/_open`: a closed index keeps its data and metadata
 * but refuses reads and writes with `index_closed_exception` until it is opened again. Close
 * expands wildcards to open indices and open to closed ones, as their default
 * `expand_wildcards` say; closing by wildcard obeys `action.destructive_requires_name`.
 */
import { illegalArgument } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { type IndicesOptions, indicesOptionsFrom } from '../state/resolve-indices.ts';

const CLOSE_OPTIONS: IndicesOptions = {
  ignoreUnavailable: false,
  allowNoIndices: true,
  expandWildcards: new Set(['open']),
};

const OPEN_OPTIONS: IndicesOptions = {
  ignoreUnavailable: false,
  allowNoIndices: true,
  expandWildcards: new Set(['closed']),
};

async function closeIndex(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const expr = req.params.index!;
  const destructiveByName = s.clusterSettings.effective()['action.destructive_requires_name'] !== 'false';
  if (destructiveByName && (expr === '_all' || expr.split(',').some((p) => p.includes('*'))))
    throw illegalArgument('Wildcard expressions or all indices are not allowed');
  const targets = s.indices.resolve(expr, indicesOptionsFrom(req.query, CLOSE_OPTIONS));
  await s.indices.setOpenState(targets, 'close');
  const indices: Record<string, { closed: true }> = {};
  for (const m of targets) indices[m.name] = { closed: true };
  return { status: 200, body: { acknowledged: true, shards_acknowledged: true, indices } };
}

async function openIndex(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const targets = s.indices.resolve(req.params.index!, indicesOptionsFrom(req.query, OPEN_OPTIONS));
  await s.indices.setOpenState(targets, 'open');
  return { status: 200, body: { acknowledged: true, shards_acknowledged: true } };
}

export function openCloseRoutes(): Route<NodeServices>[] {
  return [
    { method: 'POST', path: '/:index/_close', action: 'indices:admin/close', handler: closeIndex },
    { method: 'POST', path: '/:index/_open', action: 'indices:admin/open', handler: openIndex },
  ];
}
