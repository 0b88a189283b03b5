/**
 * Parent pipeline aggregations: run over the buckets of the histogram (or other multi-bucket
 * aggregation) they sit in, once it is reduced, each adding its value to the buckets or
 * changing the bucket list — cumulative_sum, derivative (with `unit`: normalized_value),
 * moving_fn, serial_diff, bucket_script, bucket_selector, bucket_sort,
 * cumulative_cardinality and normalize, as their Elasticsearch PipelineAggregators compute them.
 */
import { notImplemented } from '../../errors/catalogue.ts';
import { ShoalError } from '../../errors/shoal-error.ts';
import type { ScriptSpec } from '../../script/script-spec.ts';
import { cardinalityOf, mergeCardinality } from './cardinality-sketch.ts';
import { aggregationExecution } from './object-parser.ts';
import type { AggPartial, CardinalityPartial, ValueFormat } from './partial.ts';
import {
  bucketsOf,
  bucketValue,
  type Json,
  numberOf,
  type RenderedBucket,
  rawValue,
  setBuckets,
} from './pipeline-values.ts';
import type { Renderer } from './render.ts';
import { pipelineFormat } from './sibling-pipelines.ts';
import type { AggSpec, CardinalitySpec, PipelineSpec } from './spec.ts';
import { valueText } from './value-text.ts';

/** Runs the scripts of moving_fn, bucket_script and bucket_selector (the engine's Painless). */
export interface PipelineScripts {
  /**
   * `params` holds the script's params and the path variables (`doubles` names those, Java
   * doubles whole or not); `values` is moving_fn's window.
   */
  run(
    script: ScriptSpec,
    params: Record<string, unknown>,
    values?: readonly number[],
    doubles?: ReadonlySet<string>,
  ): unknown;
}

/** Where a rendered bucket keeps its sub-aggregations' partials (for cumulative_cardinality). */
export const BUCKET_PARTIALS: unique symbol = Symbol('bucket partials');

export interface BucketPartials {
  readonly specs: readonly AggSpec[];
  readonly partials: readonly AggPartial[];
}

/** The typed_keys name of a pipeline's output. */
export function pipelineTypeName(spec: PipelineSpec): string {
  switch (spec.type) {
    case 'max_bucket':
    case 'min_bucket':
      return 'bucket_metric_value';
    case 'stats_bucket':
    case 'extended_stats_bucket':
    case 'percentiles_bucket':
    case 'derivative':
      return spec.type;
    case 'cumulative_cardinality':
      return 'simple_long_value';
    default:
      return 'simple_value';
  }
}

function simpleValue(r: Renderer, v: number, fmt: ValueFormat): Json {
  const out: Json = {};
  const has = Number.isFinite(v);
  out.value = has ? r.double(v) : null;
  if (has) {
    const text = valueText(v, fmt, r.dates);
    if (text !== undefined) out.value_as_string = text;
  }
  return out;
}

/** Applies the parent pipelines among `subs` to the rendered aggregation `agg`, in request order. */
export function applyParentPipelines(r: Renderer, subs: readonly PipelineSpec[], agg: Json): void {
  for (const spec of subs) {
    const buckets = bucketsOf(agg);
    if (buckets === null) return;
    const name = r.typedKeys ? `${pipelineTypeName(spec)}#${spec.name}` : spec.name;
    const next = applyOne(r, spec, buckets, name);
    if (next !== buckets) setBuckets(agg, next);
  }
}

