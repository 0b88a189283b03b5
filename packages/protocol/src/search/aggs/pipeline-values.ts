/**
 * Reading `buckets_path` values out of reduced aggregations (BucketHelpers.resolveBucketValue):
 * pipelines run on the response objects of the aggregations they read, so a path is followed
 * through a bucket's JSON — `_count`, `_key`, a single-value metric, `stats.avg`,
 * `percentiles[99.0]`, `filtered>price`, `terms._bucket_count` — and a bucket without docs or
 * without a value is a gap the pipeline's `gap_policy` settles.
 */
import { RawJson } from '../../json/raw-json.ts';
import { aggregationExecution } from './object-parser.ts';
import { parsePath } from './order-path.ts';
import type { GapPolicy } from './spec.ts';

export type Json = Record<string, unknown>;

/** A bucket of a rendered multi-bucket aggregation, with its key's text for `keys` lists. */
export interface RenderedBucket {
  readonly obj: Json;
  readonly keyText: string;
  /** The name of a keyed bucket, for rebuilding a keyed `buckets` object. */
  readonly name?: string;
}

/** A rendered number (a Java-double text once javaDoubles is on) as a number; null when absent. */
export function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof RawJson) return Number(v.text);
  return null;
}

/** An aggregation of a rendered level by name (`typed_keys` writes `type#name`). */
export function child(level: Json, name: string): Json | undefined {
  const direct = level[name];
  if (direct !== undefined) return direct as Json;
  for (const k of Object.keys(level)) {
    const hash = k.indexOf('#');
    if (hash >= 0 && k.slice(hash + 1) === name) return level[k] as Json;
  }
  return undefined;
}

/** The buckets of a rendered multi-bucket aggregation, in response order; null if it has none. */
export function bucketsOf(agg: Json): RenderedBucket[] | null {
  const b = agg.buckets;
  if (Array.isArray(b)) return b.map((obj: Json) => ({ obj, keyText: keyTextOf(obj) }));
  if (b !== null && typeof b === 'object') {
    return Object.entries(b as Record<string, Json>).map(([name, obj]) => ({ obj, keyText: name, name }));
  }
  return null;
}

function keyTextOf(bucket: Json): string {
  if (typeof bucket.key_as_string === 'string') return bucket.key_as_string;
  const k = bucket.key;
  if (k instanceof RawJson) return k.text;
  if (typeof k === 'object' && k !== null) return JSON.stringify(k);
  return String(k);
}

/** Writes buckets back in the shape they came in (a list, or an object by key). */
export function setBuckets(agg: Json, buckets: readonly RenderedBucket[]): void {
  if (Array.isArray(agg.buckets)) agg.buckets = buckets.map((b) => b.obj);
  else agg.buckets = Object.fromEntries(buckets.map((b) => [b.name ?? b.keyText, b.obj]));
}

const multiValued = (name: string) =>
  aggregationExecution(
    `buckets_path must reference either a number value or a single value numeric metric aggregation, but [${name}] contains multiple values. Please specify which to use.`,
  );

/** The value a path names in a bucket, before gaps: null when the bucket has none. */
export function rawValue(bucket: Json, path: string): { value: number | null; isCount: boolean } {
  const elements = parsePath(path);
  let obj: Json = bucket;
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i]!;
    const last = i === elements.length - 1;
    if (el.name === '_count') return { value: numberOf(obj.doc_count), isCount: true };
    if (el.name === '_key') return { value: numberOf(obj.key), isCount: false };
    const agg = child(obj, el.name);
    if (agg === undefined) {
      throw aggregationExecution(`No aggregation found for path [${path}]`);
    }
    if (!last) {
      if (agg.buckets !== undefined) {
        throw aggregationExecution(
          `buckets_path must reference either a number value or a single value numeric metric aggregation, got: [Object[]] at aggregation [${el.name}]`,
        );
      }
      obj = agg;
      continue;
    }
    return {
      value: leafValue(agg, el.name, el.key),
      isCount: el.key === '_count' || (el.key === undefined && isSingleBucket(agg)),
    };
  }
  return { value: numberOf(obj.doc_count), isCount: true };
}

function isSingleBucket(agg: Json): boolean {
  return agg.doc_count !== undefined && agg.value === undefined && agg.buckets === undefined;
}

function leafValue(agg: Json, name: string, key: string | undefined): number | null {
  if (key === '_bucket_count') {
    const b = bucketsOf(agg);
    if (b === null)
      throw aggregationExecution(`[_bucket_count] can only be used on a multi-bucket aggregation: [${name}]`);
    return b.length;
  }
  if (key === '_count') return numberOf(agg.doc_count);
  if (agg.buckets !== undefined) {
    throw aggregationExecution(
      `buckets_path must reference either a number value or a single value numeric metric aggregation, got: [${bucketsClass(agg)}] at aggregation [${name}]`,
    );
  }
  const values = agg.values;
  if (key === undefined) {
    if ('value' in agg) return numberOf(agg.value);
    if (isSingleBucket(agg)) return numberOf(agg.doc_count);
    if (values !== undefined && values !== null) {
      const entries = Array.isArray(values)
        ? values
        : Object.keys(values).filter((k) => !k.endsWith('_as_string'));
      if (entries.length === 1) {
        return Array.isArray(values)
          ? numberOf(values[0].value)
          : numberOf((values as Json)[entries[0] as string]);
      }
    }
    throw multiValued(name);
  }
  if (values !== undefined && values !== null) {
    const want = Number(key);
    if (Array.isArray(values)) {
      const hit = values.find((e: Json) => numberOf(e.key) === want);
      if (hit) return numberOf(hit.value);
    } else {
      for (const [k, v] of Object.entries(values as Json))
        if (!k.endsWith('_as_string') && Number(k) === want) return numberOf(v);
    }
    throw aggregationExecution(`Invalid percentile: [${key}]`);
  }
  if (key === 'value' && 'value' in agg) return numberOf(agg.value);
  const stdBound = (agg.std_deviation_bounds as Json | undefined) ?? {};
  if (key === 'std_upper' || key === 'std_lower')
    return numberOf(stdBound[key === 'std_upper' ? 'upper' : 'lower']);
  if (!(key in agg)) throw aggregationExecution(`No aggregation found for path [${name}.${key}]`);
  return numberOf(agg[key]);
}

/** The class Elasticsearch names for a multi-bucket aggregation a path cannot end on. */
function bucketsClass(agg: Json): string {
  if (Array.isArray(agg.buckets) && agg.sum_other_doc_count !== undefined) {
    const key = (agg.buckets[0] as Json | undefined)?.key;
    return typeof key === 'string' ? 'StringTerms' : key instanceof RawJson ? 'DoubleTerms' : 'LongTerms';
  }
  return 'InternalMultiBucketAggregation';
}

/** resolveBucketValue: the value with the gap policy applied (NaN for a skipped gap). */
export function bucketValue(bucket: Json, path: string, gap: GapPolicy): number {
  const { value, isCount } = rawValue(bucket, path);
  const docCount = numberOf(bucket.doc_count);
  const missing = value === null || !Number.isFinite(value);
  if (missing || (docCount === 0 && !isCount)) {
    switch (gap) {
      case 'insert_zeros':
        return 0;
      case 'keep_values':
        return missing ? Number.NaN : value;
      default:
        return Number.NaN;
    }
  }
  return value;
}
