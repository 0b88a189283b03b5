/**
 * Point in time over REST: Elasticsearch's `POST /{index}/_pit` and `DELETE /_pit`, and
 * OpenSearch's `_search/point_in_time` family (create, delete by ids or all, list all), so
 * clients of either product page Shoal.
 */
import { actionRequestValidation, requestBodyRequired } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { closePit, idList, listPits, openPit } from '../search/pit-action.ts';
import type { NodeServices } from '../services.ts';

function body(req: RestRequest): Record<string, unknown> {
  const b = req.json();
  if (b === undefined) throw requestBodyRequired();
  return typeof b === 'object' && b !== null && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

async function open(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const { lease, shards } = await openPit(req, s);
  return { status: 200, body: { id: lease.encoded, _shards: shards } };
}

async function close(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const id = body(req).id;
  if (typeof id !== 'string' || id === '') throw actionRequestValidation(['id is empty']);
  const freed = await closePit(s, id);
  // Elasticsearch 8: 200 even when the contexts were already gone (paging.md §4.4).
  return { status: 200, body: { succeeded: true, num_freed: freed } };
}

async function openSearchCreate(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const { lease, shards } = await openPit(req, s);
  return { status: 200, body: { pit_id: lease.encoded, _shards: shards, creation_time: lease.createdAt } };
}

async function openSearchDelete(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const ids = idList(body(req).pit_id, 'pit_id');
  const pits = [];
  for (const id of ids) pits.push({ successful: (await closePit(s, id)) > 0, pit_id: id });
  return { status: 200, body: { pits } };
}

async function openSearchDeleteAll(_req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const pits = [];
  for (const lease of listPits(s)) {
    pits.push({ successful: (await closePit(s, lease.encoded)) > 0, pit_id: lease.encoded });
  }
  return { status: 200, body: { pits } };
}

function openSearchList(_req: RestRequest, s: NodeServices): RestResponse {
  const pits = listPits(s).map((l) => ({
    pit_id: l.encoded,
    creation_time: l.createdAt,
    keep_alive: l.keepAliveMs,
  }));
  return { status: 200, body: { pits } };
}

export function pitRoutes(): Route<NodeServices>[] {
  const openAction = 'indices:data/read/open_point_in_time';
  const closeAction = 'indices:data/read/close_point_in_time';
  return [
    { method: 'POST', path: '/_pit', action: openAction, handler: open },
    { method: 'POST', path: '/:index/_pit', action: openAction, handler: open },
    { method: 'DELETE', path: '/_pit', action: closeAction, handler: close },
    {
      method: 'POST',
      path: '/:index/_search/point_in_time',
      action: 'indices:data/read/point_in_time/create',
      handler: openSearchCreate,
    },
    {
      method: 'DELETE',
      path: '/_search/point_in_time',
      action: 'indices:data/read/point_in_time/delete',
      handler: openSearchDelete,
    },
    {
      method: 'DELETE',
      path: '/_search/point_in_time/_all',
      action: 'indices:data/read/point_in_time/delete',
      handler: openSearchDeleteAll,
    },
    {
      method: 'GET',
      path: '/_search/point_in_time/_all',
      action: 'indices:data/read/point_in_time/readall',
      handler: openSearchList,
    },
  ];
}
