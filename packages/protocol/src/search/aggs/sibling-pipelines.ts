/**
 * Sibling pipeline aggregations (BucketMetricsPipelineAggregator): the values a path names in
 * each bucket of a sibling multi-bucket aggregation — gaps left out — summarised as avg_bucket,
 * sum_bucket, min_bucket / max_bucket (with the keys of the extreme buckets), stats_bucket,
 * extended_stats_bucket and percentiles_bucket (exact percentiles of the bucket values).
 */
import { javaDouble } from '../../values/java-double.ts';
import { compensatedSum } from './merge.ts';
import { parsePath } from './order-path.ts';
import type { StatsPartial, ValueFormat } from './partial.ts';
import { bucketsOf, bucketValue, child, type Json } from './pipeline-values.ts';
import { type Renderer, renderStats } from './render.ts';
import type { PipelineSpec } from './spec.ts';
import { valueText } from './value-text.ts';

export function pipelineFormat(spec: PipelineSpec): ValueFormat {
  return spec.format === undefined ? { kind: 'raw' } : { kind: 'decimal', pattern: spec.format };
}

/** The bucket values a sibling pipeline summarises, with their buckets' keys. */
export function siblingValues(spec: PipelineSpec, level: Json): { keys: string[]; values: number[] } {
  const path = spec.bucketsPath as string;
  const elements = parsePath(path);
  const first = elements[0]!;
  const agg = child(level, first.name);
  const keys: string[] = [];
  const values: number[] = [];
  const buckets = agg ? bucketsOf(agg) : null;
  if (buckets === null) return { keys, values };
  const rest = elements.length > 1 ? path.slice(path.indexOf('>') + 1) : (first.key ?? '_count');
  for (const b of buckets) {
    const v = bucketValue(b.obj, rest, spec.gapPolicy);
    if (Number.isNaN(v)) continue;
    keys.push(b.keyText);
    values.push(v);
  }
  return { keys, values };
}

function simpleValue(r: Renderer, v: number, fmt: ValueFormat, out: Json): void {
  const has = Number.isFinite(v);
  out.value = has ? r.double(v) : null;
  if (has) {
    const text = valueText(v, fmt, r.dates);
    if (text !== undefined) out.value_as_string = text;
  }
}

export function renderSiblingPipeline(r: Renderer, spec: PipelineSpec, level: Json, out: Json): void {
  const { keys, values } = siblingValues(spec, level);
  const fmt = pipelineFormat(spec);
  switch (spec.type) {
    case 'avg_bucket':
      simpleValue(r, values.length === 0 ? Number.NaN : compensatedSum(values) / values.length, fmt, out);
      return;
    case 'sum_bucket':
      simpleValue(r, compensatedSum(values), fmt, out);
      return;
    case 'min_bucket':
    case 'max_bucket': {
      const best = spec.type === 'min_bucket' ? Math.min(...values) : Math.max(...values);
      simpleValue(r, values.length === 0 ? Number.NaN : best, fmt, out);
      out.keys = values.length === 0 ? [] : keys.filter((_, i) => values[i] === best);
      return;
    }
    case 'stats_bucket':
    case 'extended_stats_bucket': {
      const p: StatsPartial = {
        t: spec.type === 'stats_bucket' ? 'stats' : 'extended_stats',
        count: values.length,
        sum: compensatedSum(values),
        min: values.length === 0 ? Infinity : Math.min(...values),
        max: values.length === 0 ? -Infinity : Math.max(...values),
        sumOfSquares: compensatedSum(values.map((v) => v * v)),
        fmt,
      };
      renderStats(r, p, spec.sigma ?? 2, out);
      return;
    }
    case 'percentiles_bucket': {
      const sorted = [...values].sort((a, b) => a - b);
      const entries = (spec.percents ?? []).map((pct) => {
        const v = sorted.length === 0 ? Number.NaN : sorted[Math.round((pct / 100) * (sorted.length - 1))]!;
        return { pct, v };
      });
      if (spec.keyed !== false) {
        const o: Json = {};
        for (const { pct, v } of entries) {
          const key = javaDouble(pct);
          o[key] = Number.isFinite(v) ? r.double(v) : null;
          const text = Number.isFinite(v) ? valueText(v, fmt, r.dates) : undefined;
          if (text !== undefined) o[`${key}_as_string`] = text;
        }
        out.values = o;
      } else {
        out.values = entries.map(({ pct, v }) => {
          const o: Json = { key: r.double(pct), value: Number.isFinite(v) ? r.double(v) : null };
          const text = Number.isFinite(v) ? valueText(v, fmt, r.dates) : undefined;
          if (text !== undefined) o.value_as_string = text;
          return o;
        });
      }
      return;
    }
    default:
      return;
  }
}
