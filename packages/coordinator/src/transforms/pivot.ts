/**
 * The pivot function at work (Elasticsearch's Pivot and AggregationResultUtils): one page is a
 * composite aggregation over the group_by sources, with the transform's aggregations under it;
 * each bucket becomes one destination document whose `_id` is derived from its group keys (so
 * a rerun overwrites it, never duplicates it), with each aggregation's result written as a
 * field (a dotted name as nested objects).
 */
import { createHash } from 'node:crypto';
import type { PivotConfig } from './pivot-config.ts';

export const COMPOSITE_NAME = '_transform';

export interface DestDoc {
  id: string;
  source: Record<string, unknown>;
}

export interface PageResult {
  docs: DestDoc[];
  /** The next page's position, undefined when this was the last page. */
  after: Record<string, unknown> | undefined;
  /** Source documents the page's buckets stand for. */
  docsProcessed: number;
}

/** Field name → mapped type, for the fields a transform reads (from `_field_caps`). */
export type FieldTypes = Record<string, string>;

export function compositeSources(p: PivotConfig): Record<string, unknown>[] {
  return p.groups.map((g) => ({ [g.name]: { [g.type]: g.body } }));
}

/** The search body of one page. */
export function pivotPageBody(
  p: PivotConfig,
  query: Record<string, unknown>,
  size: number,
  after: Record<string, unknown> | undefined,
  runtimeMappings?: Record<string, unknown>,
): Record<string, unknown> {
  const composite: Record<string, unknown> = { size, sources: compositeSources(p) };
  if (after !== undefined) composite.after = after;
  const body: Record<string, unknown> = {
    size: 0,
    query,
    aggregations: { [COMPOSITE_NAME]: { composite, aggregations: p.aggregations } },
  };
  if (runtimeMappings) body.runtime_mappings = runtimeMappings;
  return body;
}

/** IDGenerator: a stable id from the group keys, in group order. */
export function docIdOf(keys: unknown[]): string {
  const h = createHash('sha256');
  for (const k of keys) {
    h.update(k === null || k === undefined ? '\u0000null' : `\u0001${typeof k}:${String(k)}`);
    h.update('\u0002');
  }
  return h.digest('base64url').slice(0, 22);
}

/** Writes `value` at a dotted path, as nested objects (AggregationResultUtils.updateDocument). */
export function setPath(doc: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let at = doc;
  for (const part of parts.slice(0, -1)) {
    const next = at[part];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) at[part] = {};
    at = at[part] as Record<string, unknown>;
  }
  at[parts[parts.length - 1]!] = value;
}

/** A geotile key `z/x/y` as the tile's bounds in GeoJSON (GeoTileGroupSource). */
export function geotileShape(key: string): Record<string, unknown> | null {
  const [z, x, y] = key.split('/').map(Number);
  if (z === undefined || x === undefined || y === undefined) return null;
  const n = 2 ** z;
  const lon = (tx: number) => (tx / n) * 360 - 180;
  const lat = (ty: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * ty) / n))) * 180) / Math.PI;
  const [left, right, top, bottom] = [lon(x), lon(x + 1), lat(y), lat(y + 1)];
  return {
    type: 'polygon',
    coordinates: [
      [
        [right, top],
        [left, top],
        [left, bottom],
        [right, bottom],
        [right, top],
      ],
    ],
  };
}

function groupKeyValue(type: string, key: unknown, datesAsEpochMillis: boolean): unknown {
  if (key === null || key === undefined) return null;
  if (type === 'date_histogram' && typeof key === 'number') {
    return datesAsEpochMillis ? key : new Date(key).toISOString();
  }
  if (type === 'geotile_grid' && typeof key === 'string') return geotileShape(key);
  return key;
}

