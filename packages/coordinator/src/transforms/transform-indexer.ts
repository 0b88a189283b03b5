/**
 * One checkpoint of a transform (Elasticsearch's TransformIndexer): for a continuous transform,
 * the new upper time bound (now − `sync.time.delay`) and what changed since the last one; then
 * page by page — a composite aggregation page (pivot) or a sorted page of documents (latest) —
 * search the source, turn the page into destination documents, write them through the bulk
 * write path, count, wait as `docs_per_second` asks, and save the position, so that a stop or
 * a restart resumes where it left off. At the end the destination is refreshed, the retention
 * policy applied and the checkpoint recorded.
 */
import { isShoalError, ShoalError, stringifyJsonBytes } from '@shoal/protocol';
import { internalSearch } from '../search/internal-search.ts';
import type { InternalClient } from '../security/internal-client.ts';
import type { NodeServices } from '../services.ts';
import type { WriteItem } from '../write/write-item.ts';
import { executeWrites } from '../write/write-path.ts';
import { ChangeCollector, changeSources, changesPageBody } from './changes.ts';
import { ensureDestIndex, sourceFieldTypes } from './dest-index.ts';
import { type LatestPosition, latestPageBody, readLatestPage } from './latest.ts';
import { type DestDoc, type FieldTypes, type PageResult, pivotPageBody, readPivotPage } from './pivot.ts';
import { isContinuous, pageSize, type TransformConfig } from './transform-config.ts';
import { type IndexerStats, recordCheckpoint, type TransformRunState } from './transform-stats.ts';

export interface CheckpointRun {
  s: NodeServices;
  client: InternalClient<NodeServices>;
  config: TransformConfig;
  state: TransformRunState;
  stats: IndexerStats;
  /** Asked between pages: a stop request ends the run with its position saved. */
  stopRequested(): boolean;
  persist(): Promise<void>;
  /** Waits (throttling), cut short by a stop request. */
  sleep(ms: number): Promise<void>;
}

export type CheckpointOutcome = 'done' | 'no_changes' | 'stopped';

function timeRange(field: string, range: Record<string, number>): Record<string, unknown> {
  return { range: { [field]: { ...range, format: 'epoch_millis' } } };
}

/** The query of a pass: the source query, bounded in time (continuous), narrowed to what changed. */
export function passQuery(
  config: TransformConfig,
  upper: number | undefined,
  filters: Record<string, unknown>[],
): Record<string, unknown> {
  const filter: Record<string, unknown>[] = [config.source.query, ...filters];
  if (config.sync && upper !== undefined) filter.push(timeRange(config.sync.field, { lt: upper }));
  return filter.length === 1 ? config.source.query : { bool: { filter } };
}

async function timedSearch(
  run: CheckpointRun,
  body: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const started = Date.now();
  try {
    return await internalSearch(run.s, run.config.source.index.join(','), body);
  } catch (e) {
    run.stats.search_failures++;
    throw e;
  } finally {
    run.stats.search_total++;
    run.stats.search_time_in_ms += Date.now() - started;
  }
}

/** One page of the transform's function. */
export async function searchPage(
  run: Pick<CheckpointRun, 's' | 'config' | 'stats'>,
  query: Record<string, unknown>,
  size: number,
  position: unknown,
  types: FieldTypes,
): Promise<PageResult> {
  const c = run.config;
  const rt = c.source.runtimeMappings;
  if (c.pivot) {
    const body = pivotPageBody(c.pivot, query, size, position as Record<string, unknown> | undefined, rt);
    const datesAsMillis = c.settings.datesAsEpochMillis === true;
    return readPivotPage(c.pivot, await timedSearch(run as CheckpointRun, body), types, datesAsMillis);
  }
  const latest = c.latest!;
  const body = latestPageBody(latest, query, size, position as LatestPosition | undefined, rt);
  return readLatestPage(
    latest,
    await timedSearch(run as CheckpointRun, body),
    position as LatestPosition | undefined,
  );
}

async function writeDocs(run: CheckpointRun, docs: DestDoc[]): Promise<void> {
  if (docs.length === 0) return;
  const items: WriteItem[] = docs.map((d) => {
    const bytes = stringifyJsonBytes(d.source);
    return {
      action: 'index',
      target: run.config.dest.index,
      id: d.id,
      body: typeof bytes === 'string' ? Buffer.from(bytes) : bytes,
    };
  });
  const started = Date.now();
  const results = await executeWrites(run.s, items, 'false');
  run.stats.index_time_in_ms += Date.now() - started;
  run.stats.index_total++;
  const failed = results.filter((r) => r.error);
  run.stats.documents_indexed += results.length - failed.length;
  if (failed.length > 0) {
    run.stats.index_failures += failed.length;
    const first = failed[0]!.error!;
    throw new ShoalError(
      'status_exception',
      `Bulk index experienced [${failed.length}] failures. Significant falures: [${first.reason}]`,
      500,
    );
  }
}