function applyOne(
  r: Renderer,
  spec: PipelineSpec,
  buckets: RenderedBucket[],
  name: string,
): RenderedBucket[] {
  const fmt = pipelineFormat(spec);
  const path = typeof spec.bucketsPath === 'string' ? spec.bucketsPath : '';
  switch (spec.type) {
    case 'cumulative_sum': {
      let sum = 0;
      for (const b of buckets) {
        const v = bucketValue(b.obj, path, 'insert_zeros');
        if (Number.isFinite(v)) sum += v;
        b.obj[name] = simpleValue(r, sum, fmt);
      }
      return buckets;
    }
    case 'derivative': {
      let last: number | null = null;
      let lastKey = 0;
      for (const b of buckets) {
        const v = bucketValue(b.obj, path, spec.gapPolicy);
        const key = numberOf(b.obj.key) ?? 0;
        if (last !== null) {
          const gradient = v - last;
          const o = simpleValue(r, gradient, fmt);
          if (spec.unitMillis !== undefined) {
            const xDiff = (key - lastKey) / spec.unitMillis;
            const normalized = gradient / xDiff;
            const has = Number.isFinite(normalized);
            o.normalized_value = has ? r.double(normalized) : null;
            const text = has ? valueText(normalized, fmt, r.dates) : undefined;
            if (text !== undefined) o.normalized_value_as_string = text;
          }
          b.obj[name] = o;
        }
        last = v;
        lastKey = key;
      }
      return buckets;
    }
    case 'serial_diff': {
      const lag = spec.lag ?? 1;
      const window: number[] = [];
      for (const b of buckets) {
        const v = bucketValue(b.obj, path, spec.gapPolicy);
        const lagged = window.length >= lag ? window[window.length - lag]! : Number.NaN;
        if (!Number.isNaN(v) && !Number.isNaN(lagged)) b.obj[name] = simpleValue(r, v - lagged, fmt);
        window.push(v);
      }
      return buckets;
    }
    case 'moving_fn': {
      const scripts = r.scripts;
      if (!scripts) throw notImplemented('scripts in the [moving_fn] aggregation');
      const all = buckets.map((b) => bucketValue(b.obj, path, spec.gapPolicy));
      const values = all.filter((v) => !Number.isNaN(v));
      const window = spec.window!;
      const shift = spec.shift ?? 0;
      const clamp = (i: number) => Math.max(0, Math.min(i, values.length));
      let index = 0;
      buckets.forEach((b, i) => {
        if (Number.isNaN(all[i]!)) return;
        const slice = values.slice(clamp(index - window + shift), clamp(index + shift));
        const result = scripts.run(spec.script!, { ...spec.script!.params }, slice);
        b.obj[name] = simpleValue(r, numericResult(spec, result), fmt);
        index++;
      });
      return buckets;
    }
    case 'bucket_script':
    case 'bucket_selector': {
      const scripts = r.scripts;
      if (!scripts) throw notImplemented(`scripts in the [${spec.type}] aggregation`);
      const vars = spec.bucketsPath as Record<string, string>;
      const kept: RenderedBucket[] = [];
      for (const b of buckets) {
        const params: Record<string, unknown> = { ...spec.script!.params };
        let skip = false;
        for (const [v, p] of Object.entries(vars)) {
          const x = bucketValue(b.obj, p, spec.gapPolicy);
          if (spec.gapPolicy === 'skip' && Number.isNaN(x)) skip = true;
          params[v] = x;
        }
        if (skip) {
          kept.push(b);
          continue;
        }
        const result = scripts.run(spec.script!, params, undefined, new Set(Object.keys(vars)));
        if (spec.type === 'bucket_selector') {
          if (typeof result !== 'boolean') {
            throw new ShoalError(
              'illegal_argument_exception',
              `bucket_selector aggregation [${spec.name}] must return a boolean`,
              400,
            );
          }
          if (result) kept.push(b);
          continue;
        }
        if (result !== null && result !== undefined)
          b.obj[name] = simpleValue(r, numericResult(spec, result), fmt);
        kept.push(b);
      }
      return spec.type === 'bucket_selector' ? kept : buckets;
    }
    case 'bucket_sort':
      return bucketSort(spec, buckets);
    case 'cumulative_cardinality':
      return cumulativeCardinality(r, spec, buckets, name);
    case 'normalize':
      return normalize(r, spec, buckets, name, fmt);
    default:
      return buckets;
  }
}

function numericResult(spec: PipelineSpec, result: unknown): number {
  if (typeof result === 'number') return result;
  if (typeof result === 'bigint') return Number(result);
  if (result === null || result === undefined) return Number.NaN;
  throw new ShoalError(
    'illegal_argument_exception',
    `${spec.type} aggregation [${spec.name}] must return a Number`,
    400,
  );
}

