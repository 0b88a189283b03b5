/**
 * Merge and response JSON of the metrics beyond the basic ones: percentiles and
 * percentile_ranks (InternalTDigestPercentiles, InternalHDRPercentiles and their ranks),
 * boxplot (InternalBoxplot), median_absolute_deviation, weighted_avg and string_stats.
 */
import { javaDouble } from '../../values/java-double.ts';
import { emptyHdr, hdrCount, hdrPercentile, hdrRank, mergeHdr } from './hdr-histogram.ts';
import {
  type AggPartial,
  type HdrPartial,
  type MoreMetricPartial,
  RAW_FORMAT,
  type StringStatsPartial,
  type TDigestPartial,
  type ValueFormat,
  type WeightedAvgPartial,
} from './partial.ts';
import type { Renderer } from './render.ts';
import type { AggSpec, MoreMetricSpec, PercentilesSpec } from './spec.ts';
import { cdf, digestCount, emptyDigest, mergeDigests, quantile, type TDigestData } from './tdigest.ts';
import {
  EMPTY_TOP_HITS,
  EMPTY_TOP_METRICS,
  mergeTopHits,
  mergeTopMetrics,
  renderTopHits,
  renderTopMetrics,
  type TopHitsPartial,
  type TopMetricsPartial,
} from './top-hits.ts';
import { valueText } from './value-text.ts';

function formatOf(parts: readonly { fmt: ValueFormat; unmapped?: boolean }[]): {
  fmt: ValueFormat;
  unmapped?: boolean;
} {
  const mapped = parts.find((p) => !p.unmapped);
  return mapped ? { fmt: mapped.fmt } : { fmt: parts[0]?.fmt ?? RAW_FORMAT, unmapped: true };
}

function compressionOf(spec: MoreMetricSpec): number {
  if (spec.type === 'percentiles' || spec.type === 'percentile_ranks') {
    return spec.method.kind === 'tdigest' ? spec.method.compression : 100;
  }
  return 'compression' in spec ? spec.compression : 100;
}

export function emptyMoreMetric(spec: MoreMetricSpec): MoreMetricPartial {
  const fmt = RAW_FORMAT;
  switch (spec.type) {
    case 'percentiles':
    case 'percentile_ranks':
      if (spec.method.kind === 'hdr') return { t: 'hdr', hdr: emptyHdr(spec.method.digits), fmt };
      return { t: 'tdigest', digest: emptyDigest(spec.method.compression), fmt };
    case 'boxplot':
    case 'median_absolute_deviation':
      return { t: 'tdigest', digest: emptyDigest(spec.compression), fmt };
    case 'weighted_avg':
      return { t: 'weighted_avg', sum: 0, weight: 0, fmt };
    case 'string_stats':
      return {
        t: 'string_stats',
        count: 0,
        totalLength: 0,
        minLength: Infinity,
        maxLength: -Infinity,
        chars: {},
      };
    case 'top_hits':
      return EMPTY_TOP_HITS;
    case 'top_metrics':
      return EMPTY_TOP_METRICS;
  }
}

export function mergeMoreMetric(spec: MoreMetricSpec, parts: readonly AggPartial[]): MoreMetricPartial {
  const first = parts[0]!;
  switch (first.t) {
    case 'tdigest': {
      const ps = parts as TDigestPartial[];
      return {
        t: 'tdigest',
        digest: mergeDigests(
          ps.map((p) => p.digest),
          compressionOf(spec),
        ),
        ...formatOf(ps),
      };
    }
    case 'hdr': {
      const ps = parts as HdrPartial[];
      return {
        t: 'hdr',
        hdr: mergeHdr(
          ps.map((p) => p.hdr),
          first.hdr.digits,
        ),
        ...formatOf(ps),
      };
    }
    case 'weighted_avg': {
      const ps = parts as WeightedAvgPartial[];
      let sum = 0;
      let weight = 0;
      for (const p of ps) {
        sum += p.sum;
        weight += p.weight;
      }
      return { t: 'weighted_avg', sum, weight, ...formatOf(ps) };
    }
    case 'string_stats': {
      const ps = parts as StringStatsPartial[];
      const chars: Record<string, number> = {};
      let count = 0;
      let totalLength = 0;
      let minLength = Infinity;
      let maxLength = -Infinity;
      for (const p of ps) {
        count += p.count;
        totalLength += p.totalLength;
        minLength = Math.min(minLength, p.minLength);
        maxLength = Math.max(maxLength, p.maxLength);
        for (const [c, n] of Object.entries(p.chars)) chars[c] = (chars[c] ?? 0) + n;
      }
      return { t: 'string_stats', count, totalLength, minLength, maxLength, chars };
    }
    case 'top_hits':
      return spec.type === 'top_hits'
        ? mergeTopHits(spec.sort, spec.from + spec.size, parts as TopHitsPartial[])
        : emptyMoreMetric(spec);
    case 'top_metrics':
      return spec.type === 'top_metrics'
        ? mergeTopMetrics(spec.sort, spec.size, parts as TopMetricsPartial[])
        : emptyMoreMetric(spec);
    default:
      return emptyMoreMetric(spec);
  }
}

