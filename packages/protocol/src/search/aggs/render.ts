/**
 * The final reduce and the response JSON: merged partials become the `aggregations` object of a
 * search response, shaped as Elasticsearch 7.x/8.x writes it (InternalXxx.doXContentBody):
 * metric `value` / `value_as_string`, stats fields, and the bucket aggregations of
 * render-buckets.ts. `meta` comes first, as Elasticsearch writes it.
 */
import { ShoalError } from '../../errors/shoal-error.ts';
import { RawJson } from '../../json/raw-json.ts';
import { javaDouble } from '../../values/java-double.ts';
import { cardinalityOf } from './cardinality-sketch.ts';
import { renderGeoBounds, renderGeoCentroid } from './geo-metrics.ts';
import { mergeAggregations } from './merge.ts';
import { renderMoreMetric } from './more-metrics.ts';
import { statsValue } from './order-path.ts';
import {
  applyParentPipelines,
  BUCKET_PARTIALS,
  type BucketPartials,
  type PipelineScripts,
  pipelineTypeName,
} from './parent-pipelines.ts';
import type { AggPartial, ShardAggregations, StatsPartial } from './partial.ts';
import { isSiblingPipeline } from './pipeline-validate.ts';
import { rareTermsType } from './rare-terms.ts';
import { renderBucketAgg } from './render-buckets.ts';
import { renderSiblingPipeline } from './sibling-pipelines.ts';
import { significantTermsType } from './significant-terms.ts';
import {
  type AggregationsSpec,
  type AggSpec,
  type BucketSpec,
  isPipelineSpec,
  type PipelineSpec,
} from './spec.ts';
import { isMoreMetric } from './spec-kinds.ts';
import { type AggDates, valueText } from './value-text.ts';

/** search.max_buckets's default (Elasticsearch 8). */
export const DEFAULT_MAX_BUCKETS = 65536;

export interface RenderOptions {
  readonly dates: AggDates;
  /** search.max_buckets: more buckets in the response fail the search. */
  readonly maxBuckets?: number;
  /** `typed_keys=true`: each name is written `<type>#<name>` (`sterms#tags`, `avg#price`). */
  readonly typedKeys?: boolean;
  /**
   * Write the values that are Java doubles in Elasticsearch (metric values, histogram keys, range
   * bounds, double terms keys) as Jackson writes a double: `15.0`, `1.0E10`. They become RawJson
   * number texts, so only a response goes this way; readers of the values leave it off.
   */
  readonly javaDoubles?: boolean;
  /** Runs pipeline scripts (moving_fn, bucket_script, bucket_selector); they answer 501 without. */
  readonly scripts?: PipelineScripts;
}

/** The type name `typed_keys` writes before an aggregation's name (InternalAggregation#getType). */
function typedName(spec: AggSpec, p: AggPartial): string {
  if (p.t === 'tdigest' && (spec.type === 'percentiles' || spec.type === 'percentile_ranks')) {
    return `tdigest_${spec.type}#${spec.name}`;
  }
  if (p.t === 'hdr') return `hdr_${spec.type}#${spec.name}`;
  if (p.t === 'rare_terms') return `${rareTermsType(p)}#${spec.name}`;
  if (p.t === 'significant_terms') return `${significantTermsType(p)}#${spec.name}`;
  // InternalSampler answers for both samplers.
  if (spec.type === 'diversified_sampler') return `sampler#${spec.name}`;
  if (spec.type !== 'terms' || p.t !== 'terms') return `${spec.type}#${spec.name}`;
  if (p.unmapped) return `umterms#${spec.name}`;
  const kind = p.kind === 'double' ? 'dterms' : p.kind === 'string' || p.kind === 'ip' ? 'sterms' : 'lterms';
  return `${kind}#${spec.name}`;
}

/** What rendering carries along: the options and the buckets created so far. */
export class Renderer {
  private buckets = 0;
  readonly maxBuckets: number;

