/**
 * Restart (recovery) time of a node holding flights-200k, measured twice on the same data:
 *
 *   translog only  the node is killed (SIGKILL) right after the load, before any flush: every
 *                  document comes back by replaying the translog;
 *   from a commit  `_flush`, then SIGKILL: the segments are loaded (checksums verified) and
 *                  there is nothing to replay.
 *
 * "restart" is from spawning the process to its "started" line (the node listens only once
 * every shard has recovered); "shard recovery" is the slowest shard's own figure from the log.
 */
import { startTestNode, type TestNode } from '../../test/support/node-process.ts';
import { withAuth } from '../credentials.ts';
import { bulkLoad, countDocs, recreateIndex, refreshIndex } from '../load-sample.ts';
import { type BulkBatch, flights } from '../sample-data/index.ts';

export interface RecoveryRun {
  label: string;
  restartMs: number;
  slowestShardMs: number;
  replayedOps: number;
  docsFromCommit: number;
  count: number;
}

async function restartTimed(node: TestNode, label: string): Promise<{ node: TestNode; run: RecoveryRun }> {
  await node.kill();
  const t0 = performance.now();
  const next = await node.restart();
  const restartMs = performance.now() - t0;
  const lines = next.logs.filter((l) => l.msg === 'recovered shard from its commit and translog');
  await refreshIndex(next.url, flights.index);
  return {
    node: next,
    run: {
      label,
      restartMs,
      slowestShardMs: Math.max(0, ...lines.map((l) => Number(l.ms))),
      replayedOps: lines.reduce((n, l) => n + Number(l.replayedOps), 0),
      docsFromCommit: lines.reduce((n, l) => n + Number(l.docsFromCommit), 0),
      count: await countDocs(next.url, flights.index),
    },
  };
}

export async function measureRecovery(batches: BulkBatch[], shards: number): Promise<RecoveryRun[]> {
  let node = await startTestNode({ workers: 2 });
  try {
    await recreateIndex(node.url, flights, shards);
    await bulkLoad(node.url, batches, { concurrency: 4 });
    const a = await restartTimed(node, 'translog only (killed before any flush)');
    node = a.node;
    const f = await fetch(new URL(`/${flights.index}/_flush`, node.url), {
      method: 'POST',
      headers: withAuth(),
    });
    if (f.status !== 200) throw new Error(`_flush answered ${f.status}`);
    const b = await restartTimed(node, 'from a commit (_flush, then killed)');
    node = b.node;
    return [a.run, b.run];
  } finally {
    await node.stop();
  }
}
