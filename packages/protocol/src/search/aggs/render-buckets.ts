/**
 * The final reduce of the bucket aggregations and their JSON (InternalTerms, InternalHistogram,
 * InternalDateHistogram, InternalRange, InternalFilters, InternalComposite …): terms cut to
 * `size` with `sum_other_doc_count` and the doc-count error, histograms with their empty buckets,
 * buckets ordered by count, key or a sub-aggregation, keyed forms, composite `after_key`.
 */
import { fillEmptyBuckets } from './empty-buckets.ts';
import { renderGeoGrid } from './geo-grid.ts';
import { emptyPartial, mergeAggregations } from './merge.ts';
import { isMoreBucket, renderMoreBuckets } from './more-buckets.ts';
import { renderMultiTerms } from './multi-terms.ts';
import { pathValue } from './order-path.ts';
import type {
  AggPartial,
  CompositeValue,
  FiltersPartial,
  GeoGridPartial,
  HistogramPartial,
  KeyBucket,
  MultiTermsPartial,
  RangePartial,
  RareTermsPartial,
  SingleBucketPartial,
  TermsBucket,
  TermsPartial,
  ValueFormat,
} from './partial.ts';
import { renderRareTerms } from './rare-terms.ts';
import type { Renderer } from './render.ts';
import type {
  AggSpec,
  BucketOrder,
  BucketSpec,
  CompositeSpec,
  DateHistogramSpec,
  FiltersSpec,
  GeoDistanceSpec,
  HistogramSpec,
  RangeSpec,
  TermsSpec,
} from './spec.ts';
import { compareDoubles, compareKeys, ipText, keyText, valueText } from './value-text.ts';

export function renderBucketAgg(
  r: Renderer,
  spec: BucketSpec,
  p: AggPartial,
  out: Record<string, unknown>,
): void {
  if (isMoreBucket(spec)) {
    renderMoreBuckets(r, spec, p, out, mergeAggregations, emptyPartial);
    return;
  }
  switch (spec.type) {
    case 'terms':
      renderTerms(r, spec, p as TermsPartial, out);
      return;
    case 'multi_terms':
      renderMultiTerms(r, spec, p as MultiTermsPartial, out);
      return;
    case 'rare_terms':
      renderRareTerms(r, spec, p as RareTermsPartial, out);
      return;
    case 'histogram':
    case 'date_histogram':
      renderHistogram(r, spec, p as HistogramPartial, out);
      return;
    case 'range':
    case 'date_range':
    case 'geo_distance':
      renderRanges(r, spec, p as RangePartial, out);
      return;
    case 'filter':
    case 'missing':
    case 'global':
      renderSingle(r, spec.aggs, p as SingleBucketPartial, out);
      return;
    case 'filters':
      renderFilters(r, spec, p as FiltersPartial, out);
      return;
    case 'composite':
      renderComposite(r, spec, p as Extract<AggPartial, { t: 'composite' }>, out);
      return;
    case 'geohash_grid':
    case 'geotile_grid':
      renderGeoGrid(r, spec, p as GeoGridPartial, out);
      return;
  }
}

interface OrderedBucket {
  readonly key: string | number | bigint;
  readonly docCount: number;
  readonly aggs: readonly AggPartial[];
}

/** The comparator of a bucket order: each order in turn, the last being the key. */
export function bucketComparator(
  orders: readonly BucketOrder[],
  subs: readonly AggSpec[],
): (a: OrderedBucket, b: OrderedBucket) => number {
  return (a, b) => {
    for (const o of orders) {
      let c: number;
      if (o.kind === 'count') c = a.docCount - b.docCount;
      else if (o.kind === 'key') c = compareKeys(a.key, b.key);
      else c = compareDoubles(pathValue(o.path, subs, a.aggs), pathValue(o.path, subs, b.aggs));
      if (c !== 0) return o.asc ? c : -c;
    }
    return 0;
  };
}

