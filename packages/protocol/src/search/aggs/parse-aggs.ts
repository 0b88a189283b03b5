/**
 * The `aggs` / `aggregations` object of a search (AggregatorFactories.parseAggregators): each
 * key names an aggregation whose object holds exactly one type (`terms`, `avg`, …), optionally
 * `meta` and sub-aggregations under `aggs` / `aggregations`. Errors carry Elasticsearch's types,
 * reasons and positions; an aggregation type Elasticsearch has and Shoal does not answers 501.
 */
import { illegalArgument, notImplemented } from '../../errors/catalogue.ts';
import type { PathSeg } from '../../query/json-location.ts';
import { namedObjectNotFound, parsingError } from '../../query/local-errors.ts';
import { here, isObject, newCtx, type ParseCtx, tokenOf } from '../../query/parse-context.ts';
import { suggest } from '../../query/suggest.ts';
import { parseAdjacencyMatrix } from './adjacency-matrix.ts';
import { parseAutoDateHistogram } from './auto-date-histogram.ts';
import type { BodyContext, BodyParser, SpecDraft } from './body-context.ts';
import { aggregationExecution, aggregationInitialization } from './object-parser.ts';
import { parseComposite } from './parse-composite.ts';
import { parseGeoBounds, parseGeoCentroid, parseGeoDistance } from './parse-geo.ts';
import { parseGeohashGrid, parseGeotileGrid } from './parse-geo-grid.ts';
import { parseDateHistogram, parseHistogram } from './parse-histograms.ts';
import { parseIpPrefix, parseIpRange } from './parse-ip-aggs.ts';
import { parseCardinality, parseExtendedStats, parseSimpleMetric } from './parse-metrics.ts';
import { parseStringStats, parseWeightedAvg } from './parse-more-metrics.ts';
import { parseMultiTerms } from './parse-multi-terms.ts';
import { parseDigestMetric, parsePercentiles } from './parse-percentiles.ts';
import { parsePipeline } from './parse-pipelines.ts';
import { parseRange } from './parse-ranges.ts';
import { parseRareTerms } from './parse-rare-terms.ts';
import { parseDiversifiedSampler, parseSampler } from './parse-samplers.ts';
import { parseSignificantTerms, parseSignificantText } from './parse-significant-terms.ts';
import { parseFilter, parseFilters, parseGlobal, parseMissing } from './parse-single-buckets.ts';
import { parseTerms } from './parse-terms.ts';
import { parseTopHits, parseTopMetrics } from './parse-top-hits.ts';
import { validatePipelines } from './pipeline-validate.ts';
import type { AggregationsSpec, AggSpec, AggType, PipelineType } from './spec.ts';
import { parseVariableWidthHistogram } from './variable-width-histogram.ts';

const PIPELINE_TYPES: readonly PipelineType[] = [
  'avg_bucket',
  'max_bucket',
  'min_bucket',
  'sum_bucket',
  'stats_bucket',
  'extended_stats_bucket',
  'percentiles_bucket',
  'cumulative_sum',
  'derivative',
  'moving_fn',
  'serial_diff',
  'bucket_script',
  'bucket_selector',
  'bucket_sort',
  'cumulative_cardinality',
  'normalize',
];
const PIPELINES: ReadonlySet<string> = new Set(PIPELINE_TYPES);

const PARSERS: ReadonlyMap<AggType, BodyParser> = new Map<AggType, BodyParser>([
  ['avg', parseSimpleMetric('avg')],
  ['sum', parseSimpleMetric('sum')],
  ['min', parseSimpleMetric('min')],
  ['max', parseSimpleMetric('max')],
  ['value_count', parseSimpleMetric('value_count')],
  ['stats', parseSimpleMetric('stats')],
  ['extended_stats', parseExtendedStats],
  ['cardinality', parseCardinality],
  ['terms', parseTerms],
  ['multi_terms', parseMultiTerms],
  ['rare_terms', parseRareTerms],
  ['histogram', parseHistogram],
  ['date_histogram', parseDateHistogram],
  ['range', parseRange('range')],
  ['date_range', parseRange('date_range')],
  ['filter', parseFilter],
  ['filters', parseFilters],
  ['missing', parseMissing],
  ['global', parseGlobal],
  ['composite', parseComposite],
  ['geo_bounds', parseGeoBounds],
  ['geo_centroid', parseGeoCentroid],
  ['geo_distance', parseGeoDistance],
  ['geohash_grid', parseGeohashGrid],
  ['geotile_grid', parseGeotileGrid],
  ['percentiles', parsePercentiles('percentiles')],
  ['percentile_ranks', parsePercentiles('percentile_ranks')],
  ['boxplot', parseDigestMetric('boxplot')],
  ['median_absolute_deviation', parseDigestMetric('median_absolute_deviation')],
  ['weighted_avg', parseWeightedAvg],
  ['string_stats', parseStringStats],
  ['top_hits', parseTopHits],
  ['top_metrics', parseTopMetrics],
  ['ip_range', parseIpRange],
  ['ip_prefix', parseIpPrefix],
  ['sampler', parseSampler],
  ['adjacency_matrix', parseAdjacencyMatrix],
  ['auto_date_histogram', parseAutoDateHistogram],
  ['variable_width_histogram', parseVariableWidthHistogram],
  ['significant_terms', parseSignificantTerms],
  ['significant_text', parseSignificantText],
  ['diversified_sampler', parseDiversifiedSampler],
  ...PIPELINE_TYPES.map((t): [AggType, BodyParser] => [t, parsePipeline(t)]),
]);