const SINGLE_VALUE = new Set([
  'avg',
  'sum',
  'min',
  'max',
  'value_count',
  'cardinality',
  'weighted_avg',
  'median_absolute_deviation',
]);
const SINGLE_BUCKET = new Set(['filter', 'missing']);
const MULTI_BUCKET = new Set(['terms', 'range', 'date_range', 'filters', 'rare_terms']);

function aggType(body: Record<string, unknown>): string {
  return Object.keys(body).find((k) => k !== 'aggs' && k !== 'aggregations' && k !== 'meta') ?? '';
}

function subAggs(body: Record<string, unknown>): Record<string, Record<string, unknown>> {
  return (body.aggs ?? body.aggregations ?? {}) as Record<string, Record<string, unknown>>;
}

function fieldOf(body: Record<string, unknown>, type: string): string | undefined {
  const inner = body[type] as Record<string, unknown> | undefined;
  return typeof inner?.field === 'string' ? inner.field : undefined;
}

function finite(v: unknown): unknown {
  return typeof v === 'number' && !Number.isFinite(v) ? null : (v ?? null);
}

/** A geo_bounds result as a shape: a point, a line or a polygon (GeoShapeMetricAggExtractor). */
function boundsShape(r: Record<string, unknown>): unknown {
  const b = r.bounds as
    | { top_left: { lat: number; lon: number }; bottom_right: { lat: number; lon: number } }
    | undefined;
  if (!b) return null;
  const { top_left: tl, bottom_right: br } = b;
  if (tl.lat === br.lat && tl.lon === br.lon) return { type: 'point', coordinates: [tl.lon, tl.lat] };
  if (tl.lat === br.lat || tl.lon === br.lon) {
    return {
      type: 'linestring',
      coordinates: [
        [tl.lon, tl.lat],
        [br.lon, br.lat],
      ],
    };
  }
  return {
    type: 'polygon',
    coordinates: [
      [
        [tl.lon, tl.lat],
        [br.lon, tl.lat],
        [br.lon, br.lat],
        [tl.lon, br.lat],
        [tl.lon, tl.lat],
      ],
    ],
  };
}

/** One aggregation's result as the value of its destination field. */
export function aggValue(body: Record<string, unknown>, result: unknown, types: FieldTypes): unknown {
  if (result === null || typeof result !== 'object') return null;
  const r = result as Record<string, unknown>;
  const type = aggType(body);
  if (SINGLE_VALUE.has(type)) {
    const field = fieldOf(body, type);
    const ft = field === undefined ? undefined : types[field];
    if ((type === 'min' || type === 'max') && (ft === 'date' || ft === 'date_nanos') && r.value !== null) {
      return r.value_as_string ?? finite(r.value);
    }
    return finite(r.value);
  }
  if (type === 'stats' || type === 'extended_stats') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) {
      if (k.endsWith('_as_string') || k === 'meta') continue;
      out[k] = typeof v === 'object' && v !== null ? v : finite(v);
    }
    return out;
  }
  if (type === 'geo_centroid') {
    const loc = r.location as { lat: number; lon: number } | undefined;
    return loc ? `${loc.lat}, ${loc.lon}` : null;
  }
  if (type === 'geo_bounds') return boundsShape(r);
  if (type === 'percentiles') {
    const values = (r.values ?? {}) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(values).map(([k, v]) => [k.replace(/\./g, '_'), finite(v)]));
  }
  const subs = subAggs(body);
  const bucketValue = (bucket: Record<string, unknown>) => {
    if (Object.keys(subs).length === 0) return bucket.doc_count;
    const nested: Record<string, unknown> = {};
    for (const [name, sub] of Object.entries(subs)) setPath(nested, name, aggValue(sub, bucket[name], types));
    return nested;
  };
  if (SINGLE_BUCKET.has(type)) return bucketValue(r);
  if (MULTI_BUCKET.has(type)) {
    const buckets = r.buckets;
    const out: Record<string, unknown> = {};
    if (Array.isArray(buckets)) {
      for (const b of buckets as Record<string, unknown>[])
        out[String(b.key_as_string ?? b.key)] = bucketValue(b);
    } else if (buckets && typeof buckets === 'object') {
      for (const [k, b] of Object.entries(buckets as Record<string, Record<string, unknown>>)) {
        out[k] = bucketValue(b);
      }
    }
    return out;
  }
  return finite(r.value);
}

