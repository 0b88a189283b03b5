/**
 * `_reindex`, `_update_by_query` and `_delete_by_query` as tasks: checks the request against
 * the cluster (the source exists, reindex does not write into what it reads), registers the
 * task, runs it — as one scroll, or as `slices` sliced scrolls in parallel, each a child task
 * with its share of `max_docs` and of `requests_per_second` — and answers with Elasticsearch's
 * response: counts, `failures`, and per slice its own counts. With `wait_for_completion=false`
 * it answers `{"task": "<node>:<id>"}` at once and keeps the result in `.tasks`.
 */

import { compileScript, type WriteScript } from '@shoal/engine';
import {
  actionRequestValidation,
  type BulkByScrollKind,
  type BulkByScrollRequest,
  errorBody,
  notImplemented,
  parseScriptWith,
} from '@shoal/protocol';
import type { IndexAccess } from '@shoal/security';
import { admitScripts } from '../scripts/compilation-limit.ts';
import { readRestriction } from '../search/read-restrictions.ts';
import type { NodeServices } from '../services.ts';
import { taskInfoJson } from '../tasks/task-json.ts';
import type { Task } from '../tasks/task-registry.ts';
import { type StoredTask, storeTaskResult } from '../tasks/task-results.ts';
import { type RunOutcome, runByScroll } from './by-scroll-run.ts';
import { sourceSearch, sourceTargets } from './scroll-source.ts';
import { ByScrollStatus, statusJson } from './status.ts';
import type { Throttle } from './throttle.ts';

const ACTIONS: Record<BulkByScrollKind, string> = {
  reindex: 'indices:data/write/reindex',
  update_by_query: 'indices:data/write/update/byquery',
  delete_by_query: 'indices:data/write/delete/byquery',
};

function description(req: BulkByScrollRequest): string {
  const sources = `[${req.source.join(', ')}]`;
  if (req.kind === 'reindex') return `reindex from ${sources} to [${req.dest!.index}]`;
  return `${req.kind === 'update_by_query' ? 'update-by-query' : 'delete-by-query'} ${sources}`;
}

/** The running work behind a task: its status and how to rethrottle it. */
interface Running {
  kind: BulkByScrollKind;
  status: ByScrollStatus;
  slices?: (ByScrollStatus | undefined)[];
  throttles: Throttle[];
  /** Slices still to start take their rate from here. */
  sliceCount: number;
}

const running = new Map<Task, Running>();

/** How often a task started without waiting stores what it has done. */
const PROGRESS_INTERVAL_MS = 1000;

/** `_rethrottle`: a new rate for a running reindex or by-query task, shared by its slices. */
export function rethrottle(task: Task, rate: number): boolean {
  const r = running.get(task);
  if (!r) return false;
  r.status.requestsPerSecond = rate;
  const share = Number.isFinite(rate) ? rate / r.sliceCount : rate;
  for (const t of r.throttles) t.rethrottle(share);
  return true;
}

/**
 * The request's script, resolved (a stored one by its id) and compiled once before any task
 * exists, so that a script that does not compile is the request's error.
 */
function resolveScript(s: NodeServices, req: BulkByScrollRequest): WriteScript | undefined {
  if (req.script === undefined) return undefined;
  const spec = parseScriptWith(req.script, (id) => s.storedScripts.get(id));
  admitScripts(s, [spec]);
  compileScript(spec.source!);
  return { source: spec.source!, params: spec.params };
}

/** Checks the request against the cluster before any task exists (errors go to the client). */
function check(s: NodeServices, req: BulkByScrollRequest, access: IndexAccess | undefined): void {
  if (req.dest?.pipeline !== undefined)
    throw notImplemented('[dest.pipeline] in _reindex (ingest pipelines)');
  // Parses the search part (bad queries fail here) and resolves the source (missing: 404).
  sourceSearch(req);
  const targets = sourceTargets(s, req);
  // The run is a task that outlives the request (and may resume after a restart): it has no
  // user to restrict its reads by.
  if (access && targets.some((t) => readRestriction(access, t.meta) !== undefined)) {
    throw notImplemented(
      `[${req.kind}] over an index whose documents or fields the user's roles restrict (document- and field-level security)`,
    );
  }
  if (req.kind !== 'reindex') return;
  const dest = s.indices.get(req.dest!.index) ?? writeIndexOfAlias(s, req.dest!.index);
  if (dest && targets.some((t) => t.meta.uuid === dest.uuid)) {
    throw actionRequestValidation([`reindex cannot write into an index its reading from [${dest.name}]`]);
  }
}

function writeIndexOfAlias(s: NodeServices, alias: string) {
  const targets = s.indices.aliasTargets(alias);
  return (
    targets.find((m) => m.aliases.get(alias)?.isWriteIndex === true) ??
    (targets.length === 1 ? targets[0] : undefined)
  );
}

/** `auto`: one slice per shard of the source index with the fewest (Elasticsearch's rule). */
function sliceCount(s: NodeServices, req: BulkByScrollRequest): number {
  if (req.slices !== 'auto') return req.slices;
  const shardsPerIndex = new Map<string, number>();
  for (const t of sourceTargets(s, req)) shardsPerIndex.set(t.meta.uuid, t.meta.numberOfShards);
  return Math.max(1, Math.min(...shardsPerIndex.values()));
}

