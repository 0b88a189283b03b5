/**
 * Results of tasks started with `wait_for_completion=false`, kept in the hidden `.tasks` index
 * on Shoal's own engine, as Elasticsearch keeps them (TaskResultsService): a document per task,
 * id `<node>:<id>`, `{completed, task, response | error}`. A task is written when it starts
 * (`completed: false`) and again when it ends, so a node that restarts in the middle finds the
 * tasks it was running and marks them failed — with the status they last reported — instead of
 * leaving them running forever or losing them.
 */
import { parseJson, ShoalError, stringifyJson } from '@shoal/protocol';
import { getDocument } from '../search/get-document.ts';
import type { NodeServices } from '../services.ts';
import { executeWrites } from '../write/write-path.ts';

export const TASKS_INDEX = '.tasks';

export interface StoredTask {
  completed: boolean;
  task: Record<string, unknown>;
  response?: unknown;
  error?: unknown;
}

async function ensureIndex(s: NodeServices): Promise<void> {
  if (s.indices.get(TASKS_INDEX)) return;
  try {
    await s.indices.create(TASKS_INDEX, {
      settings: { number_of_shards: 1, number_of_replicas: 0, 'index.hidden': true },
      mappings: { dynamic: false, properties: { completed: { type: 'boolean' } } },
    });
  } catch (e) {
    // Another task created it first.
    if (!(e instanceof ShoalError && e.type === 'resource_already_exists_exception')) throw e;
  }
}

export async function storeTaskResult(s: NodeServices, id: string, doc: StoredTask): Promise<void> {
  await ensureIndex(s);
  const [r] = await executeWrites(
    s,
    [{ action: 'index', target: TASKS_INDEX, id, body: Buffer.from(stringifyJson(doc)) }],
    'false',
  );
  if (r?.error) throw ShoalError.fromWire(r.error);
}

export async function readTaskResult(s: NodeServices, id: string): Promise<StoredTask | undefined> {
  if (!s.indices.get(TASKS_INDEX)) return undefined;
  const got = await getDocument(s, TASKS_INDEX, id, {});
  if (!got.found || !got.source) return undefined;
  return parseJson(got.source) as StoredTask;
}
