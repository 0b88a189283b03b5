/**
 * The top_hits body (TopHitsAggregationBuilder): `from`, `size` (default 3), `sort`,
 * `_source`, `version`, `seq_no_primary_term`, `track_scores`. What Shoal's top_hits does not
 * return yet — highlight, explain, fields, docvalue_fields, stored_fields, script_fields —
 * answers 501 naming it.
 */
import { illegalArgument, notImplemented } from '../../errors/catalogue.ts';
import { booleanValue, intValue } from '../../query/xcontent-values.ts';
import { readFetchSource } from '../fetch-source.ts';
import { readSort } from '../parse-sort.ts';
import type { SourceFilter } from '../search-request.ts';
import type { SortSpec } from '../sort-spec.ts';
import type { BodyContext, SpecDraft } from './body-context.ts';
import { type DeclaredField, readDeclared, TOKENS } from './object-parser.ts';

/** index.max_inner_result_window's default: from + size may not pass it. */
const MAX_INNER_RESULT_WINDOW = 100;

const UNSUPPORTED = ['highlight', 'explain', 'fields', 'docvalue_fields', 'stored_fields', 'script_fields'];

export function parseTopHits(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx } = b;
  let from = 0;
  let size = 3;
  let sort: SortSpec[] = [{ kind: 'score', order: 'desc' }];
  let source: SourceFilter = { enabled: true, includes: [], excludes: [] };
  let version = false;
  let seqNoPrimaryTerm = false;
  let trackScores = false;
  const fields: Record<string, DeclaredField> = {
    from: {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        from = intValue(ctx, v);
        if (from < 0)
          throw illegalArgument(`[from] must be greater than or equal to 0. Found [${from}] in [${b.name}]`);
      },
    },
    size: {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        size = intValue(ctx, v);
        if (size < 0)
          throw illegalArgument(`[size] must be greater than or equal to 0. Found [${size}] in [${b.name}]`);
      },
    },
    sort: { tokens: TOKENS.ANY, read: (v) => (sort = readSort(ctx, v)) },
    _source: { tokens: TOKENS.ANY, read: (v) => (source = readFetchSource(ctx, v, b.warnings)) },
    version: { tokens: TOKENS.BOOLEAN, read: (v) => (version = booleanValue(ctx, v)) },
    seq_no_primary_term: { tokens: TOKENS.BOOLEAN, read: (v) => (seqNoPrimaryTerm = booleanValue(ctx, v)) },
    track_scores: { tokens: TOKENS.BOOLEAN, read: (v) => (trackScores = booleanValue(ctx, v)) },
  };
  for (const name of UNSUPPORTED) {
    fields[name] = {
      tokens: TOKENS.ANY,
      read: (v) => {
        if (name === 'explain' && v === false) return;
        throw notImplemented(`[${name}] in the [top_hits] aggregation`);
      },
    };
  }
  readDeclared(ctx, 'top_hits', body, fields);
  if (from + size > MAX_INNER_RESULT_WINDOW) {
    throw illegalArgument(
      `Top hits result window is too large, the top hits aggregator [${b.name}]'s from + size must be less than or equal to: [${MAX_INNER_RESULT_WINDOW}] but was [${from + size}]. This limit can be set by changing the [index.max_inner_result_window] index level setting.`,
    );
  }
  if (sort.length === 0) sort = [{ kind: 'score', order: 'desc' }];
  return { type: 'top_hits', from, size, sort, source, version, seqNoPrimaryTerm, trackScores };
}

/** index.top_metrics_max_size's default. */
const TOP_METRICS_MAX_SIZE = 10;

/** top_metrics (TopMetricsAggregationBuilder): `metrics` (one `{field}` or a list), one `sort`, `size`. */
export function parseTopMetrics(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx } = b;
  let metrics: string[] = [];
  let sort: SortSpec[] | undefined;
  let size = 1;
  const seen = readDeclared(ctx, 'top_metrics', body, {
    metrics: {
      tokens: TOKENS.OBJECT_ARRAY,
      read: (v) => {
        const list = Array.isArray(v) ? v : [v];
        metrics = list.map((m) => {
          const field = (m as Record<string, unknown>)?.field;
          if (typeof field !== 'string') throw illegalArgument('[field] must not be null');
          return field;
        });
      },
    },
    sort: { tokens: TOKENS.ANY, read: (v) => (sort = readSort(ctx, v)) },
    size: {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        size = intValue(ctx, v);
        if (size < 1) throw illegalArgument(`[size] must be more than 0 but was [${size}]`);
      },
    },
  });
  if (!seen.has('metrics')) throw illegalArgument('Required [metrics]');
  if (!seen.has('sort') || sort === undefined || sort.length === 0) throw illegalArgument('Required [sort]');
  if (sort.length > 1) throw illegalArgument('only a single sort is supported');
  if (size > TOP_METRICS_MAX_SIZE) {
    throw illegalArgument(
      `[top_metrics.size] must not be more than [${TOP_METRICS_MAX_SIZE}] but was [${size}]. This limit can be set by changing the [index.top_metrics_max_size] index level setting.`,
    );
  }
  return { type: 'top_metrics', metrics, sort, size };
}
