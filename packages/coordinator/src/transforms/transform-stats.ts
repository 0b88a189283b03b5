/**
 * A transform's indexer counters (TransformIndexerStats) and its checkpointing view
 * (TransformCheckpointingInfo), in the order and shape `GET /_transform/{id}/_stats` writes them.
 */

export interface IndexerStats {
  pages_processed: number;
  documents_processed: number;
  documents_indexed: number;
  documents_deleted: number;
  trigger_count: number;
  index_time_in_ms: number;
  index_total: number;
  index_failures: number;
  search_time_in_ms: number;
  search_total: number;
  search_failures: number;
  processing_time_in_ms: number;
  processing_total: number;
  delete_time_in_ms: number;
  exponential_avg_checkpoint_duration_ms: number;
  exponential_avg_documents_indexed: number;
  exponential_avg_documents_processed: number;
}

export function emptyStats(): IndexerStats {
  return {
    pages_processed: 0,
    documents_processed: 0,
    documents_indexed: 0,
    documents_deleted: 0,
    trigger_count: 0,
    index_time_in_ms: 0,
    index_total: 0,
    index_failures: 0,
    search_time_in_ms: 0,
    search_total: 0,
    search_failures: 0,
    processing_time_in_ms: 0,
    processing_total: 0,
    delete_time_in_ms: 0,
    exponential_avg_checkpoint_duration_ms: 0,
    exponential_avg_documents_indexed: 0,
    exponential_avg_documents_processed: 0,
  };
}

/** Restores stored counters over the defaults (a field the store lacks stays 0). */
export function statsFrom(stored: unknown): IndexerStats {
  const out = emptyStats();
  if (stored && typeof stored === 'object') {
    for (const k of Object.keys(out) as (keyof IndexerStats)[]) {
      const v = (stored as Record<string, unknown>)[k];
      if (typeof v === 'number') out[k] = v;
    }
  }
  return out;
}

/** Exponential averages over checkpoints: alpha = 2/(1+10); the first checkpoint sets them. */
const ALPHA = 2 / (1 + 10);

export function recordCheckpoint(
  stats: IndexerStats,
  checkpoint: number,
  durationMs: number,
  indexed: number,
  processed: number,
): void {
  if (checkpoint <= 1) {
    stats.exponential_avg_checkpoint_duration_ms = durationMs;
    stats.exponential_avg_documents_indexed = indexed;
    stats.exponential_avg_documents_processed = processed;
    return;
  }
  const avg = (old: number, v: number) => ALPHA * v + (1 - ALPHA) * old;
  stats.exponential_avg_checkpoint_duration_ms = avg(
    stats.exponential_avg_checkpoint_duration_ms,
    durationMs,
  );
  stats.exponential_avg_documents_indexed = avg(stats.exponential_avg_documents_indexed, indexed);
  stats.exponential_avg_documents_processed = avg(stats.exponential_avg_documents_processed, processed);
}

/** What is persisted of a transform's run (the state half of the state-and-stats document). */
export interface TransformRunState {
  task_state: 'started' | 'stopped' | 'failed';
  /** The last completed checkpoint (0: none yet). */
  checkpoint: number;
  /** The node the transform runs on (a restart of that node resumes it). */
  node_id?: string;
  reason?: string;
  last?: { timestamp_millis: number; time_upper_bound_millis?: number };
  /** The checkpoint in progress: its bounds, the filter of what changed, and the position reached. */
  next?: {
    checkpoint: number;
    timestamp_millis: number;
    time_upper_bound_millis?: number;
    filters: Record<string, unknown>[];
    position?: unknown;
    /** Source documents the checkpoint reads (counted when it opens). */
    total_docs?: number;
    docs_indexed: number;
    docs_processed: number;
  };
  changes_last_detected_at?: number;
  last_search_time?: number;
}

export function checkpointingJson(st: TransformRunState): Record<string, unknown> {
  const last: Record<string, unknown> = { checkpoint: st.checkpoint };
  if (st.checkpoint > 0 && st.last) {
    last.timestamp_millis = st.last.timestamp_millis;
    if (st.last.time_upper_bound_millis !== undefined)
      last.time_upper_bound_millis = st.last.time_upper_bound_millis;
  }
  const out: Record<string, unknown> = { last };
  if (st.next) {
    const next: Record<string, unknown> = { checkpoint: st.next.checkpoint };
    if (st.next.position !== undefined) next.position = { indexer_position: st.next.position };
    const progress: Record<string, unknown> = {};
    const total = st.next.total_docs;
    if (total !== undefined) {
      progress.total_docs = total;
      progress.docs_remaining = Math.max(0, total - st.next.docs_processed);
      progress.percent_complete = total === 0 ? 100 : Math.min(100, (st.next.docs_processed / total) * 100);
    }
    progress.docs_indexed = st.next.docs_indexed;
    progress.docs_processed = st.next.docs_processed;
    next.checkpoint_progress = progress;
    next.timestamp_millis = st.next.timestamp_millis;
    if (st.next.time_upper_bound_millis !== undefined)
      next.time_upper_bound_millis = st.next.time_upper_bound_millis;
    out.next = next;
  }
  if (st.changes_last_detected_at !== undefined) out.changes_last_detected_at = st.changes_last_detected_at;
  if (st.last_search_time !== undefined) out.last_search_time = st.last_search_time;
  return out;
}
