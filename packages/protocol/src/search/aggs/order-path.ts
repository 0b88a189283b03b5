/**
 * Bucket orders on a sub-aggregation (AggregationPath): `price`, `stats.avg`, `stats[avg]`,
 * `in_stock>price`. Zero or more single-bucket aggregations (filter, missing, global) lead to a
 * metric or a single-bucket aggregation (its doc count). Shards check the paths before they
 * collect, as Elasticsearch's aggregators do; the reduce reads the values from the partials.
 */
import { cardinalityOf } from './cardinality-sketch.ts';
import { digestMetricValue } from './more-metrics.ts';
import { aggregationExecution } from './object-parser.ts';
import type { AggPartial, StatsPartial } from './partial.ts';
import type { AggSpec, BucketOrder } from './spec.ts';

interface PathElement {
  readonly text: string;
  readonly name: string;
  readonly key?: string;
}

const STATS_METRICS = new Set(['count', 'sum', 'min', 'max', 'avg']);
const EXTENDED_METRICS = new Set([
  ...STATS_METRICS,
  'sum_of_squares',
  'variance',
  'variance_population',
  'variance_sampling',
  'std_deviation',
  'std_deviation_population',
  'std_deviation_sampling',
  'std_upper',
  'std_lower',
]);

const BOXPLOT_METRICS = new Set(['min', 'max', 'q1', 'q2', 'q3', 'lower', 'upper']);

const cache = new Map<string, PathElement[]>();

/** AggregationPath.parse: `>` separates elements; the last may carry a key (`a.b` or `a[b]`). */
export function parsePath(path: string): PathElement[] {
  let elements = cache.get(path);
  if (elements) return elements;
  const parts = path.split('>').filter((p) => p.length > 0);
  elements = parts.map((text, i) => {
    const bracket = text.lastIndexOf('[');
    if (bracket >= 0) {
      if (bracket === 0 || bracket > text.length - 3 || !text.endsWith(']')) {
        throw aggregationExecution(`Invalid path element [${text}] in path [${path}]`);
      }
      return { text, name: text.slice(0, bracket), key: text.slice(bracket + 1, -1) };
    }
    if (i < parts.length - 1) return { text, name: text };
    const dot = text.lastIndexOf('.');
    if (dot < 0) return { text, name: text };
    if (dot === 0 || dot > text.length - 2) {
      throw aggregationExecution(`Invalid path element [${text}] in path [${path}]`);
    }
    return { text, name: text.slice(0, dot), key: text.slice(dot + 1) };
  });
  if (cache.size > 1000) cache.clear();
  cache.set(path, elements);
  return elements;
}

const NOT_SINGLE_BUCKET =
  'Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket ' +
  'aggregations within the path and a final single-bucket or a metrics aggregation at the path end.';

function isSingleBucket(spec: AggSpec): boolean {
  return (
    spec.type === 'filter' ||
    spec.type === 'missing' ||
    spec.type === 'global' ||
    spec.type === 'sampler' ||
    spec.type === 'diversified_sampler'
  );
}

/** Checks every path order of a bucket aggregation against its sub-aggregations. */
export function checkOrderPaths(orders: readonly BucketOrder[], subs: readonly AggSpec[]): void {
  for (const o of orders) {
    if (o.kind !== 'path') continue;
    const invalid = (msg: string) =>
      aggregationExecution(`Invalid aggregation order path [${o.path}]. ${msg}`);
    const elements = parsePath(o.path);
    let level = subs;
    elements.forEach((el, i) => {
      const spec = level.find((s) => s.name === el.name);
      if (!spec) {
        throw invalid(
          `The provided aggregation [${el.text}] either does not exist, or is a pipeline aggregation and cannot be used to sort the buckets.`,
        );
      }
      const last = i === elements.length - 1;
      if (!last) {
        if (el.key !== undefined) {
          throw invalid(`Key only allowed on last aggregation path element but got [${el.text}]`);
        }
        if (!isSingleBucket(spec)) throw invalid(`${NOT_SINGLE_BUCKET} [${spec.name}] is not single-bucket.`);
        level = 'aggs' in spec ? spec.aggs : [];
        return;
      }
      checkLast(spec, el.key, invalid);
    });
  }
}