  constructor(
    readonly dates: AggDates,
    maxBuckets = DEFAULT_MAX_BUCKETS,
    readonly typedKeys = false,
    private readonly javaDoubles = false,
    readonly scripts?: PipelineScripts,
  ) {
    this.maxBuckets = maxBuckets;
  }

  /**
   * A value Elasticsearch holds as a Java double, as its JSON writes it: Jackson's
   * writeNumber(double) is Double.toString, so a whole number keeps its `.0` and large or small
   * ones take Java's exponent form. Non-finite values stay numbers (quoted by stringifyJson).
   */
  double(v: number): unknown {
    return this.javaDoubles && Number.isFinite(v) ? new RawJson(javaDouble(v)) : v;
  }

  /** MultiBucketConsumerService: counts buckets, failing past search.max_buckets. */
  consumeBuckets(n: number): void {
    this.buckets += n;
    if (this.buckets > this.maxBuckets) {
      throw new ShoalError(
        'too_many_buckets_exception',
        `Trying to create too many buckets. Must be less than or equal to: [${this.maxBuckets}] but this number of ` +
          'buckets was exceeded. This limit can be set by changing the [search.max_buckets] cluster level setting.',
        400,
        { max_buckets: this.maxBuckets },
      );
    }
  }

  /** The response objects of a list of aggregations (top level, or a bucket's sub-aggregations). */
  renderAll(specs: readonly AggSpec[], partials: readonly AggPartial[], into: Record<string, unknown>): void {
    let siblings = false;
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i]!;
      const p = partials[i]!;
      if (isPipelineSpec(spec)) {
        siblings ||= isSiblingPipeline(spec);
        continue;
      }
      into[this.typedKeys ? typedName(spec, p) : spec.name] = this.render(spec, p);
    }
    // A parent pipeline above may need the partials of this level (cumulative_cardinality).
    const held: BucketPartials = { specs, partials };
    Object.defineProperty(into, BUCKET_PARTIALS, { value: held, enumerable: false });
    if (!siblings) return;
    // Sibling pipelines read the rendered aggregations of their level, in request order.
    for (const spec of specs) {
      if (!isPipelineSpec(spec) || !isSiblingPipeline(spec)) continue;
      const out: Record<string, unknown> = {};
      if (spec.meta !== undefined) out.meta = spec.meta;
      renderSiblingPipeline(this, spec, into, out);
      into[this.typedKeys ? `${pipelineTypeName(spec)}#${spec.name}` : spec.name] = out;
    }
  }

  render(spec: AggSpec, p: AggPartial): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (spec.meta !== undefined) out.meta = spec.meta;
    if ('aggs' in spec) {
      renderBucketAgg(this, spec as BucketSpec, p, out);
      const parents = spec.aggs.filter((s) => isPipelineSpec(s) && !isSiblingPipeline(s)) as PipelineSpec[];
      if (parents.length > 0) applyParentPipelines(this, parents, out);
    } else renderMetric(this, spec, p, out);
    return out;
  }
}

/** The response's `aggregations` from merged partials (mergeAggregations). */
export function renderAggregations(
  specs: AggregationsSpec,
  merged: readonly AggPartial[],
  opts: RenderOptions,
): Record<string, unknown> {
  const r = new Renderer(opts.dates, opts.maxBuckets, opts.typedKeys, opts.javaDoubles, opts.scripts);
  const out: Record<string, unknown> = {};
  r.renderAll(specs, merged, out);
  return out;
}

/** Merge and render in one step: the shards' partials to the response's `aggregations`. */
export function reduceAggregations(
  specs: AggregationsSpec,
  shards: readonly ShardAggregations[],
  opts: RenderOptions,
): Record<string, unknown> {
  return renderAggregations(specs, mergeAggregations(specs, shards), opts);
}

