/**
 * Pipeline aggregation bodies (BucketMetricsParser and each PipelineAggregationBuilder's
 * parser): `buckets_path` (one path; for bucket_script and bucket_selector also a map of
 * script variables to paths, or a list), `gap_policy`, `format` and each type's own fields.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { parsingError } from '../../query/local-errors.ts';
import { here, isObject } from '../../query/parse-context.ts';
import { booleanValue, doubleValue, intValue, text } from '../../query/xcontent-values.ts';
import { parseScriptSpec } from '../../script/script-spec.ts';
import { parseTimeValue } from '../../values/time-value.ts';
import type { BodyContext, Mutable, SpecDraft } from './body-context.ts';
import { type DeclaredField, readDeclared, TOKENS } from './object-parser.ts';
import { checkPercents, DEFAULT_PERCENTS, doubleList } from './parse-percentiles.ts';
import type { GapPolicy, PipelineSpec, PipelineType } from './spec.ts';

type Draft = Mutable<Omit<PipelineSpec, 'name' | 'meta'>>;

const GAP_POLICIES: Record<string, GapPolicy> = {
  skip: 'skip',
  insert_zeros: 'insert_zeros',
  keep_values: 'keep_values',
};

const NORMALIZE_METHODS = new Set([
  'rescale_0_1',
  'rescale_0_100',
  'percent_of_sum',
  'mean',
  'z-score',
  'softmax',
]);

/** DateHistogramAggregationBuilder.DATE_FIELD_UNITS: a unit's base duration in millis. */
const UNIT_MILLIS: Record<string, number> = {
  year: 31556952000,
  '1y': 31556952000,
  quarter: 7889238000,
  '1q': 7889238000,
  month: 2629746000,
  '1M': 2629746000,
  week: 604800000,
  '1w': 604800000,
  day: 86400000,
  '1d': 86400000,
  hour: 3600000,
  '1h': 3600000,
  minute: 60000,
  '1m': 60000,
  second: 1000,
  '1s': 1000,
};

/** The types whose `buckets_path` may name several variables. */
const MULTI_PATH: ReadonlySet<PipelineType> = new Set(['bucket_script', 'bucket_selector']);

