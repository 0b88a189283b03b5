/**
 * Fault injection for failure tests, mounted only when the node runs with
 * `SHOAL_FAULT_INJECTION=1`: `POST /_internal/shard_worker/{id}/_crash` kills one shard worker
 * thread (an uncaught error inside it), as a bug or an out-of-memory would.
 */
import { ShoalError } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';

async function crashWorker(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const worker = s.workers[Number(req.params.id)];
  if (!worker)
    throw new ShoalError('resource_not_found_exception', `no shard worker [${req.params.id}]`, 404);
  const shards = [...worker.shards];
  // The thread may die before it answers; either way it is gone.
  await worker.run({ t: 'crash' }).catch(() => undefined);
  return { status: 200, body: { acknowledged: true, worker: worker.id, shards } };
}

export function faultInjectionRoutes(): Route<NodeServices>[] {
  if (process.env.SHOAL_FAULT_INJECTION !== '1') return [];
  return [
    {
      method: 'POST',
      path: '/_internal/shard_worker/:id/_crash',
      action: 'cluster:admin/fault',
      handler: crashWorker,
    },
  ];
}
