/**
 * `GET /_cat/transforms[/{transform_id}]` (RestCatTransformAction): one row per transform, its
 * configuration and its stats, with Elasticsearch's columns, aliases and default columns.
 */
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { isContinuous, pageSize } from '../transforms/transform-config.ts';
import { type CatColumn, type CatRow, catResponse } from './cat-table.ts';
import { intParam } from './params.ts';

const col = (name: string, aliases: string[], desc: string, dflt = false, right = false): CatColumn => ({
  name,
  aliases,
  desc,
  default: dflt,
  right,
});

const COLUMNS: CatColumn[] = [
  col('id', [], 'the id', true),
  col('state', ['s'], 'transform state', true),
  col('checkpoint', ['c'], 'checkpoint', true, true),
  col(
    'documents_processed',
    ['docp', 'documentsProcessed'],
    'the number of documents read from source indices and processed',
    true,
    true,
  ),
  col('checkpoint_progress', ['cp', 'checkpointProgress'], 'progress of the checkpoint', true, true),
  col('last_search_time', ['lst', 'lastSearchTime'], 'last time transform searched for updates', true),
  col('changes_last_detection_time', ['cldt'], 'changes last detected time', true),
  col('create_time', ['ct', 'createTime'], 'transform creation time'),
  col('version', ['v'], 'the version of Elasticsearch when the transform was created'),
  col('source_index', ['si', 'sourceIndex'], 'source index'),
  col('dest_index', ['di', 'destIndex'], 'destination index'),
  col('pipeline', ['p'], 'transform pipeline'),
  col('description', ['d'], 'description'),
  col('transform_type', ['tt'], 'batch or continuous transform'),
  col('frequency', ['f'], 'frequency of transform'),
  col('max_page_search_size', ['mpsz'], 'max page search size', false, true),
  col('docs_per_second', ['dps'], 'docs per second', false, true),
  col('reason', ['r'], 'reason for the current state'),
  col('search_total', ['st'], 'total number of search phases', false, true),
  col('search_failure', ['sf'], 'total number of search failures', false, true),
  col('search_time', ['stime'], 'total search time', false, true),
  col('index_total', ['it'], 'total number of index phases done by the transform', false, true),
  col('index_failure', ['if'], 'total number of index failures', false, true),
  col('index_time', ['itime'], 'total time spent indexing documents', false, true),
  col('documents_indexed', ['doci'], 'the number of documents written to the destination index', false, true),
  col('delete_time', ['dtime'], 'total time spent deleting documents', false, true),
  col(
    'documents_deleted',
    ['docd'],
    'the number of documents deleted from the destination index',
    false,
    true,
  ),
  col('trigger_count', ['tc'], 'the number of times the transform has been triggered', false, true),
  col('pages_processed', ['pp'], 'the number of pages processed', false, true),
  col('processing_time', ['pt'], 'the total time spent processing documents', false, true),
  col(
    'checkpoint_duration_time_exp_avg',
    ['cdtea', 'checkpointTimeExpAvg'],
    'exponential average checkpoint processing time (milliseconds)',
    false,
    true,
  ),
  col('indexed_documents_exp_avg', ['idea'], 'exponential average number of documents indexed', false, true),
  col(
    'processed_documents_exp_avg',
    ['pdea'],
    'exponential average number of documents processed',
    false,
    true,
  ),
];

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

async function catTransforms(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const svc = s.transforms!;
  const from = intParam(req.query, 'from') ?? 0;
  const size = intParam(req.query, 'size') ?? 100;
  const allowNoMatch = req.query.allow_no_match !== 'false';
  const ids = await svc.expand(req.params.transform_id ?? '_all', allowNoMatch);
  const rows: CatRow[] = [];
  for (const id of ids.slice(from, from + size)) {
    const { config } = await svc.load(id);
    const { state, stats } = await svc.runState(id);
    const task = svc.running(id);
    const total = state.next?.total_docs;
    const progress =
      state.next && total !== undefined
        ? (total === 0 ? 100 : (state.next.docs_processed / total) * 100).toFixed(2)
        : null;
    rows.push({
      id,
      state: task ? task.status : state.task_state,
      checkpoint: state.checkpoint,
      documents_processed: stats.documents_processed,
      checkpoint_progress: progress,
      last_search_time: iso(state.last_search_time),
      changes_last_detection_time: iso(state.changes_last_detected_at),
      create_time: iso(config.createTime),
      version: config.version,
      source_index: config.source.index.join(','),
      dest_index: config.dest.index,
      pipeline: config.dest.pipeline ?? null,
      description: config.description ?? null,
      transform_type: isContinuous(config) ? 'continuous' : 'batch',
      frequency: config.frequency ?? '1m',
      max_page_search_size: pageSize(config),
      docs_per_second: config.settings.docsPerSecond ?? null,
      reason: state.task_state === 'failed' ? (state.reason ?? null) : null,
      search_total: stats.search_total,
      search_failure: stats.search_failures,
      search_time: stats.search_time_in_ms,
      index_total: stats.index_total,
      index_failure: stats.index_failures,
      index_time: stats.index_time_in_ms,
      documents_indexed: stats.documents_indexed,
      delete_time: stats.delete_time_in_ms,
      documents_deleted: stats.documents_deleted,
      trigger_count: stats.trigger_count,
      pages_processed: stats.pages_processed,
      processing_time: stats.processing_time_in_ms,
      checkpoint_duration_time_exp_avg: stats.exponential_avg_checkpoint_duration_ms.toFixed(2),
      indexed_documents_exp_avg: stats.exponential_avg_documents_indexed.toFixed(2),
      processed_documents_exp_avg: stats.exponential_avg_documents_processed.toFixed(2),
    });
  }
  return catResponse(req, COLUMNS, rows);
}

export function catTransformRoutes(): Route<NodeServices>[] {
  const action = 'cluster:monitor/transform/stats/get';
  return [
    { method: 'GET', path: '/_cat/transforms', action, handler: catTransforms },
    { method: 'GET', path: '/_cat/transforms/:transform_id', action, handler: catTransforms },
  ];
}