export function parsePipeline(type: PipelineType) {
  return (b: BodyContext, body: Record<string, unknown>): SpecDraft => {
    const { ctx } = b;
    const d: Draft = { type, bucketsPath: '', gapPolicy: defaultGap(type) };
    const fields: Record<string, DeclaredField> = {
      buckets_path: {
        tokens: MULTI_PATH.has(type) ? TOKENS.OBJECT_ARRAY_OR_STRING : TOKENS.STRING_ARRAY,
        read: (v) => (d.bucketsPath = bucketsPath(b, type, v)),
      },
    };
    if (type !== 'cumulative_sum' && type !== 'cumulative_cardinality' && type !== 'normalize') {
      fields.gap_policy = {
        tokens: TOKENS.STRING,
        read: (v) => {
          const g = GAP_POLICIES[text(ctx, v)];
          if (g === undefined) {
            throw illegalArgument(
              `No GapPolicy found for name [${text(ctx, v)}], must be one of [skip, insert_zeros, keep_values]`,
            );
          }
          d.gapPolicy = g;
        },
      };
    }
    if (type !== 'bucket_selector' && type !== 'bucket_sort') {
      fields.format = { tokens: TOKENS.STRING, read: (v) => (d.format = text(ctx, v)) };
    }
    switch (type) {
      case 'extended_stats_bucket':
        fields.sigma = {
          tokens: TOKENS.NUMBER,
          read: (v) => {
            const s = doubleValue(ctx, v);
            if (s < 0)
              throw illegalArgument(
                `[sigma] must be greater than or equal to 0. Found [${s}] in [${b.name}]`,
              );
            d.sigma = s;
          },
        };
        break;
      case 'percentiles_bucket':
        fields.percents = {
          tokens: TOKENS.ARRAY,
          read: (v) => {
            const ps = doubleList(b, 'percents', v);
            checkPercents(b, ps);
            d.percents = ps;
          },
        };
        fields.keyed = { tokens: TOKENS.BOOLEAN, read: (v) => (d.keyed = booleanValue(ctx, v)) };
        break;
      case 'derivative':
        fields.unit = {
          tokens: TOKENS.STRING,
          read: (v) => {
            const u = text(ctx, v);
            d.unitMillis = UNIT_MILLIS[u] ?? parseTimeValue(u, 'unit');
          },
        };
        break;
      case 'moving_fn':
        fields.window = { tokens: TOKENS.NUMBER, read: (v) => (d.window = intValue(ctx, v)) };
        fields.shift = { tokens: TOKENS.NUMBER, read: (v) => (d.shift = intValue(ctx, v)) };
        fields.script = {
          tokens: TOKENS.OBJECT_OR_STRING,
          read: (v) => (d.script = parseScriptSpec(ctx, v)),
        };
        break;
      case 'serial_diff':
        fields.lag = {
          tokens: TOKENS.NUMBER,
          read: (v) => {
            const lag = intValue(ctx, v);
            if (lag <= 0)
              throw illegalArgument(`Lag must be a positive, non-zero integer.  Value supplied was${lag}`);
            d.lag = lag;
          },
        };
        break;
      case 'bucket_script':
      case 'bucket_selector':
        fields.script = {
          tokens: TOKENS.OBJECT_OR_STRING,
          read: (v) => (d.script = parseScriptSpec(ctx, v)),
        };
        break;
      case 'bucket_sort':
        delete fields.buckets_path;
        fields.sort = { tokens: TOKENS.OBJECT_ARRAY_OR_STRING, read: (v) => (d.sort = sortList(b, v)) };
        fields.from = {
          tokens: TOKENS.NUMBER,
          read: (v) => {
            const from = intValue(ctx, v);
            if (from < 0) throw illegalArgument(`[from] must be a non-negative integer: [${from}]`);
            d.from = from;
          },
        };
        fields.size = {
          tokens: TOKENS.NUMBER,
          read: (v) => {
            const size = intValue(ctx, v);
            if (size < 1) throw illegalArgument(`[size] must be a positive integer: [${size}]`);
            d.size = size;
          },
        };
        break;
      case 'normalize':
        fields.method = {
          tokens: TOKENS.STRING,
          read: (v) => {
            const m = text(ctx, v);
            if (!NORMALIZE_METHODS.has(m)) throw illegalArgument(`invalid method [${m}]`);
            d.method = m as Draft['method'];
          },
        };
        break;
      default:
        break;
    }
    const seen = readDeclared(ctx, type, body, fields);
    const missing = (field: string) =>
      parsingError(
        `Missing required field [${field}] for ${type} aggregation [${b.name}]`,
        here(ctx, 'value'),
      );
    if (type !== 'bucket_sort' && !seen.has('buckets_path')) throw missing('buckets_path');
    if (
      (type === 'moving_fn' || type === 'bucket_script' || type === 'bucket_selector') &&
      !seen.has('script')
    ) {
      throw missing('script');
    }
    if (type === 'moving_fn') {
      if (!seen.has('window')) throw missing('window');
      if (d.window! <= 0) throw illegalArgument('[window] must be a positive, non-zero integer.');
    }
    if (type === 'normalize' && !seen.has('method')) throw missing('method');
    if (type === 'percentiles_bucket') {
      d.percents ??= DEFAULT_PERCENTS;
      d.keyed ??= true;
    }
    if (type === 'extended_stats_bucket') d.sigma ??= 2;
    if (type === 'serial_diff') d.lag ??= 1;
    if (type === 'moving_fn') d.shift ??= 0;
    if (type === 'bucket_sort') {
      d.sort ??= [];
      d.from ??= 0;
      d.bucketsPath = {};
    }
    return d as SpecDraft;
  };
}

function defaultGap(type: PipelineType): GapPolicy {
  return type === 'cumulative_sum' ? 'insert_zeros' : 'skip';
}

function bucketsPath(b: BodyContext, type: PipelineType, v: unknown): string | Record<string, string> {
  if (typeof v === 'string') return MULTI_PATH.has(type) ? { _value: v } : v;
  if (Array.isArray(v)) {
    const paths = v.map((p, i) => text(b.ctx, p, i));
    if (!MULTI_PATH.has(type)) {
      if (paths.length !== 1) {
        throw illegalArgument(`[buckets_path] must contain a single entry for aggregation [${b.name}]`);
      }
      return paths[0]!;
    }
    return Object.fromEntries(paths.map((p, i) => [`_value${i}`, p]));
  }
  const map = v as Record<string, unknown>;
  return Object.fromEntries(Object.entries(map).map(([k, p]) => [k, text(b.ctx, p, k)]));
}

/** bucket_sort's `sort`: field names, or `{field: {order}}` / `{field: "desc"}`, ascending by default. */
function sortList(b: BodyContext, v: unknown): { path: string; asc: boolean }[] {
  const items = Array.isArray(v) ? v : [v];
  return items.map((item) => {
    if (typeof item === 'string') return { path: item, asc: true };
    if (!isObject(item) || Object.keys(item).length !== 1) {
      throw illegalArgument(`[bucket_sort] failed to parse field [sort] in [${b.name}]`);
    }
    const [path, spec] = Object.entries(item)[0]!;
    const order = typeof spec === 'string' ? spec : isObject(spec) ? spec.order : undefined;
    if (order !== undefined && order !== 'asc' && order !== 'desc') {
      throw illegalArgument(`Unknown SortOrder [${String(order)}]`);
    }
    return { path, asc: order !== 'desc' };
  });
}
