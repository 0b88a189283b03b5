/**
 * `POST /_reindex`, `POST /{index}/_update_by_query`, `POST /{index}/_delete_by_query`, and
 * `POST /_reindex/{task_id}/_rethrottle` (and the by-query forms).
 */
import {
  type BulkByScrollRequest,
  illegalArgument,
  parseByQueryRequest,
  parseReindexRequest,
  parseRequestsPerSecond,
} from '@shoal/protocol';
import { executeByScroll, responseStatus, rethrottle } from '../bulk-by-scroll/bulk-by-scroll-action.ts';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { taskListJson } from '../tasks/task-json.ts';
import { parseTaskId } from '../tasks/task-registry.ts';

async function answer(s: NodeServices, req: BulkByScrollRequest, rest: RestRequest): Promise<RestResponse> {
  const r = await executeByScroll(s, req, rest.indexAccess);
  if (!r.completed) return { status: 200, body: { task: r.task } };
  return { status: responseStatus(r.body), body: r.body };
}

const reindex = (req: RestRequest, s: NodeServices) =>
  answer(s, parseReindexRequest(req.json(), req.query), req);

const byQuery =
  (kind: 'update_by_query' | 'delete_by_query') =>
  (req: RestRequest, s: NodeServices): Promise<RestResponse> =>
    answer(s, parseByQueryRequest(kind, req.params.index!, req.json(), req.query), req);

function rethrottleHandler(req: RestRequest, s: NodeServices): RestResponse {
  const rate = req.query.requests_per_second;
  if (rate === undefined) throw illegalArgument('requests_per_second is a required parameter');
  const perSecond = parseRequestsPerSecond(rate);
  const { node, id } = parseTaskId(req.params.task_id!);
  const task = node === s.node.id ? s.tasks.get(id) : undefined;
  if (!task || !rethrottle(task, perSecond)) {
    return { status: 200, body: { nodes: {} } };
  }
  return { status: 200, body: taskListJson(s, [task], true, 'nodes') };
}

export function bulkByScrollRoutes(): Route<NodeServices>[] {
  const rethrottleAction = 'cluster:admin/reindex/rethrottle';
  return [
    { method: 'POST', path: '/_reindex', action: 'indices:data/write/reindex', handler: reindex },
    {
      method: 'POST',
      path: '/:index/_update_by_query',
      action: 'indices:data/write/update/byquery',
      handler: byQuery('update_by_query'),
    },
    {
      method: 'POST',
      path: '/:index/_delete_by_query',
      action: 'indices:data/write/delete/byquery',
      handler: byQuery('delete_by_query'),
    },
    {
      method: 'POST',
      path: '/_reindex/:task_id/_rethrottle',
      action: rethrottleAction,
      handler: rethrottleHandler,
    },
    {
      method: 'POST',
      path: '/_update_by_query/:task_id/_rethrottle',
      action: rethrottleAction,
      handler: rethrottleHandler,
    },
    {
      method: 'POST',
      path: '/_delete_by_query/:task_id/_rethrottle',
      action: rethrottleAction,
      handler: rethrottleHandler,
    },
  ];
}