function renderMetric(r: Renderer, spec: AggSpec, p: AggPartial, out: Record<string, unknown>): void {
  if (isMoreMetric(spec)) {
    renderMoreMetric(r, spec, p, out);
    return;
  }
  const dates = r.dates;
  switch (p.t) {
    case 'avg': {
      const value = p.count > 0 ? p.sum / p.count : null;
      out.value = value === null ? null : r.double(value);
      if (value !== null) withText(out, 'value_as_string', valueText(value, p.fmt, dates));
      return;
    }
    case 'sum':
      out.value = r.double(p.sum);
      withText(out, 'value_as_string', valueText(p.sum, p.fmt, dates));
      return;
    case 'min':
    case 'max': {
      const has = Number.isFinite(p.value);
      out.value = has ? r.double(p.value) : null;
      if (has) withText(out, 'value_as_string', valueText(p.value, p.fmt, dates));
      return;
    }
    case 'value_count':
      out.value = p.count;
      return;
    case 'cardinality':
      out.value = cardinalityOf(p);
      return;
    case 'stats':
    case 'extended_stats':
      renderStats(r, p, spec.type === 'extended_stats' ? spec.sigma : 2, out);
      return;
    case 'geo_bounds':
      renderGeoBounds(r, p, spec.type === 'geo_bounds' && spec.wrapLongitude, out);
      return;
    case 'geo_centroid':
      renderGeoCentroid(r, p, out);
      return;
    default:
      return;
  }
}

function withText(out: Record<string, unknown>, key: string, text: string | undefined): void {
  if (text !== undefined) out[key] = text;
}

/** InternalStats and InternalExtendedStats.doXContentBody. */
export function renderStats(r: Renderer, p: StatsPartial, sigma: number, out: Record<string, unknown>): void {
  const fmt = p.fmt;
  const text = (v: number) => valueText(v, fmt, r.dates);
  const formatted = fmt.kind !== 'raw';
  out.count = p.count;
  if (p.count > 0) {
    const avg = p.sum / p.count;
    out.min = r.double(p.min);
    out.max = r.double(p.max);
    out.avg = r.double(avg);
    out.sum = r.double(p.sum);
    if (formatted) {
      withText(out, 'min_as_string', text(p.min));
      withText(out, 'max_as_string', text(p.max));
      withText(out, 'avg_as_string', text(avg));
      withText(out, 'sum_as_string', text(p.sum));
    }
  } else {
    out.min = null;
    out.max = null;
    out.avg = null;
    out.sum = r.double(0);
  }
  if (p.t !== 'extended_stats') return;
  const names = [
    'sum_of_squares',
    'variance',
    'variance_population',
    'variance_sampling',
    'std_deviation',
    'std_deviation_population',
    'std_deviation_sampling',
  ];
  const bounds: [string, string, 'population' | 'sampling'][] = [
    ['upper', 'std_upper', 'population'],
    ['lower', 'std_lower', 'population'],
    ['upper_population', 'std_upper', 'population'],
    ['lower_population', 'std_lower', 'population'],
    ['upper_sampling', 'std_upper', 'sampling'],
    ['lower_sampling', 'std_lower', 'sampling'],
  ];
  if (p.count === 0) {
    for (const n of names) out[n] = null;
    out.std_deviation_bounds = Object.fromEntries(bounds.map(([k]) => [k, null]));
    return;
  }
  const value = (name: string) => statsValue(p, name, sigma);
  const bound = (which: string, kind: 'population' | 'sampling') => {
    const avg = p.sum / p.count;
    const sd = value(kind === 'population' ? 'std_deviation_population' : 'std_deviation_sampling');
    return which === 'std_upper' ? avg + sd * sigma : avg - sd * sigma;
  };
  for (const n of names) out[n] = r.double(value(n));
  out.std_deviation_bounds = Object.fromEntries(
    bounds.map(([k, which, kind]) => [k, r.double(bound(which, kind))]),
  );
  if (formatted) {
    for (const n of names) withText(out, `${n}_as_string`, text(value(n)));
    out.std_deviation_bounds_as_string = Object.fromEntries(
      bounds.map(([k, which, kind]) => [k, text(bound(which, kind))]),
    );
  }
}
