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
