/**
 * top_hits across shards (InternalTopHits): each shard sends its best `from + size` hits of a
 * bucket, already fetched (id, `_source`, version); the reduce keeps the best overall by the
 * sort values, then the reader order (index, doc), and writes the `hits` object of a search
 * response — `total`, `max_score`, and the page `from` … `from + size`.
 */
import { scoreJson, sortValuesJson } from '../../json/json-scalars.ts';
import { RawJson } from '../../json/raw-json.ts';
import { stringifyJson } from '../../json/stringify.ts';
import type { SortSpec, SortValue } from '../sort-spec.ts';
import { compareText } from './value-text.ts';

export interface TopHit {
  readonly index: string;
  readonly id: string;
  /** NaN when scores were not computed. */
  readonly score: number;
  /** Comparable sort values, and the values shown (dates formatted …). */
  readonly sort: readonly SortValue[];
  readonly display: readonly SortValue[];
  /** The doc in its shard's reader: the last tie-breaker. */
  readonly doc: number;
  /** The `_source` JSON text; absent when `_source` is off. */
  readonly source?: string;
  readonly version?: number;
  readonly seqNo?: number;
  readonly primaryTerm?: number;
  readonly routing?: string;
}

export interface TopHitsPartial {
  readonly t: 'top_hits';
  /** The bucket's doc count. */
  readonly total: number;
  readonly maxScore: number;
  /** Best first. */
  readonly hits: readonly TopHit[];
  /** Bit i set: sort key i holds Java floats or doubles (how its values print). */
  readonly floatingKeys: number;
}

export const EMPTY_TOP_HITS: TopHitsPartial = {
  t: 'top_hits',
  total: 0,
  maxScore: Number.NaN,
  hits: [],
  floatingKeys: 0,
};

function naturalCompare(a: SortValue, b: SortValue): number {
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  const x = a as number | bigint;
  const y = b as number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Hits in response order: sort values key by key (missing values as their spec places them), then index and doc. */
export function hitComparator(sort: readonly SortSpec[]): (a: TopHit, b: TopHit) => number {
  return (a, b) => {
    for (let i = 0; i < sort.length; i++) {
      const s = sort[i]!;
      const x = a.sort[i] ?? null;
      const y = b.sort[i] ?? null;
      let c: number;
      if (x === null || y === null) {
        if (x === y) continue;
        const first = s.kind === 'field' && s.missing === '_first';
        c = (x === null) === first ? -1 : 1;
      } else {
        c = naturalCompare(x, y);
        if (s.order === 'desc') c = -c;
      }
      if (c !== 0) return c;
    }
    if (a.index !== b.index) return a.index < b.index ? -1 : 1;
    return a.doc - b.doc;
  };
}

export function mergeTopHits(
  sort: readonly SortSpec[],
  keep: number,
  parts: readonly TopHitsPartial[],
): TopHitsPartial {
  let total = 0;
  let maxScore = Number.NaN;
  const hits: TopHit[] = [];
  let floatingKeys = 0;
  for (const p of parts) {
    total += p.total;
    if (!Number.isNaN(p.maxScore) && !(p.maxScore <= maxScore)) maxScore = p.maxScore;
    hits.push(...p.hits);
    floatingKeys |= p.floatingKeys;
  }
  hits.sort(hitComparator(sort));
  return { t: 'top_hits', total, maxScore, hits: hits.slice(0, keep), floatingKeys };
}

function hitJson(h: TopHit, sorted: boolean, floatingKeys: number): string {
  let text = `{"_index":${JSON.stringify(h.index)},"_id":${JSON.stringify(h.id)}`;
  if (h.version !== undefined) text += `,"_version":${h.version}`;
  if (h.seqNo !== undefined) text += `,"_seq_no":${h.seqNo},"_primary_term":${h.primaryTerm ?? 0}`;
  text += `,"_score":${scoreJson(h.score)}`;
  if (h.routing !== undefined) text += `,"_routing":${JSON.stringify(h.routing)}`;
  if (h.source !== undefined) text += `,"_source":${h.source}`;
  if (sorted) text += `,"sort":[${sortValuesJson(h.display, floatingKeys)}]`;
  return `${text}}`;
}

export function renderTopHits(
  sort: readonly SortSpec[],
  from: number,
  p: TopHitsPartial,
  out: Record<string, unknown>,
): void {
  const page = p.hits.slice(from);
  const sorted = !(sort.length === 1 && sort[0]!.kind === 'score');
  const hits = `[${page.map((h) => hitJson(h, sorted, p.floatingKeys)).join(',')}]`;
  out.hits = new RawJson(
    `{"total":${stringifyJson({ value: p.total, relation: 'eq' })},"max_score":${scoreJson(p.maxScore)},"hits":${hits}}`,
  );
}

/** top_metrics: the best `size` docs by one sort, each with its metric values. */
export interface TopMetric {
  readonly sort: readonly SortValue[];
  readonly display: readonly SortValue[];
  readonly index: string;
  readonly doc: number;
  /** Aligned with the spec's metrics; null when the doc has none. */
  readonly metrics: readonly SortValue[];
}

export interface TopMetricsPartial {
  readonly t: 'top_metrics';
  readonly top: readonly TopMetric[];
  /** Bit i set: sort key i holds doubles. */
  readonly floatingKeys: number;
  /** Bit i set: metric i holds doubles. */
  readonly floatingMetrics: number;
}

export const EMPTY_TOP_METRICS: TopMetricsPartial = {
  t: 'top_metrics',
  top: [],
  floatingKeys: 0,
  floatingMetrics: 0,
};

export function mergeTopMetrics(
  sort: readonly SortSpec[],
  size: number,
  parts: readonly TopMetricsPartial[],
): TopMetricsPartial {
  const all: TopMetric[] = [];
  let floatingKeys = 0;
  let floatingMetrics = 0;
  for (const p of parts) {
    all.push(...p.top);
    floatingKeys |= p.floatingKeys;
    floatingMetrics |= p.floatingMetrics;
  }
  const cmp = hitComparator(sort);
  const asHit = (m: TopMetric): TopHit => ({ ...m, id: '', score: Number.NaN });
  all.sort((a, b) => cmp(asHit(a), asHit(b)));
  return { t: 'top_metrics', top: all.slice(0, size), floatingKeys, floatingMetrics };
}

export function renderTopMetrics(
  names: readonly string[],
  p: TopMetricsPartial,
  out: Record<string, unknown>,
): void {
  const top = p.top.map((m) => {
    const metrics = names
      .map(
        (n, i) =>
          `${JSON.stringify(n)}:${sortValuesJson([m.metrics[i] ?? null], (p.floatingMetrics >> i) & 1)}`,
      )
      .join(',');
    return `{"sort":[${sortValuesJson(m.display, p.floatingKeys)}],"metrics":{${metrics}}}`;
  });
  out.top = new RawJson(`[${top.join(',')}]`);
}
