/**
 * A shard's aggregations: collectors are built for the spec tree (errors for bad fields and
 * order paths are raised here, before any doc is read, as Elasticsearch's aggregator factories
 * raise them), fed every matching live doc segment by segment — `global` aggregations every live
 * doc instead — and turned into partials, one per top-level aggregation, for the coordinator's
 * reduce (protocol merge.ts / render.ts).
 */
import type { AggregationsSpec, AggSpec, ShardAggregations } from '@shoal/protocol';
import type { IndexMapping } from '../contract.ts';
import type { ReaderSegment, ShardReader } from '../index/shard-reader.ts';
import type { Matches } from '../search/matches.ts';
import { topLevelFields } from '../search/top-level-fields.ts';
import { AdjacencyMatrixCollector } from './adjacency-collector.ts';
import { AutoDateHistogramCollector } from './auto-date-histogram-collector.ts';
import { CardinalityCollector } from './cardinality-collector.ts';
import { AggCancel, type AggCollector } from './collector.ts';
import { CompositeCollector } from './composite-collector.ts';
import { DigestCollector } from './digest-collectors.ts';
import type { AggEnv, AggShardContext } from './field-source.ts';
import { GeoBoundsCollector, GeoCentroidCollector, GeoDistanceCollector } from './geo-collectors.ts';
import { GeoGridCollector } from './geo-grid-collector.ts';
import { HistogramCollector } from './histogram-collector.ts';
import { IpPrefixCollector, IpRangeCollector } from './ip-collectors.ts';
import { StatsCollector, ValueCountCollector } from './metric-collectors.ts';
import { StringStatsCollector, WeightedAvgCollector } from './more-metric-collectors.ts';
import { MultiTermsCollector } from './multi-terms-collector.ts';
import { PIPELINE_COLLECTOR } from './pipeline-collector.ts';
import { RangeCollector } from './range-collector.ts';
import { RareTermsCollector } from './rare-terms-collector.ts';
import { DiversifiedSamplerCollector, SamplerCollector } from './sampler-collectors.ts';
import { SignificantTermsCollector } from './significant-terms-collector.ts';
import { SignificantTextCollector } from './significant-text-collector.ts';
import {
  FilterCollector,
  FiltersCollector,
  GlobalCollector,
  MissingCollector,
} from './single-bucket-collectors.ts';
import { TermsCollector } from './terms-collector.ts';
import { TopHitsCollector, TopMetricsCollector } from './top-hits-collector.ts';
import { VariableWidthCollector } from './variable-width-collector.ts';

/** The docs an aggregation pass visits, segment by segment. */
export interface AggDocs {
  /** The segment's matching docs, ascending; null when every doc of the segment matches. */
  docs(rs: ReaderSegment): Int32Array | null;
  /** Docs to skip (deleted, or outside a slice); null when none. */
  excluded(rs: ReaderSegment): Uint32Array | null;
  /** The query's matches of a segment with their scores (top_hits); absent: every score is 1. */
  scored?(rs: ReaderSegment): Matches;
}

function createCollector(spec: AggSpec, env: AggEnv): AggCollector {
  const subs = 'aggs' in spec ? spec.aggs.map((s) => createCollector(s, env)) : [];
  switch (spec.type) {
    case 'avg':
    case 'sum':
    case 'min':
    case 'max':
    case 'stats':
    case 'extended_stats':
      return new StatsCollector(spec, env);
    case 'value_count':
      return new ValueCountCollector(spec, env);
    case 'cardinality':
      return new CardinalityCollector(spec, env);
    case 'terms':
      return new TermsCollector(spec, env, subs);
    case 'multi_terms':
      return new MultiTermsCollector(spec, env, subs);
    case 'rare_terms':
      return new RareTermsCollector(spec, env, subs);
    case 'histogram':
    case 'date_histogram':
      return new HistogramCollector(spec, env, subs);
    case 'range':
    case 'date_range':
      return new RangeCollector(spec, env, subs);
    case 'filter':
      return new FilterCollector(spec, env, subs);
    case 'filters':
      return new FiltersCollector(spec, env, subs);
    case 'missing':
      return new MissingCollector(spec, env, subs);
    case 'global':
      return new GlobalCollector(subs);
    case 'composite':
      return new CompositeCollector(spec, env, subs);
    case 'geo_bounds':
      return new GeoBoundsCollector(spec, env);
    case 'geo_centroid':
      return new GeoCentroidCollector(spec, env);
    case 'geo_distance':
      return new GeoDistanceCollector(spec, env, subs);
    case 'geohash_grid':
    case 'geotile_grid':
      return new GeoGridCollector(spec, env, subs);
    case 'percentiles':
    case 'percentile_ranks':
    case 'boxplot':
    case 'median_absolute_deviation':
      return new DigestCollector(spec, env);
    case 'weighted_avg':
      return new WeightedAvgCollector(spec, env);
    case 'string_stats':
      return new StringStatsCollector(spec, env);
    case 'top_hits':
      return new TopHitsCollector(spec, env);
    case 'top_metrics':
      return new TopMetricsCollector(spec, env);
    case 'ip_range':
      return new IpRangeCollector(spec, env, subs);
    case 'ip_prefix':
      return new IpPrefixCollector(spec, env, subs);
    case 'sampler':
      return new SamplerCollector(spec, env, subs);
    case 'diversified_sampler':
      return new DiversifiedSamplerCollector(spec, env, subs);
    case 'adjacency_matrix':
      return new AdjacencyMatrixCollector(spec, env, subs);
    case 'auto_date_histogram':
      return new AutoDateHistogramCollector(spec, env, subs);
    case 'variable_width_histogram':
      return new VariableWidthCollector(spec, env, subs);
    case 'significant_terms':
      return new SignificantTermsCollector(spec, env, subs);
    case 'significant_text':
      return new SignificantTextCollector(spec, env, subs);
    default:
      // Pipelines read the reduced aggregations: nothing to collect on a shard.
      return PIPELINE_COLLECTOR;
  }
}

