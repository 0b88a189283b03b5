/**
 * The checks Elasticsearch makes of pipeline aggregations before a search runs
 * (PipelineAggregationBuilder.validate through AggregatorFactories.validate): a sibling
 * pipeline's first path element must name a multi-bucket sibling, a parent pipeline must sit
 * in the bucket aggregation its type needs, and every path element must name an aggregation.
 * Failures are collected into one action_request_validation_exception (400).
 */
import { actionRequestValidation } from '../../errors/catalogue.ts';
import { parsePath } from './order-path.ts';
import type { AggSpec, PipelineSpec, PipelineType } from './spec.ts';
import { isPipelineSpec } from './spec.ts';

const SIBLING: ReadonlySet<PipelineType> = new Set([
  'avg_bucket',
  'max_bucket',
  'min_bucket',
  'sum_bucket',
  'stats_bucket',
  'extended_stats_bucket',
  'percentiles_bucket',
]);

/** Parent pipelines that need a histogram parent (validateParentAggSequentiallyOrdered). */
const SEQUENTIAL: ReadonlySet<PipelineType> = new Set([
  'cumulative_sum',
  'derivative',
  'moving_fn',
  'serial_diff',
  'cumulative_cardinality',
  'normalize',
]);

export const MULTI_BUCKET: ReadonlySet<string> = new Set([
  'terms',
  'multi_terms',
  'rare_terms',
  'histogram',
  'date_histogram',
  'range',
  'date_range',
  'filters',
  'composite',
  'geo_distance',
  'geohash_grid',
  'geotile_grid',
  'ip_range',
  'ip_prefix',
  'adjacency_matrix',
  'auto_date_histogram',
  'variable_width_histogram',
  'significant_terms',
  'significant_text',
]);

const SINGLE_BUCKET_CLASSES: Record<string, string> = {
  filter: 'org.elasticsearch.search.aggregations.bucket.filter.FilterAggregationBuilder',
  missing: 'org.elasticsearch.search.aggregations.bucket.missing.MissingAggregationBuilder',
  global: 'org.elasticsearch.search.aggregations.bucket.global.GlobalAggregationBuilder',
};

/** The builder class Elasticsearch names in the multi-bucket error. */
function builderClass(type: string): string {
  const known = SINGLE_BUCKET_CLASSES[type];
  if (known) return known;
  const camel = type
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
  return `org.elasticsearch.search.aggregations.metrics.${camel}AggregationBuilder`;
}

export function isSiblingPipeline(spec: PipelineSpec): boolean {
  return SIBLING.has(spec.type);
}

export function validatePipelines(aggs: readonly AggSpec[]): void {
  const errors: string[] = [];
  walk(aggs, undefined, errors);
  if (errors.length > 0) throw actionRequestValidation(errors);
}

function walk(level: readonly AggSpec[], parent: AggSpec | undefined, errors: string[]): void {
  for (const spec of level) {
    if (isPipelineSpec(spec)) check(spec, level, parent, errors);
    else if ('aggs' in spec) walk(spec.aggs, spec, errors);
  }
}

function paths(spec: PipelineSpec): string[] {
  return typeof spec.bucketsPath === 'string' ? [spec.bucketsPath] : Object.values(spec.bucketsPath);
}

function check(
  spec: PipelineSpec,
  siblings: readonly AggSpec[],
  parent: AggSpec | undefined,
  errors: string[],
): void {
  if (SIBLING.has(spec.type)) {
    const path = spec.bucketsPath as string;
    const first = path.split(/[>.]/)[0]!;
    const sib = siblings.find((s) => s.name === first);
    if (!sib) {
      errors.push(`buckets_path aggregation does not exist for aggregation [${spec.name}]: ${path}`);
      return;
    }
    if (!MULTI_BUCKET.has(sib.type)) {
      errors.push(
        `The first aggregation in buckets_path must be a multi-bucket aggregation for aggregation [${spec.name}] ` +
          `found :${builderClass(sib.type)} for buckets path: ${path}`,
      );
      return;
    }
    checkPath(path, siblings, errors);
    return;
  }
  if (SEQUENTIAL.has(spec.type)) {
    const needs = `${spec.type} aggregation [${spec.name}] must have a histogram, date_histogram or auto_date_histogram as parent`;
    if (parent === undefined) {
      errors.push(`${needs} but doesn't have a parent`);
      return;
    }
    if (
      parent.type !== 'histogram' &&
      parent.type !== 'date_histogram' &&
      parent.type !== 'auto_date_histogram'
    ) {
      errors.push(needs);
      return;
    }
  } else if (parent === undefined) {
    errors.push(`${spec.type} aggregation [${spec.name}] must be declared inside of another aggregation`);
    return;
  }
  const subs = (parent as { aggs: readonly AggSpec[] }).aggs;
  for (const p of paths(spec)) checkPath(p, subs, errors);
  for (const s of spec.sort ?? []) checkPath(s.path, subs, errors);
}

/** Every element of a path (but `_count`, `_key`, `_bucket_count`) names an aggregation where it points. */
function checkPath(path: string, level: readonly AggSpec[], errors: string[]): void {
  let elements: ReturnType<typeof parsePath>;
  try {
    elements = parsePath(path);
  } catch (e) {
    errors.push((e as Error).message);
    return;
  }
  let current = level;
  for (const el of elements) {
    if (el.name === '_count' || el.name === '_key') return;
    const spec = current.find((s) => s.name === el.name);
    if (!spec) {
      errors.push(`No aggregation [${el.name}] found for path [${path}]`);
      return;
    }
    if (!('aggs' in spec)) return;
    current = spec.aggs;
  }
}
