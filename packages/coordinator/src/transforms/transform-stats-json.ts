/**
 * One transform's entry in `GET /_transform/{id}/_stats` (TransformStats.toXContent): its
 * state, the node running it, its counters, its checkpointing and its health.
 */

import type { TransformService } from './transform-service.ts';
import { checkpointingJson } from './transform-stats.ts';

export async function transformStatsJson(
  svc: TransformService,
  id: string,
): Promise<Record<string, unknown>> {
  const task = svc.running(id);
  const { state, stats } = await svc.runState(id);
  // Without a task here, the stored state speaks: a started transform of a node that is still
  // starting is about to resume, as Elasticsearch's persistent task is started before it runs.
  const status = task ? task.status : state.task_state;
  const out: Record<string, unknown> = { id, state: status };
  if (status === 'failed' && state.reason !== undefined) out.reason = state.reason;
  if (task) {
    const local = svc.s.cluster.local;
    out.node = {
      id: svc.s.node.id,
      name: svc.s.node.name,
      ephemeral_id: local.ephemeralId,
      transport_address: `${svc.s.node.host}:${svc.s.node.transportPort}`,
      attributes: {},
    };
  }
  out.stats = stats;
  out.checkpointing = checkpointingJson(state);
  out.health =
    status === 'failed'
      ? {
          status: 'red',
          issues: [
            {
              type: 'transform_task_failed',
              issue: 'Transform task state is [failed]',
              details: state.reason,
              count: 1,
            },
          ],
        }
      : { status: 'green' };
  return out;
}
