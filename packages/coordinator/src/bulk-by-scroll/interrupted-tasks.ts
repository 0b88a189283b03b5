/**
 * At start, the tasks this node was running when it stopped: their `.tasks` documents still say
 * `completed: false`. Each is marked completed with an error saying the node restarted, keeping
 * the status it last stored (what it had done by then), so `GET /_tasks/{id}` never reports a
 * half-done reindex as running, nor as complete. New task ids continue after the stored ones.
 */
import { parseJson, parseSearchRequest } from '@shoal/protocol';
import { searchShardTargets } from '../search/shard-targets.ts';
import type { NodeServices } from '../services.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import { parseTaskId } from '../tasks/task-registry.ts';
import { type StoredTask, storeTaskResult, TASKS_INDEX } from '../tasks/task-results.ts';
import { ScrollSource } from './scroll-source.ts';

export async function recoverInterruptedTasks(s: NodeServices): Promise<number> {
  if (!s.indices.get(TASKS_INDEX)) return 0;
  const search = parseSearchRequest({ size: 500, sort: ['_doc'] }, { scroll: '1m' });
  const targets = searchShardTargets(
    s,
    TASKS_INDEX,
    indicesOptionsFrom({ expand_wildcards: 'all' }, SEARCH_INDICES_OPTIONS),
    {},
  );
  const cancel = s.cancelSlots.acquire();
  const source = new ScrollSource(s, search, targets, cancel);
  const interrupted: { id: string; doc: StoredTask }[] = [];
  try {
    for (let batch = await source.first(); batch.hits.length > 0; batch = await source.next()) {
      for (const hit of batch.hits) {
        const { node, id } = parseTaskId(hit.id);
        if (node !== s.node.id) continue;
        s.tasks.numberAfter(id);
        const doc = hit.source && (parseJson(hit.source) as StoredTask);
        if (doc && doc.completed === false) interrupted.push({ id: hit.id, doc });
      }
    }
  } finally {
    s.cancelSlots.release(cancel);
    await source.close();
  }
  for (const { id, doc } of interrupted) {
    await storeTaskResult(s, id, {
      completed: true,
      task: doc.task,
      error: {
        type: 'node_closed_exception',
        reason: `node [${s.node.id}] stopped while task [${id}] was running; its status shows what it had done`,
      },
    });
  }
  return interrupted.length;
}