/** BucketSortPipelineAggregator: buckets with a skipped sort value are dropped, the rest sorted and paged. */
function bucketSort(spec: PipelineSpec, buckets: RenderedBucket[]): RenderedBucket[] {
  const sorts = spec.sort ?? [];
  let list = buckets;
  if (sorts.length > 0) {
    const keyed = list
      .map((b) => ({
        b,
        values: sorts.map((s) => {
          if (s.path === '_key') return sortKey(b);
          return bucketValue(b.obj, s.path, spec.gapPolicy);
        }),
      }))
      .filter(
        (e) => spec.gapPolicy !== 'skip' || e.values.every((v) => typeof v === 'string' || !Number.isNaN(v)),
      );
    keyed.sort((x, y) => {
      for (let i = 0; i < sorts.length; i++) {
        const a = x.values[i]!;
        const c = y.values[i]!;
        const cmp = a < c ? -1 : a > c ? 1 : 0;
        if (cmp !== 0) return sorts[i]!.asc ? cmp : -cmp;
      }
      return 0;
    });
    list = keyed.map((e) => e.b);
  }
  const from = spec.from ?? 0;
  return list.slice(from, spec.size === undefined ? undefined : from + spec.size);
}

function sortKey(b: RenderedBucket): number | string {
  const n = numberOf(b.obj.key);
  return n ?? b.keyText;
}

/** The union of the buckets' cardinality sketches so far (CumulativeCardinalityPipelineAggregator). */
function cumulativeCardinality(
  r: Renderer,
  spec: PipelineSpec,
  buckets: RenderedBucket[],
  name: string,
): RenderedBucket[] {
  const path = spec.bucketsPath as string;
  let acc: CardinalityPartial | undefined;
  let cardSpec: CardinalitySpec | undefined;
  for (const b of buckets) {
    const held = (b.obj as { [BUCKET_PARTIALS]?: BucketPartials })[BUCKET_PARTIALS];
    const i = held ? held.specs.findIndex((s) => s.name === path) : -1;
    const s = i >= 0 ? held!.specs[i]! : undefined;
    if (s?.type !== 'cardinality') {
      throw aggregationExecution(
        `buckets_path must reference a cardinality aggregation, got: [${s?.type ?? path}] at aggregation [${path}]`,
      );
    }
    cardSpec = s;
    const part = held!.partials[i] as CardinalityPartial;
    acc = acc ? mergeCardinality([acc, part], cardSpec.precisionThreshold) : part;
    const o: Json = { value: cardinalityOf(acc) };
    b.obj[name] = o;
  }
  void r;
  return buckets;
}

/** NormalizePipelineAggregator's methods over the buckets' values (gaps stay null). */
function normalize(
  r: Renderer,
  spec: PipelineSpec,
  buckets: RenderedBucket[],
  name: string,
  fmt: ValueFormat,
) {
  const path = spec.bucketsPath as string;
  const values = buckets.map((b) => {
    const { value } = rawValue(b.obj, path);
    return value === null ? Number.NaN : value;
  });
  const present = values.filter((v) => !Number.isNaN(v));
  const min = Math.min(...present);
  const max = Math.max(...present);
  const sum = present.reduce((s, v) => s + v, 0);
  const mean = sum / present.length;
  const sd = Math.sqrt(present.reduce((s, v) => s + (v - mean) ** 2, 0) / present.length);
  const expSum = present.reduce((s, v) => s + Math.exp(v), 0);
  const apply = (v: number): number => {
    switch (spec.method) {
      case 'rescale_0_1':
        return (v - min) / (max - min);
      case 'rescale_0_100':
        return (100 * (v - min)) / (max - min);
      case 'percent_of_sum':
        return v / sum;
      case 'mean':
        return (v - mean) / (max - min);
      case 'z-score':
        return (v - mean) / sd;
      case 'softmax':
        return Math.exp(v) / expSum;
      default:
        return v;
    }
  };
  buckets.forEach((b, i) => {
    const v = values[i]!;
    b.obj[name] = simpleValue(r, Number.isNaN(v) ? Number.NaN : apply(v), fmt);
  });
  return buckets;
}
