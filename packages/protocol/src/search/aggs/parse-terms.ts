/**
 * The `terms` body (TermsAggregationBuilder.PARSER): size, shard_size, min_doc_count,
 * shard_min_doc_count, order, include/exclude as arrays of exact values, and the values-source
 * fields. A regular-expression include/exclude is kept for the shard to refuse (it knows the
 * field's type); partitions answer 501.
 */
import { illegalArgument, notImplemented, parseException } from '../../errors/catalogue.ts';
import type { JsonScalar } from '../../query/ast.ts';
import { here, isValue, type ParseCtx } from '../../query/parse-context.ts';
import { booleanValue, intValue, text } from '../../query/xcontent-values.ts';
import type { BodyContext, DraftOf, SpecDraft } from './body-context.ts';
import { COUNT_DESC_KEY_ASC, readOrder } from './bucket-order.ts';
import { longValue, readDeclared, TOKENS } from './object-parser.ts';
import type { BucketOrder } from './spec.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

const DEFAULT_SIZE = 10;

/** BucketUtils.suggestShardSideQueueSize: what each shard returns when `shard_size` is not set. */
export function suggestShardSize(size: number): number {
  return Math.min(2147483647, Math.floor(size * 1.5 + 10));
}

export function parseTerms(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const draft: SourceDraft = {};
  let size = DEFAULT_SIZE;
  let shardSize: number | undefined;
  let minDocCount = 1;
  let shardMinDocCount = 0;
  let order: readonly BucketOrder[] = COUNT_DESC_KEY_ASC;
  let include: JsonScalar[] | undefined;
  let exclude: JsonScalar[] | undefined;
  const regex: { include?: string; exclude?: string } = {};
  let showError = false;
  const fields = sourceFields(ctx, 'terms', draft, { formattable: true, timeZoneAware: false });
  Object.assign(fields, {
    size: {
      tokens: TOKENS.NUMBER,
      read: (v: unknown) => {
        size = intValue(ctx, v);
        if (size <= 0) throw illegalArgument(`[size] must be greater than 0. Found [${size}] in [${name}]`);
      },
    },
    shard_size: {
      tokens: TOKENS.NUMBER,
      read: (v: unknown) => {
        shardSize = intValue(ctx, v);
        if (shardSize <= 0) {
          throw illegalArgument(`[shardSize] must be greater than 0. Found [${shardSize}] in [${name}]`);
        }
      },
    },
    min_doc_count: {
      tokens: TOKENS.NUMBER,
      read: (v: unknown) => {
        minDocCount = longValue(ctx, v);
        if (minDocCount < 0) {
          throw illegalArgument(
            `[minDocCount] must be greater than or equal to 0. Found [${minDocCount}] in [${name}]`,
          );
        }
      },
    },
    shard_min_doc_count: {
      tokens: TOKENS.NUMBER,
      read: (v: unknown) => {
        shardMinDocCount = longValue(ctx, v);
        if (shardMinDocCount < 0) {
          throw illegalArgument(
            `[shardMinDocCount] must be greater than or equal to 0. Found [${shardMinDocCount}] in [${name}]`,
          );
        }
      },
    },
    show_term_doc_count_error: {
      tokens: TOKENS.BOOLEAN,
      read: (v: unknown) => (showError = booleanValue(ctx, v)),
    },
    // How the shard collects, not what it returns.
    execution_hint: { tokens: TOKENS.STRING, read: (v: unknown) => text(ctx, v) },
    collect_mode: { tokens: TOKENS.STRING, read: (v: unknown) => collectMode(ctx, text(ctx, v)) },
    order: { tokens: TOKENS.OBJECT_ARRAY, read: (v: unknown) => (order = readOrder(ctx, v, b.warnings)) },
    include: {
      tokens: TOKENS.OBJECT_ARRAY_OR_STRING,
      read: (v: unknown) => {
        if (typeof v === 'string') regex.include = v;
        else include = exactValues(ctx, v, 'include');
      },
    },
    exclude: {
      tokens: TOKENS.STRING_ARRAY,
      read: (v: unknown) => {
        if (typeof v === 'string') regex.exclude = v;
        else exclude = exactValues(ctx, v, 'exclude');
      },
    },
  });
  const seen = readDeclared(ctx, 'terms', body, fields);
  const source = finishSource(draft, seen);
  const draftSpec: DraftOf<'terms'> = {
    type: 'terms',
    source,
    size,
    // A shard must return at least `size` buckets (TermsAggregator.BucketCountThresholds.ensureValidity).
    shardSize: Math.max(shardSize ?? suggestShardSize(size), size),
    minDocCount,
    shardMinDocCount,
    order,
    showTermDocCountError: showError,
  };
  if (include !== undefined) draftSpec.include = include;
  if (exclude !== undefined) draftSpec.exclude = exclude;
  if (regex.include !== undefined || regex.exclude !== undefined) draftSpec.regex = regex;
  return draftSpec;
}

function collectMode(ctx: ParseCtx, v: string): void {
  if (v === 'depth_first' || v === 'breadth_first') return;
  here(ctx, 'value');
  throw parseException(`no [collect_mode] found for value [${v}]`);
}

/** IncludeExclude.parseArrayToSet: an array of values, kept as their text. */
export function exactValues(ctx: ParseCtx, v: unknown, what: 'include' | 'exclude'): JsonScalar[] {
  if (!Array.isArray(v)) throw notImplemented(`partitions in the [${what}] of a terms aggregation`);
  return v.map((item, i) => {
    if (!isValue(item)) {
      here(ctx, 'value', i);
      throw parseException('Array elements in include/exclude clauses should be string values');
    }
    return typeof item === 'string' ? item : String(item);
  });
}
