/**
 * A shard copy held by another node, seen as a worker thread: its tasks cross the transport
 * to that node, which runs them on the worker thread that holds the copy and sends the answer
 * back. Tasks and answers travel in V8's serialization (the structured clone the worker
 * threads use), so a task's bytes, typed arrays and maps arrive as they left.
 */
import { deserialize, serialize } from 'node:v8';
import type { ClusterService, DiscoveryNode } from '@shoal/cluster';
import { noShardAvailable, ShoalError, toShoalError, type WireError } from '@shoal/protocol';
import {
  type ShardKey,
  type TaskOf,
  type TaskResults,
  type WorkerTask,
  withoutCancelToken,
} from '@shoal/shard';
import type { ShardRunner, ShardTable } from './shard-table.ts';

export const SHARD_TASK_ACTION = 'shard/task';

/** How long a shard task on another node may take before the caller gives up on it. */
const SHARD_TASK_TIMEOUT_MS = 120_000;

type Answer = { ok: unknown } | { error: WireError };

export class RemoteShardWorker implements ShardRunner {
  /** Not a thread of this node. */
  readonly id = -1;
  readonly shards = new Set<ShardKey>();
  /**
   * The copy behind each reader context a query kept there: a `release` task names contexts
   * only, and the other node finds the thread by the copy.
   */
  private readonly contexts = new Map<number, ShardKey>();

  constructor(
    readonly node: DiscoveryNode,
    private readonly cluster: ClusterService,
  ) {}

  run<K extends keyof TaskResults>(task: TaskOf<K>): Promise<TaskResults[K]> {
    const t = task as WorkerTask;
    if (t.t === 'release') {
      const byKey = new Map<ShardKey, number[]>();
      for (const id of t.contextIds) {
        const key = this.contexts.get(id);
        if (key === undefined) continue;
        this.contexts.delete(id);
        byKey.set(key, [...(byKey.get(key) ?? []), id]);
      }
      const sent = [...byKey].map(([key, contextIds]) => this.send({ t: 'release', contextIds }, key));
      return Promise.all(sent).then(() => undefined as unknown as TaskResults[K]);
    }
    if (t.t === 'fetch' && t.release) this.contexts.delete(t.contextId);
    // The thread is found by the copy: a stats task names its copies (one, sent from here).
    const key = 'key' in t ? t.key : t.t === 'stats' ? t.keys[0] : undefined;
    return this.send(t, key).then((ok) => {
      const contextId = (ok as { contextId?: unknown } | null)?.contextId;
      if (key !== undefined && typeof contextId === 'number') this.contexts.set(contextId, key);
      return ok as TaskResults[K];
    });
  }

  private send(task: WorkerTask, key: ShardKey | undefined): Promise<unknown> {
    return this.cluster
      .request<Uint8Array>(this.node, SHARD_TASK_ACTION, serialize({ task, key }), SHARD_TASK_TIMEOUT_MS)
      .then(
        (bytes) => {
          const a = deserialize(bytes) as Answer;
          if ('error' in a) throw ShoalError.fromWire(a.error);
          return a.ok;
        },
        (e: unknown) => {
          if (e instanceof ShoalError) throw e;
          const why = e instanceof Error ? e.message : String(e);
          throw new ShoalError('node_not_connected_exception', `[${this.node.name}] ${why}`, 500);
        },
      );
  }

  /** Answers come copied out of the remote thread's reply slots: nothing is held here. */
  release(): void {}
}

/** Serves the shard tasks other nodes send for the copies this node holds. */
export function serveShardTasks(cluster: ClusterService, table: ShardTable): void {
  cluster.handle(SHARD_TASK_ACTION, async (_from, body) => {
    const sent = deserialize(body as Uint8Array) as { task: WorkerTask; key?: ShardKey };
    const task = withoutCancelToken(sent.task);
    const key = sent.key;
    const worker = key === undefined ? undefined : table.localWorker(key);
    let answer: Answer;
    if (!worker) {
      answer = {
        error: noShardAvailable(`[${cluster.local.name}] holds no shard copy [${key ?? task.t}]`).toWire(),
      };
    } else {
      try {
        answer = { ok: await worker.run(task as TaskOf<keyof TaskResults>) };
      } catch (e) {
        answer = { error: toShoalError(e).toWire() };
      }
    }
    return serialize(answer);
  });
}