const METRICS: ReadonlySet<string> = new Set([
  'avg',
  'sum',
  'min',
  'max',
  'value_count',
  'stats',
  'extended_stats',
  'cardinality',
  'geo_bounds',
  'geo_centroid',
  'percentiles',
  'percentile_ranks',
  'boxplot',
  'median_absolute_deviation',
  'weighted_avg',
  'string_stats',
  'top_hits',
  'top_metrics',
]);

/**
 * Every aggregation an Elasticsearch node of the default distribution registers: an unknown
 * type is suggested among these; a known one Shoal does not implement answers 501.
 */
export const ELASTICSEARCH_AGGREGATION_TYPES: readonly string[] = [
  'adjacency_matrix',
  'auto_date_histogram',
  'avg',
  'avg_bucket',
  'boxplot',
  'bucket_correlation',
  'bucket_count_ks_test',
  'bucket_script',
  'bucket_selector',
  'bucket_sort',
  'cardinality',
  'cartesian_bounds',
  'cartesian_centroid',
  'categorize_text',
  'change_point',
  'children',
  'composite',
  'cumulative_cardinality',
  'cumulative_sum',
  'date_histogram',
  'date_range',
  'derivative',
  'diversified_sampler',
  'extended_stats',
  'extended_stats_bucket',
  'filter',
  'filters',
  'frequent_item_sets',
  'geo_bounds',
  'geo_centroid',
  'geo_distance',
  'geo_line',
  'geohash_grid',
  'geohex_grid',
  'geotile_grid',
  'global',
  'histogram',
  'inference',
  'ip_prefix',
  'ip_range',
  'matrix_stats',
  'max',
  'max_bucket',
  'median_absolute_deviation',
  'min',
  'min_bucket',
  'missing',
  'moving_fn',
  'moving_percentiles',
  'multi_terms',
  'nested',
  'normalize',
  'parent',
  'percentile_ranks',
  'percentiles',
  'percentiles_bucket',
  'random_sampler',
  'range',
  'rare_terms',
  'rate',
  'reverse_nested',
  'sampler',
  'scripted_metric',
  'serial_diff',
  'significant_terms',
  'significant_text',
  'stats',
  'stats_bucket',
  'string_stats',
  'sum',
  'sum_bucket',
  't_test',
  'terms',
  'time_series',
  'top_hits',
  'top_metrics',
  'value_count',
  'variable_width_histogram',
  'weighted_avg',
];
const KNOWN_TYPES = new Set(ELASTICSEARCH_AGGREGATION_TYPES);

/** AggregatorFactories.VALID_AGG_NAME. */
const VALID_NAME = /^[^[\]>]+$/;

export interface ParsedAggregations {
  readonly aggs: AggregationsSpec;
  /** Deprecation warnings (legacy `interval`, `_term` order), for `Warning` headers. */
  readonly warnings: readonly string[];
}

/**
 * Parses a search's `aggs` object. `where` locates it in the whole request body (the body and
 * the path to the object, `['aggs']` by default), so error positions are the body's.
 */
export function parseAggregations(
  raw: unknown,
  where: { body: unknown; path: readonly PathSeg[]; parent?: ParseCtx } = {
    body: { aggs: raw },
    path: ['aggs'],
  },
): ParsedAggregations {
  const ctx = newCtx(where.body, where.path);
  // Scripts are collected and stored ones resolved as in the rest of the body.
  if (where.parent?.scripts) ctx.scripts = where.parent.scripts;
  if (where.parent?.storedScript) ctx.storedScript = where.parent.storedScript;
  const warnings: string[] = [];
  if (!isObject(raw)) {
    throw parsingError(
      `Unexpected token ${tokenOf(raw)} in [aggs]: aggregations definitions must start with the name of the aggregation.`,
      here(ctx, 'value'),
    );
  }
  const aggs = parseLevel(ctx, raw, warnings, undefined);
  validatePipelines(aggs);
  return { aggs: deepFreeze(aggs), warnings };
}