function renderTerms(r: Renderer, spec: TermsSpec, p: TermsPartial, out: Record<string, unknown>): void {
  const kept = p.buckets.filter((b) => b.docCount >= spec.minDocCount);
  kept.sort(bucketComparator(spec.order, spec.aggs));
  let other = p.otherDocCount;
  for (let i = spec.size; i < kept.length; i++) other += kept[i]!.docCount;
  const top = kept.slice(0, spec.size);
  r.consumeBuckets(top.length);
  out.doc_count_error_upper_bound = p.docCountError;
  out.sum_other_doc_count = other;
  out.buckets = top.map((b) => termsBucket(r, spec, p, b));
}

function termsBucket(r: Renderer, spec: TermsSpec, p: TermsPartial, b: TermsBucket): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (p.kind === 'string') o.key = b.key;
  else if (p.kind === 'ip') o.key = ipText(b.key as string);
  else {
    // Double terms keys are Java doubles; long, date and boolean keys are longs.
    o.key = p.kind === 'double' ? r.double(Number(b.key)) : b.key;
    const text = valueText(Number(b.key), p.fmt, r.dates);
    if (text !== undefined) o.key_as_string = text;
  }
  o.doc_count = b.docCount;
  if (spec.showTermDocCountError) {
    o.doc_count_error_upper_bound = p.docCountError === -1 ? -1 : p.docCountError - b.presentError;
  }
  r.renderAll(spec.aggs, b.aggs, o);
  return o;
}

function renderHistogram(
  r: Renderer,
  spec: HistogramSpec | DateHistogramSpec,
  p: HistogramPartial,
  out: Record<string, unknown>,
): void {
  let buckets: KeyBucket[];
  if (spec.minDocCount === 0) {
    const empty = p.empty ?? spec.aggs.map(emptyPartial);
    buckets = fillEmptyBuckets(r, spec, p, empty);
  } else {
    buckets = p.buckets.filter((b) => b.docCount >= spec.minDocCount);
    r.consumeBuckets(buckets.length);
  }
  const first = spec.order[0]!;
  if (first.kind === 'key' && !first.asc) buckets.reverse();
  else if (first.kind !== 'key') buckets.sort(bucketComparator(spec.order, spec.aggs));
  const fmt = p.fmt;
  // histogram keys are doubles, date_histogram keys epoch millis (longs).
  const doubleKeys = spec.type === 'histogram';
  const bucketJson = (b: KeyBucket) => {
    const o: Record<string, unknown> = {};
    const text = valueText(b.key, fmt, r.dates);
    if (text !== undefined) o.key_as_string = text;
    o.key = doubleKeys ? r.double(b.key) : b.key;
    o.doc_count = b.docCount;
    r.renderAll(spec.aggs, b.aggs, o);
    return o;
  };
  if (spec.keyed) {
    const keyed: Record<string, unknown> = {};
    for (const b of buckets) keyed[keyText(b.key, fmt, r.dates)] = bucketJson(b);
    out.buckets = keyed;
  } else {
    out.buckets = buckets.map(bucketJson);
  }
}

function renderRanges(
  r: Renderer,
  spec: RangeSpec | GeoDistanceSpec,
  p: RangePartial,
  out: Record<string, unknown>,
): void {
  r.consumeBuckets(p.buckets.length);
  const fmt = p.fmt;
  const bound = (v: number) => (Number.isFinite(v) ? keyText(v, fmt, r.dates) : '*');
  const rendered = p.buckets.map((b) => {
    const key = b.key ?? `${bound(b.from)}-${bound(b.to)}`;
    const o: Record<string, unknown> = {};
    if (!spec.keyed) o.key = key;
    // Bounds are doubles for date_range too (InternalDateRange is an InternalRange).
    if (Number.isFinite(b.from)) {
      o.from = r.double(b.from);
      const text = valueText(b.from, fmt, r.dates);
      if (text !== undefined) o.from_as_string = text;
    }
    if (Number.isFinite(b.to)) {
      o.to = r.double(b.to);
      const text = valueText(b.to, fmt, r.dates);
      if (text !== undefined) o.to_as_string = text;
    }
    o.doc_count = b.docCount;
    r.renderAll(spec.aggs, b.aggs, o);
    return { key, o };
  });
  if (spec.keyed) {
    const keyed: Record<string, unknown> = {};
    for (const { key, o } of rendered) keyed[key] = o;
    out.buckets = keyed;
  } else {
    out.buckets = rendered.map((x) => x.o);
  }
}

