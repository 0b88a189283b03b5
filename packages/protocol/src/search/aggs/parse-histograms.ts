/**
 * `histogram` and `date_histogram` bodies: interval, offset, min_doc_count (default 0),
 * extended_bounds, keyed, order. `hard_bounds` answers 501.
 */
import { illegalArgument, notImplemented } from '../../errors/catalogue.ts';
import { here, isObject, type ParseCtx } from '../../query/parse-context.ts';
import { booleanValue, doubleValue, text } from '../../query/xcontent-values.ts';
import { javaDouble } from '../../values/java-double.ts';
import type { BodyContext, DraftOf, SpecDraft } from './body-context.ts';
import { KEY_ASC, readOrder } from './bucket-order.ts';
import { DateIntervalReader, readOffset } from './date-interval.ts';
import { type DeclaredField, longValue, readDeclared, TOKENS } from './object-parser.ts';
import type { BucketOrder } from './spec.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

/** The fields histogram and date_histogram share; their values land in `state`. */
interface Shared {
  minDocCount: number;
  keyed: boolean;
  order: readonly BucketOrder[];
}

function sharedFields(b: BodyContext, type: string, state: Shared): Record<string, DeclaredField> {
  const ctx = b.ctx;
  return {
    keyed: { tokens: TOKENS.BOOLEAN, read: (v) => (state.keyed = booleanValue(ctx, v)) },
    min_doc_count: {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        const n = longValue(ctx, v);
        if (n < 0) {
          throw illegalArgument(
            `[minDocCount] must be greater than or equal to 0. Found [${n}] in [${b.name}]`,
          );
        }
        state.minDocCount = n;
      },
    },
    order: { tokens: TOKENS.OBJECT_ARRAY, read: (v) => (state.order = readOrder(ctx, v, b.warnings)) },
    hard_bounds: {
      tokens: TOKENS.OBJECT,
      read: () => {
        throw notImplemented(`[hard_bounds] of the [${type}] aggregation`);
      },
    },
  };
}

export function parseHistogram(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const draft: SourceDraft = {};
  const state: Shared = { minDocCount: 0, keyed: false, order: KEY_ASC };
  let interval: number | undefined;
  let offset = 0;
  let bounds: { min?: number; max?: number } | undefined;
  const fields = {
    ...sourceFields(ctx, 'histogram', draft, { formattable: true, timeZoneAware: false }),
    ...sharedFields(b, 'histogram', state),
    interval: {
      tokens: TOKENS.NUMBER,
      read: (v: unknown) => {
        interval = doubleValue(ctx, v);
        if (!(interval > 0))
          throw illegalArgument(`[interval] must be >0 for histogram aggregation [${name}]`);
      },
    },
    offset: { tokens: TOKENS.NUMBER, read: (v: unknown) => (offset = doubleValue(ctx, v)) },
    extended_bounds: {
      tokens: TOKENS.OBJECT,
      read: (v: unknown) => (bounds = numericBounds(ctx, v as Record<string, unknown>)),
    },
  };
  const seen = readDeclared(ctx, 'histogram', body, fields);
  const source = finishSource(draft, seen);
  if (interval === undefined)
    throw illegalArgument(`[interval] must be >0 for histogram aggregation [${name}]`);
  if (bounds?.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max) {
    throw illegalArgument(
      `[extended_bounds.min][${javaDouble(bounds.min)}] cannot be greater than ` +
        `[extended_bounds.max][${javaDouble(bounds.max)}] for histogram aggregation [${name}]`,
    );
  }
  const spec: DraftOf<'histogram'> = {
    type: 'histogram',
    source,
    interval,
    // The offset only matters modulo the interval (HistogramAggregator normalises it).
    offset,
    minDocCount: state.minDocCount,
    order: state.order,
    keyed: state.keyed,
  };
  if (bounds !== undefined) spec.extendedBounds = bounds;
  return spec;
}

function numericBounds(ctx: ParseCtx, o: Record<string, unknown>): { min?: number; max?: number } {
  const out: { min?: number; max?: number } = {};
  readDeclared(ctx, 'extended_bounds', o, {
    min: { tokens: TOKENS.NUMBER, read: (v) => (out.min = finite(ctx, doubleValue(ctx, v), 'min')) },
    max: { tokens: TOKENS.NUMBER, read: (v) => (out.max = finite(ctx, doubleValue(ctx, v), 'max')) },
  });
  return out;
}

function finite(ctx: ParseCtx, v: number, which: 'min' | 'max'): number {
  if (Number.isFinite(v)) return v;
  here(ctx, 'value');
  throw illegalArgument(`${which}Bound must be finite, got: ${javaDouble(v)}`);
}

export function parseDateHistogram(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx } = b;
  const draft: SourceDraft = {};
  const state: Shared = { minDocCount: 0, keyed: false, order: KEY_ASC };
  const intervals = new DateIntervalReader(ctx, b.warnings);
  let offsetMillis = 0;
  let bounds: { min?: number | string; max?: number | string } | undefined;
  const fields = {
    ...sourceFields(ctx, 'date_histogram', draft, { formattable: true, timeZoneAware: true }),
    ...sharedFields(b, 'date_histogram', state),
    ...intervals.fields(),
    offset: { tokens: TOKENS.NUMBER, read: (v: unknown) => (offsetMillis = readOffset(ctx, v)) },
    extended_bounds: {
      tokens: TOKENS.OBJECT,
      read: (v: unknown) => (bounds = dateBounds(ctx, v)),
    },
  };
  const seen = readDeclared(ctx, 'date_histogram', body, fields);
  const source = finishSource(draft, seen);
  const interval = intervals.interval();
  const rounding =
    source.timeZone === undefined
      ? { interval, offsetMillis }
      : { interval, offsetMillis, timeZone: source.timeZone };
  const spec: DraftOf<'date_histogram'> = {
    type: 'date_histogram',
    source,
    rounding,
    minDocCount: state.minDocCount,
    order: state.order,
    keyed: state.keyed,
  };
  if (bounds !== undefined) spec.extendedBounds = bounds;
  return spec;
}

/** LongBounds: `min` / `max` as epoch millis or date (math) text, resolved on the shard. */
function dateBounds(ctx: ParseCtx, v: unknown): { min?: number | string; max?: number | string } {
  const out: { min?: number | string; max?: number | string } = {};
  if (!isObject(v)) return out;
  const bound = (x: unknown): number | string => (typeof x === 'string' ? text(ctx, x) : longValue(ctx, x));
  readDeclared(ctx, 'extended_bounds', v, {
    min: { tokens: TOKENS.NUMBER, read: (x) => (out.min = bound(x)) },
    max: { tokens: TOKENS.NUMBER, read: (x) => (out.max = bound(x)) },
  });
  return out;
}
