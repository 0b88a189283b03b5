/**
 * Merge, empty partial and response of the bucket aggregations of spec-more-buckets.ts, in one
 * place so that merge.ts and render-buckets.ts dispatch to them with one line each.
 */
import { mergeAdjacency, renderAdjacency } from './adjacency-matrix.ts';
import { mergeAutoDateHistograms, renderAutoDateHistogram } from './auto-date-histogram.ts';
import { mergeIpPrefixes, mergeIpRanges, renderIpPrefix, renderIpRange } from './ip-aggs.ts';
import { type AggPartial, RAW_FORMAT, type SingleBucketPartial } from './partial.ts';
import type {
  AdjacencyMatrixPartial,
  AutoDateHistogramPartial,
  IpPrefixPartial,
  IpRangePartial,
  SignificantTermsPartial,
  VariableWidthPartial,
} from './partial-more-buckets.ts';
import type { Renderer } from './render.ts';
import { emptySignificantTerms, mergeSignificantTerms, renderSignificantTerms } from './significant-terms.ts';
import type { AggSpec, MoreBucketSpec } from './spec.ts';
import { mergeVariableWidth, renderVariableWidth } from './variable-width-histogram.ts';

type Merge = (subs: readonly AggSpec[], parts: readonly (readonly AggPartial[])[]) => AggPartial[];

const MORE_BUCKETS: ReadonlySet<string> = new Set([
  'ip_range',
  'ip_prefix',
  'sampler',
  'diversified_sampler',
  'adjacency_matrix',
  'auto_date_histogram',
  'variable_width_histogram',
  'significant_terms',
  'significant_text',
]);

export function isMoreBucket(spec: AggSpec): spec is MoreBucketSpec {
  return MORE_BUCKETS.has(spec.type);
}

export function mergeMoreBuckets(
  spec: MoreBucketSpec,
  parts: readonly AggPartial[],
  merge: Merge,
): AggPartial {
  switch (spec.type) {
    case 'ip_range':
      return mergeIpRanges(spec, parts as IpRangePartial[], merge);
    case 'ip_prefix':
      return mergeIpPrefixes(spec, parts as IpPrefixPartial[], merge);
    case 'sampler':
    case 'diversified_sampler': {
      const ps = parts as SingleBucketPartial[];
      return {
        t: 'single',
        docCount: ps.reduce((n, p) => n + p.docCount, 0),
        aggs: merge(
          spec.aggs,
          ps.map((p) => p.aggs),
        ),
      };
    }
    case 'adjacency_matrix':
      return mergeAdjacency(spec, parts as AdjacencyMatrixPartial[], merge);
    case 'auto_date_histogram':
      return mergeAutoDateHistograms(spec, parts as AutoDateHistogramPartial[], merge);
    case 'variable_width_histogram':
      return mergeVariableWidth(spec, parts as VariableWidthPartial[], merge);
    case 'significant_terms':
    case 'significant_text':
      return mergeSignificantTerms(spec, parts as SignificantTermsPartial[], merge);
  }
}

export function emptyMoreBuckets(spec: MoreBucketSpec, empty: (spec: AggSpec) => AggPartial): AggPartial {
  switch (spec.type) {
    case 'ip_range':
      return { t: 'ip_range', buckets: [] };
    case 'ip_prefix':
      return { t: 'ip_prefix', buckets: [] };
    case 'sampler':
    case 'diversified_sampler':
      return { t: 'single', docCount: 0, aggs: spec.aggs.map(empty) };
    case 'adjacency_matrix':
      return { t: 'adjacency_matrix', buckets: [] };
    case 'auto_date_histogram':
      return { t: 'auto_date_histogram', fmt: RAW_FORMAT, roundingIdx: 0, buckets: [], unmapped: true };
    case 'variable_width_histogram':
      return { t: 'variable_width_histogram', fmt: RAW_FORMAT, buckets: [], unmapped: true };
    case 'significant_terms':
    case 'significant_text':
      return emptySignificantTerms();
  }
}

export function renderMoreBuckets(
  r: Renderer,
  spec: MoreBucketSpec,
  p: AggPartial,
  out: Record<string, unknown>,
  merge: Merge,
  empty: (spec: AggSpec) => AggPartial,
): void {
  switch (spec.type) {
    case 'ip_range':
      renderIpRange(r, spec, p as IpRangePartial, out);
      return;
    case 'ip_prefix':
      renderIpPrefix(r, spec, p as IpPrefixPartial, out);
      return;
    case 'sampler':
    case 'diversified_sampler': {
      const s = p as SingleBucketPartial;
      out.doc_count = s.docCount;
      r.renderAll(spec.aggs, s.aggs, out);
      return;
    }
    case 'adjacency_matrix':
      renderAdjacency(r, spec, p as AdjacencyMatrixPartial, out);
      return;
    case 'auto_date_histogram': {
      const h = p as AutoDateHistogramPartial;
      renderAutoDateHistogram(r, spec, h, out, merge, h.empty ?? spec.aggs.map(empty));
      return;
    }
    case 'variable_width_histogram':
      renderVariableWidth(r, spec, p as VariableWidthPartial, out, merge);
      return;
    case 'significant_terms':
    case 'significant_text':
      renderSignificantTerms(r, spec, p as SignificantTermsPartial, out);
      return;
  }
}