/** Reads one page's response into destination documents. */
export function readPivotPage(
  p: PivotConfig,
  response: Record<string, unknown>,
  types: FieldTypes,
  datesAsEpochMillis = false,
): PageResult {
  const aggs = response.aggregations as Record<string, unknown> | undefined;
  const composite = (aggs?.[COMPOSITE_NAME] ?? {}) as {
    buckets?: Record<string, unknown>[];
    after_key?: Record<string, unknown>;
  };
  const buckets = composite.buckets ?? [];
  const docs: DestDoc[] = [];
  let docsProcessed = 0;
  for (const b of buckets) {
    const key = (b.key ?? {}) as Record<string, unknown>;
    const source: Record<string, unknown> = {};
    const keys: unknown[] = [];
    for (const g of p.groups) {
      keys.push(key[g.name]);
      setPath(source, g.name, groupKeyValue(g.type, key[g.name], datesAsEpochMillis));
    }
    for (const [name, body] of Object.entries(p.aggregations))
      setPath(source, name, aggValue(body, b[name], types));
    docsProcessed += Number(b.doc_count ?? 0);
    docs.push({ id: docIdOf(keys), source });
  }
  return { docs, after: buckets.length === 0 ? undefined : composite.after_key, docsProcessed };
}

/** The fields a pivot reads, for `_field_caps`. */
export function pivotFields(p: PivotConfig): string[] {
  const out = new Set<string>();
  for (const g of p.groups) if (g.field) out.add(g.field);
  const walk = (aggs: Record<string, Record<string, unknown>>) => {
    for (const body of Object.values(aggs)) {
      const f = fieldOf(body, aggType(body));
      if (f) out.add(f);
      walk(subAggs(body));
    }
  };
  walk(p.aggregations);
  return [...out];
}

const AGG_TARGET: Record<string, string> = {
  avg: 'double',
  sum: 'double',
  weighted_avg: 'double',
  median_absolute_deviation: 'double',
  cardinality: 'long',
  value_count: 'long',
  filter: 'long',
  missing: 'long',
  geo_centroid: 'geo_point',
  geo_bounds: 'geo_shape',
};

const GROUP_TARGET: Record<string, string> = {
  histogram: 'double',
  date_histogram: 'date',
  geotile_grid: 'geo_shape',
};

/**
 * Pivot.deduceMappings: group keys take their source field's type (terms) or the source
 * kind's; aggregations take TransformAggregations' target type (min/max: the source field's).
 * Results with no fixed type (terms, range, filters) are left to dynamic mapping.
 */
export function deducePivotMappings(p: PivotConfig, types: FieldTypes): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const g of p.groups) {
    const t = GROUP_TARGET[g.type] ?? (g.field ? types[g.field] : undefined) ?? 'keyword';
    props[g.name] = { type: t };
  }
  for (const [name, body] of Object.entries(p.aggregations)) {
    const type = aggType(body);
    if (type === 'min' || type === 'max') {
      const field = fieldOf(body, type);
      const ft = field === undefined ? undefined : types[field];
      props[name] = { type: ft ?? 'double' };
    } else if (type === 'stats' || type === 'extended_stats') {
      props[name] = {
        properties: Object.fromEntries(
          ['count', 'min', 'max', 'avg', 'sum'].map((k) => [k, { type: 'double' }]),
        ),
      };
    } else if (AGG_TARGET[type] && (!SINGLE_BUCKET.has(type) || Object.keys(subAggs(body)).length === 0)) {
      props[name] = { type: AGG_TARGET[type] };
    }
  }
  return props;
}
