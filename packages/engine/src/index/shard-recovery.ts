/**
 * Opening a shard that has a data path: a new shard gets an empty store; an existing one is
 * recovered as Elasticsearch's store recovery does it: load the newest commit (every segment
 * file checked against its checksum), replay the translog above the commit's local checkpoint,
 * refresh so the result is searchable. Any corruption fails the open with a CorruptionError
 * that names the file; nothing is served from a shard that did not recover whole.
 */

import { ShardStore } from '../store/shard-store.ts';
import type { TranslogWarn } from '../store/translog.ts';
import { ShardEngine, type ShardEngineOptions } from './shard-engine.ts';

/** Buffered docs after which replay refreshes, so a long translog does not pile up in memory. */
const REPLAY_REFRESH_DOCS = 50_000;

export interface RecoveryInfo {
  /** Whether an existing shard was found (false: a new, empty one was created). */
  existing: boolean;
  segments: number;
  docsFromCommit: number;
  replayedOps: number;
  /** Mapping fragments the replayed documents needed (already in the index metadata, normally). */
  mappingUpdates: Record<string, unknown>[];
  ms: number;
}

export function openShardEngine(
  opts: Omit<ShardEngineOptions, 'store'> & { path: string; warn: TranslogWarn },
): { engine: ShardEngine; recovery: RecoveryInfo } {
  const started = performance.now();
  const { path, warn, ...engineOpts } = opts;
  if (!ShardStore.exists(path)) {
    const store = ShardStore.create(path, opts.primaryTerm ?? 1);
    const engine = new ShardEngine({ ...engineOpts, store });
    return {
      engine,
      recovery: {
        existing: false,
        segments: 0,
        docsFromCommit: 0,
        replayedOps: 0,
        mappingUpdates: [],
        ms: performance.now() - started,
      },
    };
  }
  const { store, commit, entries } = ShardStore.open(path);
  const engine = new ShardEngine({
    ...engineOpts,
    primaryTerm: Math.max(opts.primaryTerm ?? 1, commit.primaryTerm),
    store,
  });
  let docsFromCommit = 0;
  for (const e of entries) docsFromCommit += e.liveDocs.numLive;
  engine.restore(entries, commit.maxSeqNo);
  let replayedOps = 0;
  const mappingUpdates: Record<string, unknown>[] = [];
  try {
    store.replayTranslog((ops) => {
      mappingUpdates.push(...engine.replay(ops, commit.localCheckpoint));
      replayedOps += ops.length;
      if (engine.bufferedDocs >= REPLAY_REFRESH_DOCS) engine.refresh();
    }, warn);
  } catch (e) {
    engine.close();
    throw e;
  }
  engine.refresh();
  // A copy started again is a new primary assignment: as Elasticsearch does, its primary term
  // goes up, so the operations of this run are told apart from those before it.
  const term = Math.max(engine.currentPrimaryTerm, store.recordedPrimaryTerm()) + 1;
  try {
    store.recordPrimaryTerm(term);
  } catch (e) {
    engine.close();
    throw e;
  }
  engine.setPrimaryTerm(term);
  return {
    engine,
    recovery: {
      existing: true,
      segments: entries.length,
      docsFromCommit,
      replayedOps,
      mappingUpdates,
      ms: performance.now() - started,
    },
  };
}