function renderSingle(
  r: Renderer,
  subs: readonly AggSpec[],
  p: SingleBucketPartial,
  out: Record<string, unknown>,
): void {
  out.doc_count = p.docCount;
  r.renderAll(subs, p.aggs, out);
}

function renderFilters(
  r: Renderer,
  spec: FiltersSpec,
  p: FiltersPartial,
  out: Record<string, unknown>,
): void {
  r.consumeBuckets(p.buckets.length + (p.other ? 1 : 0));
  // Named filters listed (`keyed: false`) carry their name as `key` (InternalFilters, 8.8+);
  // anonymous ones are known by their position only.
  const bucketJson = (b: SingleBucketPartial, key: string) => {
    const o: Record<string, unknown> = {};
    if (!spec.keyed && spec.named) o.key = key;
    renderSingle(r, spec.aggs, b, o);
    return o;
  };
  if (spec.keyed) {
    const keyed: Record<string, unknown> = {};
    spec.filters.forEach((f, i) => {
      keyed[f.key] = bucketJson(p.buckets[i]!, f.key);
    });
    if (p.other) keyed[spec.otherBucketKey] = bucketJson(p.other, spec.otherBucketKey);
    out.buckets = keyed;
  } else {
    const list = p.buckets.map((b, i) => bucketJson(b, spec.filters[i]!.key));
    if (p.other) list.push(bucketJson(p.other, spec.otherBucketKey));
    out.buckets = list;
  }
}

/** A packed tile (x * 2^29 + y) as GeoTileUtils.stringEncode prints it. */
export function geotileText(v: number | bigint | string, zoom: number): string {
  const packed = BigInt(v);
  return `${zoom}/${packed >> 29n}/${packed & 0x1fffffffn}`;
}

/** A composite key value as the response prints it (InternalComposite.formatObject). */
function compositeValue(
  r: Renderer,
  v: CompositeValue,
  fmt: ValueFormat | undefined,
  isDouble: boolean,
): unknown {
  if (v === null) return null;
  switch (fmt?.kind) {
    case 'date':
      return r.dates.format(Number(v), fmt.pattern, fmt.timeZone);
    case 'bool':
      return Number(v) !== 0;
    case 'ip':
      return ipText(v as string);
    case 'geotile':
      return geotileText(v, fmt.zoom);
    default:
      return isDouble && typeof v === 'number' ? r.double(v) : v;
  }
}

function renderComposite(
  r: Renderer,
  spec: CompositeSpec,
  p: Extract<AggPartial, { t: 'composite' }>,
  out: Record<string, unknown>,
): void {
  r.consumeBuckets(p.buckets.length);
  const keyJson = (key: readonly CompositeValue[]) => {
    const o: Record<string, unknown> = {};
    spec.sources.forEach((s, i) => {
      // histogram sources and terms on double fields give doubles; the rest give longs or text.
      const isDouble = s.kind === 'histogram' || p.doubles?.[i] === true;
      o[s.name] = compositeValue(r, key[i] ?? null, p.formats[i], isDouble);
    });
    return o;
  };
  const last = p.buckets[p.buckets.length - 1];
  if (last) out.after_key = keyJson(last.key);
  out.buckets = p.buckets.map((b) => {
    const o: Record<string, unknown> = { key: keyJson(b.key), doc_count: b.docCount };
    r.renderAll(spec.aggs, b.aggs, o);
    return o;
  });
}