export function renderMoreMetric(
  r: Renderer,
  spec: MoreMetricSpec,
  p: AggPartial,
  out: Record<string, unknown>,
): void {
  switch (spec.type) {
    case 'percentiles':
    case 'percentile_ranks':
      renderPercentiles(r, spec, p as TDigestPartial | HdrPartial, out);
      return;
    case 'boxplot':
      renderBoxplot(r, (p as TDigestPartial).digest, (p as TDigestPartial).fmt, out);
      return;
    case 'median_absolute_deviation': {
      const { digest, fmt } = p as TDigestPartial;
      if (digest.means.length === 0) {
        out.value = null;
        return;
      }
      const mad = medianAbsoluteDeviation(digest);
      out.value = r.double(mad);
      withText(out, 'value_as_string', valueText(mad, fmt, r.dates));
      return;
    }
    case 'weighted_avg': {
      const w = p as WeightedAvgPartial;
      if (w.weight === 0) {
        out.value = null;
        return;
      }
      const v = w.sum / w.weight;
      out.value = r.double(v);
      withText(out, 'value_as_string', valueText(v, w.fmt, r.dates));
      return;
    }
    case 'string_stats':
      renderStringStats(r, spec.showDistribution, p as StringStatsPartial, out);
      return;
    case 'top_hits':
      renderTopHits(spec.sort, spec.from, p as TopHitsPartial, out);
      return;
    case 'top_metrics':
      renderTopMetrics(spec.metrics, p as TopMetricsPartial, out);
      return;
  }
}

function withText(out: Record<string, unknown>, key: string, text: string | undefined): void {
  if (text !== undefined) out[key] = text;
}

/** The value of one point: a percentile's value, or a value's rank in percent. */
export function percentilePoint(
  spec: PercentilesSpec,
  p: TDigestPartial | HdrPartial,
  point: number,
): number {
  if (p.t === 'hdr') return spec.type === 'percentiles' ? hdrPercentile(p.hdr, point) : hdrRank(p.hdr, point);
  return spec.type === 'percentiles' ? quantile(p.digest, point / 100) : cdf(p.digest, point) * 100;
}

function isEmpty(p: TDigestPartial | HdrPartial): boolean {
  return p.t === 'hdr' ? hdrCount(p.hdr) === 0 : digestCount(p.digest) === 0;
}

function renderPercentiles(
  r: Renderer,
  spec: PercentilesSpec,
  p: TDigestPartial | HdrPartial,
  out: Record<string, unknown>,
): void {
  const empty = isEmpty(p);
  const entries = spec.points.map((point) => {
    const value = empty ? null : percentilePoint(spec, p, point);
    const text = value === null ? undefined : valueText(value, p.fmt, r.dates);
    return { point, value, text };
  });
  if (spec.keyed) {
    const values: Record<string, unknown> = {};
    for (const e of entries) {
      const key = javaDouble(e.point);
      values[key] = e.value === null ? null : r.double(e.value);
      if (e.text !== undefined) values[`${key}_as_string`] = e.text;
    }
    out.values = values;
  } else {
    out.values = entries.map((e) => {
      const o: Record<string, unknown> = {
        key: r.double(e.point),
        value: e.value === null ? null : r.double(e.value),
      };
      if (e.text !== undefined) o.value_as_string = e.text;
      return o;
    });
  }
}