/**
 * Runs `aggs` over the docs `docs` gives (reader doc ids of live docs matching the query) and
 * returns the shard's partials, aligned with `aggs`.
 */
export function aggregateShard(
  reader: ShardReader,
  mapping: IndexMapping,
  aggs: AggregationsSpec,
  docs: AggDocs,
  ctx: AggShardContext,
): ShardAggregations {
  const env: AggEnv = { reader, mapping: topLevelFields(mapping), ctx };
  if (docs.scored) env.scores = { scored: (rs) => docs.scored!(rs) };
  const collectors = aggs.map((spec) => createCollector(spec, env));
  const cancel = new AggCancel(ctx.isCancelled);
  const scoped: AggCollector[] = [];
  const global: AggCollector[] = [];
  aggs.forEach((spec, i) => {
    (spec.type === 'global' ? global : scoped).push(collectors[i]!);
  });
  if (scoped.length > 0) collect(reader, scoped, docs, cancel);
  if (global.length > 0) collect(reader, global, LIVE_DOCS, cancel);
  return collectors.map((c) => c.build(0));
}

function collect(
  reader: ShardReader,
  collectors: readonly AggCollector[],
  docs: AggDocs,
  cancel: AggCancel,
): void {
  const perDoc: AggCollector[] = [];
  for (const rs of reader.segments) {
    const excluded = docs.excluded(rs);
    const matching = docs.docs(rs);
    if (matching !== null && matching.length === 0) continue;
    perDoc.length = 0;
    for (const c of collectors) {
      c.setSegment(rs);
      // A collector with a columnar loop of its own reads the segment in one pass.
      if (c.collectAll?.(rs, matching, excluded, cancel) !== true) perDoc.push(c);
    }
    const n = perDoc.length;
    if (n === 0) continue;
    const count = matching === null ? rs.segment.maxDoc : matching.length;
    for (let i = 0; i < count; i++) {
      const d = matching === null ? i : matching[i]!;
      if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      cancel.step();
      for (let c = 0; c < n; c++) perDoc[c]!.collect(d, 0);
    }
  }
}

/** Every live doc of the reader (what `global` aggregates). */
export const LIVE_DOCS: AggDocs = {
  docs: () => null,
  excluded: (rs) => rs.liveDocs.deletedBits,
};

/** The given reader doc ids (live ones only), for callers that already hold a doc list. */
export function readerDocs(reader: ShardReader, ids: readonly number[]): AggDocs {
  const sorted = Int32Array.from(new Set(ids)).sort();
  const bySegment = new Map<number, Int32Array>();
  let i = 0;
  for (const rs of reader.segments) {
    const end = rs.docBase + rs.segment.maxDoc;
    const from = i;
    while (i < sorted.length && sorted[i]! < end) i++;
    const local = sorted.subarray(from, i).map((d) => d - rs.docBase);
    bySegment.set(rs.ord, local);
  }
  return {
    docs: (rs) => bySegment.get(rs.ord) ?? new Int32Array(0),
    excluded: (rs) => rs.liveDocs.deletedBits,
  };
}
