/**
 * One run of a reindex or by-query request (or one slice of it; Elasticsearch's
 * AbstractAsyncBulkByScrollAction): read a batch from the source scroll, turn each hit into a
 * write — an index/create into the destination, an in-place index guarded by the hit's
 * seq_no and primary term, or a guarded delete — send the batch through the write path, count
 * what happened, wait as `requests_per_second` asks, and go on until the scroll is exhausted,
 * `max_docs` is reached, a failure aborts the run, or the task is cancelled. Version conflicts
 * abort the run unless `conflicts` is `proceed`; any other write failure and any search
 * failure abort it. The scroll is cleared however the run ends.
 */
import type { WriteScript } from '@shoal/engine';
import { type BulkByScrollRequest, ShoalError } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';
import type { Task } from '../tasks/task-registry.ts';
import type { WriteItem, WriteItemResult } from '../write/write-item.ts';
import { executeWrites } from '../write/write-path.ts';
import { wireErrorJson } from '../write/write-response.ts';
import { applyScript } from './script-applier.ts';
import { ScrollSource, type SourceHit, sourceSearch, sourceTargets } from './scroll-source.ts';
import type { ByScrollStatus } from './status.ts';
import { Throttle } from './throttle.ts';

export interface RunOutcome {
  failures: Record<string, unknown>[];
  timedOut: boolean;
  /** The indices written to (refreshed at the end when the request asks). */
  written: Set<string>;
}

export interface SliceSpec {
  id: number;
  max: number;
}

/** The write a hit turns into. */
function writeFor(req: BulkByScrollRequest, hit: SourceHit): WriteItem {
  if (req.kind === 'delete_by_query') {
    return { action: 'delete', target: hit.index, id: hit.id, routing: hit.routing, ...guard(hit) };
  }
  if (hit.source === undefined) {
    throw new ShoalError(
      'illegal_argument_exception',
      `[${hit.index}][_doc][${hit.id}] didn't store _source`,
      400,
    );
  }
  if (req.kind === 'update_by_query') {
    return {
      action: 'index',
      target: hit.index,
      id: hit.id,
      routing: hit.routing,
      body: hit.source,
      ...guard(hit),
    };
  }
  const dest = req.dest!;
  const item: WriteItem = {
    action: dest.opType === 'create' ? 'create' : 'index',
    target: dest.index,
    id: hit.id,
    body: hit.source,
  };
  const routing = destRouting(dest.routing, hit.routing);
  if (routing !== undefined) item.routing = routing;
  if (dest.versionType === 'external' || dest.versionType === 'external_gte') {
    item.versionType = dest.versionType;
    item.version = hit.version;
  }
  return item;
}

/** Reindex's `dest.routing`: `keep` the source's, `discard` it, or `=value`. */
function destRouting(spec: string, source: string | undefined): string | undefined {
  if (spec === 'keep') return source;
  if (spec === 'discard') return undefined;
  if (spec.startsWith('=')) return spec.slice(1);
  return source;
}

/** A by-query write applies only to the version of the document the scroll saw. */
function guard(hit: SourceHit): Pick<WriteItem, 'ifSeqNo' | 'ifPrimaryTerm'> {
  if (hit.seqNo === undefined || hit.primaryTerm === undefined) return {};
  return { ifSeqNo: hit.seqNo, ifPrimaryTerm: hit.primaryTerm };
}

/** A bulk failure in Elasticsearch's `failures` shape. */
function bulkFailure(r: WriteItemResult): Record<string, unknown> {
  return { index: r.index, id: r.id, cause: wireErrorJson(r.error!), status: r.status };
}

function count(status: ByScrollStatus, r: WriteItemResult): void {
  switch (r.result) {
    case 'created':
      status.created++;
      break;
    case 'updated':
      status.updated++;
      break;
    case 'deleted':
      status.deleted++;
      break;
    case 'noop':
      status.noops++;
      break;
    default:
      status.versionConflicts++;
  }
}

/** Writes one batch; returns the failures that abort the run (none: go on). */
async function writeBatch(
  s: NodeServices,
  req: BulkByScrollRequest,
  hits: SourceHit[],
  status: ByScrollStatus,
  written: Set<string>,
  script: WriteScript | undefined,
): Promise<Record<string, unknown>[]> {
  const items: WriteItem[] = [];
  for (const h of hits) {
    const item = writeFor(req, h);
    if (!script) {
      items.push(item);
      continue;
    }
    const scripted = applyScript(req, script, h, item);
    if (scripted.kind === 'noop') status.noops++;
    else items.push(scripted.item);
  }
  if (items.length === 0) return [];
  const results = await executeWrites(s, items, 'false');
  const failures: Record<string, unknown>[] = [];
  for (const r of results) {
    if (!r.error) {
      count(status, r);
      written.add(r.index);
      continue;
    }
    if (r.status === 409) {
      status.versionConflicts++;
      if (req.conflicts === 'proceed') continue;
    }
    failures.push(bulkFailure(r));
  }
  return failures;
}

export async function runByScroll(
  s: NodeServices,
  req: BulkByScrollRequest,
  status: ByScrollStatus,
  task: Task,
  maxDocs: number | undefined,
  slice?: SliceSpec,
  onThrottle?: (t: Throttle) => void,
  script?: WriteScript,
): Promise<RunOutcome> {
  const outcome: RunOutcome = { failures: [], timedOut: false, written: new Set() };
  const throttle = new Throttle(status, task);
  onThrottle?.(throttle);
  const cancel = s.cancelSlots.acquire();
  task.onCancel(() => s.cancelSlots.cancel(cancel));
  const source = new ScrollSource(s, sourceSearch(req, slice), sourceTargets(s, req), cancel);
  let lastSize = 0;
  let lastStart = 0;
  try {
    let batch = await source.first();
    status.total = maxDocs === undefined ? batch.total : Math.min(batch.total, maxDocs);
    for (;;) {
      if (task.cancelled) break;
      if (batch.failures.length > 0) {
        outcome.failures.push(...batch.failures);
        break;
      }
      let hits = batch.hits;
      if (maxDocs !== undefined) hits = hits.slice(0, Math.max(0, maxDocs - status.done));
      if (hits.length === 0) break;
      await throttle.before(lastSize, lastStart);
      if (task.cancelled) break;
      lastStart = Date.now();
      lastSize = hits.length;
      const failures = await writeBatch(s, req, hits, status, outcome.written, script);
      status.batches++;
      if (failures.length > 0) {
        outcome.failures.push(...failures);
        break;
      }
      if (maxDocs !== undefined && status.done >= maxDocs) break;
      batch = await source.next();
    }
  } catch (e) {
    // A cancelled task's scroll fails with the cancellation: that is the task's end, not an error.
    if (!task.cancelled) throw e;
  } finally {
    s.cancelSlots.release(cancel);
    await source.close();
    if (task.cancelled) status.canceled = task.cancelledReason;
  }
  return outcome;
}