function checkLast(spec: AggSpec, key: string | undefined, invalid: (msg: string) => Error): void {
  if (isSingleBucket(spec)) {
    if (key !== undefined && key !== 'doc_count' && key !== '_count') {
      throw invalid(
        `Ordering on a single-bucket aggregation can only be done on its doc_count. Either drop the key (a la "${spec.name}") or change it to "doc_count" (a la "${spec.name}.doc_count") or "key".`,
      );
    }
    return;
  }
  switch (spec.type) {
    case 'stats':
    case 'extended_stats': {
      if (key === undefined) {
        throw invalid('When ordering on a multi-value metrics aggregation a metric name must be specified.');
      }
      const names = spec.type === 'stats' ? STATS_METRICS : EXTENDED_METRICS;
      if (!names.has(key)) {
        throw invalid(`Unknown metric name [${key}] on multi-value metrics aggregation [${spec.name}]`);
      }
      return;
    }
    case 'percentiles':
    case 'percentile_ranks':
      if (key === undefined) {
        throw invalid('When ordering on a multi-value metrics aggregation a metric name must be specified.');
      }
      if (Number.isNaN(Number(key))) {
        throw invalid(`Unknown metric name [${key}] on multi-value metrics aggregation [${spec.name}]`);
      }
      return;
    case 'boxplot':
      if (key === undefined || !BOXPLOT_METRICS.has(key)) {
        throw invalid(
          key === undefined
            ? 'When ordering on a multi-value metrics aggregation a metric name must be specified.'
            : `Unknown metric name [${key}] on multi-value metrics aggregation [${spec.name}]`,
        );
      }
      return;
    case 'avg':
    case 'sum':
    case 'min':
    case 'max':
    case 'value_count':
    case 'cardinality':
    case 'weighted_avg':
    case 'median_absolute_deviation':
      if (key !== undefined && key !== 'value') {
        throw invalid(
          `Ordering on a single-value metrics aggregation can only be done on its value. Either drop the key (a la "${spec.name}") or change it to "value" (a la "${spec.name}.value")`,
        );
      }
      return;
    default:
      throw invalid(`${NOT_SINGLE_BUCKET} [${spec.name}] is not single-bucket.`);
  }
}

/** The value a (checked) path points to, for one bucket's sub-aggregation partials. */
export function pathValue(path: string, subs: readonly AggSpec[], partials: readonly AggPartial[]): number {
  const elements = parsePath(path);
  let specs = subs;
  let parts = partials;
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i]!;
    const at = specs.findIndex((s) => s.name === el.name);
    const spec = specs[at]!;
    const part = parts[at]!;
    if (i < elements.length - 1) {
      specs = 'aggs' in spec ? spec.aggs : [];
      parts = part.t === 'single' ? part.aggs : [];
      continue;
    }
    return metricValue(spec, part, el.key);
  }
  return Number.NaN;
}

function metricValue(spec: AggSpec, p: AggPartial, key: string | undefined): number {
  switch (p.t) {
    case 'single':
      return p.docCount;
    case 'avg':
      return p.sum / p.count;
    case 'sum':
      return p.sum;
    case 'min':
    case 'max':
      return p.value;
    case 'value_count':
      return p.count;
    case 'cardinality':
      return cardinalityOf(p);
    case 'stats':
    case 'extended_stats':
      return statsValue(p, key ?? 'count', spec.type === 'extended_stats' ? spec.sigma : 2);
    case 'weighted_avg':
      return p.weight === 0 ? Number.NaN : p.sum / p.weight;
    case 'tdigest':
    case 'hdr':
      return digestMetricValue(spec, p, key);
    default:
      return Number.NaN;
  }
}

/** A named statistic of a stats partial (InternalStats.value / InternalExtendedStats.value). */
export function statsValue(p: StatsPartial, name: string, sigma: number): number {
  const { count, sum, min, max, sumOfSquares } = p;
  const avg = sum / count;
  const varPop = Math.max(0, (sumOfSquares - (sum * sum) / count) / count);
  const varSample = Math.max(0, (sumOfSquares - (sum * sum) / count) / (count - 1));
  switch (name) {
    case 'count':
      return count;
    case 'sum':
      return sum;
    case 'min':
      return min;
    case 'max':
      return max;
    case 'avg':
      return avg;
    case 'sum_of_squares':
      return sumOfSquares;
    case 'variance':
    case 'variance_population':
      return varPop;
    case 'variance_sampling':
      return varSample;
    case 'std_deviation':
    case 'std_deviation_population':
      return Math.sqrt(varPop);
    case 'std_deviation_sampling':
      return Math.sqrt(varSample);
    case 'std_upper':
      return avg + Math.sqrt(varPop) * sigma;
    case 'std_lower':
      return avg - Math.sqrt(varPop) * sigma;
    default:
      return Number.NaN;
  }
}