/** Collects what changed between the last checkpoint's bound and the new one. */
async function detectChanges(run: CheckpointRun, lastUpper: number, upper: number): Promise<ChangeCollector> {
  const c = run.config;
  const collector = new ChangeCollector(changeSources(c.pivot, c.latest));
  const changed: Record<string, unknown> = {
    bool: { filter: [c.source.query, timeRange(c.sync!.field, { gte: lastUpper, lt: upper })] },
  };
  if (collector.sources.length === 0) {
    const r = await timedSearch(run, { size: 0, query: changed, track_total_hits: 1 });
    const total = (r.hits as { total?: { value: number } } | undefined)?.total?.value ?? 0;
    if (total > 0) collector.collect({ aggregations: { _changes: { buckets: [{ key: {} }] } } });
    return collector;
  }
  let after: Record<string, unknown> | undefined;
  do {
    const r = await timedSearch(run, changesPageBody(collector.sources, changed, pageSize(c), after));
    after = collector.collect(r);
  } while (after !== undefined);
  return collector;
}

async function applyRetention(run: CheckpointRun): Promise<void> {
  const policy = run.config.retentionPolicy;
  if (!policy) return;
  const started = Date.now();
  const r = await run.client.call(
    'POST',
    '/:index/_delete_by_query',
    { index: run.config.dest.index },
    {
      query: { refresh: 'true', conflicts: 'proceed' },
      body: { query: timeRange(policy.field, { lt: Date.now() - policy.maxAgeMs }) },
    },
  );
  run.stats.delete_time_in_ms += Date.now() - started;
  if (r.status === 200) run.stats.documents_deleted += Number(r.body.deleted ?? 0);
}

/** Opens the next checkpoint (or finds nothing to do); false when there is nothing to do. */
async function openCheckpoint(run: CheckpointRun): Promise<boolean> {
  const { config: c, state } = run;
  if (state.next) return true;
  const now = Date.now();
  if (!isContinuous(c)) {
    if (state.checkpoint > 0) return false;
    state.next = { checkpoint: 1, timestamp_millis: now, filters: [], docs_indexed: 0, docs_processed: 0 };
    return true;
  }
  const upper = now - c.sync!.delayMs;
  let filters: Record<string, unknown>[] = [];
  const lastUpper = state.last?.time_upper_bound_millis;
  if (state.checkpoint > 0 && lastUpper !== undefined) {
    const changes = await detectChanges(run, lastUpper, upper);
    state.last_search_time = now;
    if (!changes.any) return false;
    filters = changes.filters();
  }
  state.changes_last_detected_at = now;
  state.next = {
    checkpoint: state.checkpoint + 1,
    timestamp_millis: now,
    time_upper_bound_millis: upper,
    filters,
    docs_indexed: 0,
    docs_processed: 0,
  };
  return true;
}

export async function runCheckpoint(run: CheckpointRun): Promise<CheckpointOutcome> {
  const { config: c, state, stats } = run;
  if (!(await openCheckpoint(run))) return 'no_changes';
  const next = state.next!;
  const started = Date.now();
  // A destination deleted while the transform runs (or never created, unattended) is created
  // again with its deduced mappings rather than left to a bulk's dynamic mapping.
  await ensureDestIndex(run.s, run.client, c);
  const types = c.pivot ? await sourceFieldTypes(run.client, c) : {};
  const query = passQuery(c, next.time_upper_bound_millis, next.filters);
  if (next.total_docs === undefined) {
    const counted = await timedSearch(run, { size: 0, query, track_total_hits: true });
    next.total_docs = (counted.hits as { total?: { value: number } } | undefined)?.total?.value ?? 0;
  }
  const size = pageSize(c);
  const perSecond = c.settings.docsPerSecond;
  for (;;) {
    if (run.stopRequested()) {
      await run.persist();
      return 'stopped';
    }
    const pageStart = Date.now();
    const ioBefore = stats.search_time_in_ms + stats.index_time_in_ms;
    const page = await searchPage(run, query, size, next.position, types);
    if (page.docs.length === 0 && page.after === undefined) break;
    const indexedBefore = stats.documents_indexed;
    await writeDocs(run, page.docs);
    // Processing: the page's time outside the search and the bulk write.
    stats.processing_total++;
    stats.processing_time_in_ms += Math.max(
      0,
      Date.now() - pageStart - (stats.search_time_in_ms + stats.index_time_in_ms - ioBefore),
    );
    stats.pages_processed++;
    stats.documents_processed += page.docsProcessed;
    next.docs_processed += page.docsProcessed;
    next.docs_indexed += stats.documents_indexed - indexedBefore;
    next.position = page.after;
    await run.persist();
    if (page.after === undefined) break;
    if (perSecond !== undefined && page.docsProcessed > 0) {
      const wait = (page.docsProcessed / perSecond) * 1000 - (Date.now() - pageStart);
      if (wait > 0) await run.sleep(wait);
    }
  }
  await run.client.call('POST', '/:index/_refresh', { index: c.dest.index });
  await applyRetention(run);
  recordCheckpoint(stats, next.checkpoint, Date.now() - started, next.docs_indexed, next.docs_processed);
  const last = {
    timestamp_millis: next.timestamp_millis,
    time_upper_bound_millis: next.time_upper_bound_millis,
  };
  state.checkpoint = next.checkpoint;
  state.last = last;
  state.next = undefined;
  await run.persist();
  return 'done';
}

/** Whether an error is the client's or the cluster's for good (no retry can help). */
export function irrecoverable(e: unknown): boolean {
  if (!isShoalError(e)) return false;
  return e.status === 400 || e.status === 403 || e.status === 404 || e.status === 501;
}