function parseLevel(
  ctx: ParseCtx,
  level: Record<string, unknown>,
  warnings: string[],
  parentType: Parent | undefined,
): AggSpec[] {
  const out: AggSpec[] = [];
  for (const name of Object.keys(level)) {
    if (!VALID_NAME.test(name)) {
      throw parsingError(
        `Invalid aggregation name [${name}]. Aggregation names can contain any character except '[', ']', and '>'`,
        here(ctx, 'key', name),
      );
    }
    const def = level[name];
    if (!isObject(def)) {
      throw parsingError(
        `Aggregation definition for [${name} starts with a [${tokenOf(def)}], expected a [START_OBJECT].`,
        here(ctx, 'value', name),
      );
    }
    ctx.path.push(name);
    out.push(parseOne(ctx, name, def, warnings, parentType));
    ctx.path.pop();
  }
  return out;
}

function parseOne(
  ctx: ParseCtx,
  name: string,
  def: Record<string, unknown>,
  warnings: string[],
  parentType: Parent | undefined,
): AggSpec {
  let type: AggType | undefined;
  let draft: SpecDraft | undefined;
  let subs: AggSpec[] | undefined;
  let meta: Record<string, unknown> | undefined;
  for (const key of Object.keys(def)) {
    const v = def[key];
    if (!isObject(v)) {
      throw parsingError(
        `Expected [START_OBJECT] under [${key}], but got a [${tokenOf(v)}] in [${name}]`,
        here(ctx, 'value', key),
      );
    }
    if (key === 'meta') {
      meta = v;
    } else if (key === 'aggs' || key === 'aggregations') {
      if (subs !== undefined) {
        throw parsingError(`Found two sub aggregation definitions under [${name}]`, here(ctx, 'value', key));
      }
      ctx.path.push(key);
      // The sub-aggregations' parent is known only once the type is; checked below when it is not yet.
      subs = parseLevel(ctx, v, warnings, type === undefined ? undefined : { name, type });
      ctx.path.pop();
    } else {
      if (type !== undefined) {
        throw parsingError(
          `Found two aggregation type definitions in [${name}]: [${type}] and [${key}]`,
          here(ctx, 'value', key),
        );
      }
      type = resolveType(ctx, key);
      if (parentType) checkParent(name, type, parentType);
      ctx.path.push(key);
      const b: BodyContext = { ctx, name, warnings };
      draft = PARSERS.get(type)!(b, v);
      ctx.path.pop();
    }
  }
  if (type === undefined || draft === undefined) {
    throw parsingError(`Missing definition for aggregation [${name}]`, here(ctx, 'end'));
  }
  if (subs !== undefined && (METRICS.has(type) || PIPELINES.has(type))) {
    throw aggregationInitialization(`Aggregator [${name}] of type [${type}] cannot accept sub-aggregations`);
  }
  for (const sub of subs ?? []) checkParent(sub.name, sub.type, { name, type });
  const spec: Record<string, unknown> = { ...draft, name };
  if (meta !== undefined) spec.meta = meta;
  if (!METRICS.has(type) && !PIPELINES.has(type)) spec.aggs = subs ?? [];
  return spec as unknown as AggSpec;
}

function resolveType(ctx: ParseCtx, key: string): AggType {
  if (PARSERS.has(key as AggType)) return key as AggType;
  const loc = here(ctx, 'value', key);
  if (KNOWN_TYPES.has(key)) throw notImplemented(`the [${key}] aggregation`);
  throw parsingError(
    `Unknown aggregation type [${key}]${suggest(key, ELASTICSEARCH_AGGREGATION_TYPES)}`,
    loc,
    namedObjectNotFound(key, loc),
  );
}

interface Parent {
  readonly name: string;
  readonly type: AggType;
}

/** Aggregations that only make sense at the top of the tree. */
function checkParent(name: string, type: AggType, parent: Parent): void {
  if (type === 'global') {
    throw aggregationExecution(
      `Aggregation [${parent.name}] cannot have a global sub-aggregation [${name}]. ` +
        'Global aggregations can only be defined as top level aggregations',
    );
  }
  if (type === 'composite') {
    throw illegalArgument(
      `[composite] aggregation cannot be used with a parent aggregation of type: [${factoryName(parent.type)}]`,
    );
  }
}

/** The Java factory class Elasticsearch names in the composite-parent error. */
function factoryName(type: AggType): string {
  const camel = type
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
  return type === 'composite' ? 'CompositeAggregationFactory' : `${camel}AggregatorFactory`;
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}