/** Each slice's share of `max_docs`: the remainder goes to the first slices. */
function maxDocsShare(maxDocs: number | undefined, slices: number, i: number): number | undefined {
  if (maxDocs === undefined) return undefined;
  return Math.floor(maxDocs / slices) + (i < maxDocs % slices ? 1 : 0);
}

async function runTask(
  s: NodeServices,
  req: BulkByScrollRequest,
  task: Task,
  work: Running,
  script: WriteScript | undefined,
): Promise<Record<string, unknown>> {
  const started = process.hrtime.bigint();
  const n = work.sliceCount;
  let outcomes: RunOutcome[];
  if (n === 1) {
    outcomes = [
      await runByScroll(
        s,
        req,
        work.status,
        task,
        req.maxDocs,
        undefined,
        (t) => work.throttles.push(t),
        script,
      ),
    ];
  } else {
    const share = Number.isFinite(req.requestsPerSecond) ? req.requestsPerSecond / n : req.requestsPerSecond;
    work.slices = Array.from({ length: n }, () => undefined);
    outcomes = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        s.tasks.run(
          { action: ACTIONS[req.kind], description: description(req), cancellable: true, parent: task },
          (child) => {
            const status = new ByScrollStatus(req.kind, share, i);
            work.slices![i] = status;
            return runByScroll(
              s,
              req,
              status,
              child,
              maxDocsShare(req.maxDocs, n, i),
              { id: i, max: n },
              (t) => work.throttles.push(t),
              script,
            );
          },
        ),
      ),
    );
  }
  const written = new Set(outcomes.flatMap((o) => [...o.written]));
  if (req.refresh) await refresh(s, written);
  if (task.cancelled) work.status.canceled = task.cancelledReason;
  const took = Number((process.hrtime.bigint() - started) / 1_000_000n);
  return {
    took,
    timed_out: outcomes.some((o) => o.timedOut),
    ...statusJson(req.kind, work.status, work.slices),
    failures: outcomes.flatMap((o) => o.failures),
  };
}

async function refresh(s: NodeServices, indices: Set<string>): Promise<void> {
  await Promise.all(
    [...indices].flatMap((name) => {
      const meta = s.indices.get(name);
      if (!meta) return [];
      return s.shards
        .copies(meta.uuid)
        .filter((c) => c.state === 'STARTED' && c.worker)
        .map((c) => c.worker!.run({ t: 'refresh', key: c.key }));
    }),
  );
}

/** The HTTP status of a finished run: the worst of its failures' (Elasticsearch's listener). */
export function responseStatus(body: Record<string, unknown>): number {
  let status = 200;
  for (const f of (body.failures as { status?: number }[]) ?? []) {
    if (typeof f.status === 'number' && f.status > status) status = f.status;
  }
  return status;
}

export type ByScrollAnswer =
  | { completed: true; body: Record<string, unknown> }
  | { completed: false; task: string };

export async function executeByScroll(
  s: NodeServices,
  req: BulkByScrollRequest,
  access?: IndexAccess,
): Promise<ByScrollAnswer> {
  check(s, req, access);
  const script = resolveScript(s, req);
  const work: Running = {
    kind: req.kind,
    status: new ByScrollStatus(req.kind, req.requestsPerSecond),
    throttles: [],
    sliceCount: sliceCount(s, req),
  };
  const task = s.tasks.register({
    action: ACTIONS[req.kind],
    description: description(req),
    cancellable: true,
    status: () => statusJson(req.kind, work.status, work.slices),
  });
  running.set(task, work);
  const run = runTask(s, req, task, work, script).finally(() => {
    running.delete(task);
  });
  if (req.waitForCompletion) {
    try {
      return { completed: true, body: await run };
    } finally {
      s.tasks.unregister(task);
    }
  }
  const id = task.taskId;
  const info = () => taskInfoJson(task, true);
  await storeTaskResult(s, id, { completed: false, task: info() });
  // What the task has done is stored now and then: a node that stops in the middle leaves it.
  // Stores run one after the other, so the final result is the last one written.
  let stored: Promise<void> = Promise.resolve();
  const store = (doc: StoredTask) => {
    stored = stored.catch(() => undefined).then(() => storeTaskResult(s, id, doc));
    return stored;
  };
  let storing = false;
  const progress = setInterval(() => {
    if (storing) return;
    storing = true;
    store({ completed: false, task: info() })
      .catch(() => undefined)
      .finally(() => {
        storing = false;
      });
  }, PROGRESS_INTERVAL_MS);
  progress.unref();
  void run
    .finally(() => clearInterval(progress))
    .then(
      (response) => store({ completed: true, task: info(), response }),
      (err: unknown) => store({ completed: true, task: info(), error: errorBody(err).body.error }),
    )
    .catch((err: unknown) => s.logger.error({ err, task: id }, 'failed to store the result of a task'))
    .finally(() => s.tasks.unregister(task));
  return { completed: false, task: id };
}