/** InternalBoxplot: min, max, the quartiles and the whiskers. */
function renderBoxplot(r: Renderer, d: TDigestData, fmt: ValueFormat, out: Record<string, unknown>): void {
  const q1 = quantile(d, 0.25);
  const q2 = quantile(d, 0.5);
  const q3 = quantile(d, 0.75);
  const [lower, upper] = whiskers(d);
  const values: [string, number][] = [
    ['min', d.min],
    ['max', d.max],
    ['q1', q1],
    ['q2', q2],
    ['q3', q3],
    ['lower', lower],
    ['upper', upper],
  ];
  for (const [k, v] of values) out[k] = r.double(v);
  if (fmt.kind !== 'raw')
    for (const [k, v] of values) withText(out, `${k}_as_string`, valueText(v, fmt, r.dates));
}

/** The whiskers: the extreme centroids within 1.5 IQR of the quartiles. */
function whiskers(d: TDigestData): [number, number] {
  const q1 = quantile(d, 0.25);
  const q3 = quantile(d, 0.75);
  const iqr = q3 - q1;
  let lower = Infinity;
  let upper = -Infinity;
  for (const m of d.means) {
    if (m > upper && m <= q3 + 1.5 * iqr) upper = m;
    if (m < lower && m >= q1 - 1.5 * iqr) lower = m;
  }
  return [lower, upper];
}

/** MedianAbsoluteDeviation: the median of the centroids' distances from the median, as a digest. */
export function medianAbsoluteDeviation(d: TDigestData): number {
  const median = quantile(d, 0.5);
  const idx = d.means.map((_, i) => i);
  const dev = d.means.map((m) => Math.abs(median - m));
  idx.sort((a, b) => dev[a]! - dev[b]!);
  const deviations: TDigestData = {
    compression: d.compression,
    means: idx.map((i) => dev[i]!),
    weights: idx.map((i) => d.weights[i]!),
    min: dev[idx[0]!]!,
    max: dev[idx[idx.length - 1]!]!,
  };
  return quantile(deviations, 0.5);
}

/** InternalStringStats: lengths in UTF-16 units, Shannon entropy of the characters in bits. */
function renderStringStats(
  r: Renderer,
  show: boolean,
  p: StringStatsPartial,
  out: Record<string, unknown>,
): void {
  out.count = p.count;
  const any = p.count > 0;
  out.min_length = any ? p.minLength : null;
  out.max_length = any ? p.maxLength : null;
  out.avg_length = any ? r.double(p.totalLength / p.count) : null;
  let total = 0;
  for (const n of Object.values(p.chars)) total += n;
  const probs = Object.entries(p.chars).map(([c, n]) => [c, n / total] as const);
  let entropy = 0;
  for (const [, q] of probs) entropy -= q * Math.log2(q);
  out.entropy = r.double(entropy === 0 ? 0 : entropy);
  if (show) {
    probs.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    out.distribution = Object.fromEntries(probs.map(([c, q]) => [c, r.double(q)]));
  }
}

/** The value of a TDigest- or HDR-backed metric an order path names (`p.99`, `box.q3`, `mad`). */
export function digestMetricValue(
  spec: AggSpec,
  p: TDigestPartial | HdrPartial,
  key: string | undefined,
): number {
  if (spec.type === 'percentiles' || spec.type === 'percentile_ranks') {
    return isEmpty(p) ? Number.NaN : percentilePoint(spec, p, Number(key));
  }
  if (p.t !== 'tdigest' || p.digest.means.length === 0) return Number.NaN;
  const d = p.digest;
  if (spec.type === 'median_absolute_deviation') return medianAbsoluteDeviation(d);
  switch (key) {
    case 'min':
      return d.min;
    case 'max':
      return d.max;
    case 'q1':
      return quantile(d, 0.25);
    case 'q2':
      return quantile(d, 0.5);
    case 'q3':
      return quantile(d, 0.75);
    default: {
      const w = whiskers(d);
      return key === 'lower' ? w[0] : w[1];
    }
  }
}
