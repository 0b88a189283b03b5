import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HttpResult, http, ndjson } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

let node: TestNode;

/** Sales by day of January 2024: a gap on the 3rd (no docs), two docs some days. */
const SALES: [string, number, string][] = [
  ['2024-01-01', 10, 'hat'],
  ['2024-01-01', 30, 'bag'],
  ['2024-01-02', 5, 'hat'],
  ['2024-01-04', 50, 'bag'],
  ['2024-01-05', 20, 'hat'],
  ['2024-01-05', 25, 'shoe'],
  ['2024-01-06', 7, 'shoe'],
];

beforeAll(async () => {
  node = await startTestNode();
  const mappings = {
    properties: { date: { type: 'date' }, price: { type: 'double' }, type: { type: 'keyword' } },
  };
  await http(node.url, 'PUT', '/sales', { settings: { number_of_shards: 3 }, mappings });
  const lines = SALES.flatMap(([date, price, type], i) => [
    { index: { _id: String(i) } },
    { date, price, type },
  ]);
  const bulk = await http(node.url, 'POST', '/sales/_bulk?refresh=true', ndjson(lines));
  expect(bulk.json.errors).toBe(false);
});
afterAll(async () => {
  await node?.stop();
});

const search = (a: unknown, params = '') =>
  http(node.url, 'POST', `/sales/_search${params}`, { size: 0, aggs: a });
const perDay = (subs: Record<string, unknown>) => ({
  days: {
    date_histogram: { field: 'date', calendar_interval: 'day' },
    aggs: { total: { sum: { field: 'price' } }, ...subs },
  },
});
/** A rendered bucket: its key and count, and its sub-aggregations' values. */
type Bucket = { key: unknown; doc_count: number } & Record<
  string,
  { value: number | null; normalized_value?: number }
>;
const errorText = (r: HttpResult) => JSON.stringify(r.json.error);

// Per-day totals and doc counts, as the definitions below read them.
const TOTALS = [40, 5, 0, 50, 45, 7];
const COUNTS = [2, 1, 0, 1, 2, 1];

describe('sibling pipelines', () => {
  it('summarise the bucket values, gaps skipped', async () => {
    const r = await search({
      ...perDay({}),
      avg: { avg_bucket: { buckets_path: 'days>total' } },
      sum: { sum_bucket: { buckets_path: 'days>total' } },
      max: { max_bucket: { buckets_path: 'days>total' } },
      min: { min_bucket: { buckets_path: 'days>total' } },
      stats: { stats_bucket: { buckets_path: 'days>total' } },
      ext: { extended_stats_bucket: { buckets_path: 'days>total' } },
      pct: { percentiles_bucket: { buckets_path: 'days>total', percents: [25, 50, 100] } },
      count_max: { max_bucket: { buckets_path: 'days>_count' } },
      zeros: { avg_bucket: { buckets_path: 'days>total', gap_policy: 'insert_zeros', format: '0.00' } },
    });
    expect(r.status).toBe(200);
    const a = r.json.aggregations;
    const present = TOTALS.filter((_, i) => COUNTS[i]! > 0);
    const sum = present.reduce((s, v) => s + v, 0);
    expect(a.avg.value).toBeCloseTo(sum / present.length, 10);
    expect(a.sum.value).toBe(sum);
    expect(a.max).toEqual({ value: 50, keys: ['2024-01-04T00:00:00.000Z'] });
    expect(a.min).toEqual({ value: 5, keys: ['2024-01-02T00:00:00.000Z'] });
    expect(a.stats).toEqual({ count: 5, min: 5, max: 50, avg: sum / 5, sum });
    const mean = sum / 5;
    const variance = present.reduce((s, v) => s + (v - mean) ** 2, 0) / 5;
    expect(a.ext.variance).toBeCloseTo(variance, 8);
    expect(a.ext.std_deviation).toBeCloseTo(Math.sqrt(variance), 8);
    // Exact percentiles of the sorted values [5, 7, 40, 45, 50].
    expect(a.pct.values).toEqual({ '25.0': 7, '50.0': 40, '100.0': 50 });
    expect(a.count_max).toEqual({ value: 2, keys: ['2024-01-01T00:00:00.000Z', '2024-01-05T00:00:00.000Z'] });
    expect(a.zeros).toEqual({ value: sum / 6, value_as_string: (sum / 6).toFixed(2) });
  });

  it('name the typed_keys of their outputs', async () => {
    const r = await search(
      {
        ...perDay({}),
        m: { max_bucket: { buckets_path: 'days>total' } },
        s: { sum_bucket: { buckets_path: 'days>total' } },
      },
      '?typed_keys=true',
    );
    expect(Object.keys(r.json.aggregations).sort()).toEqual([
      'bucket_metric_value#m',
      'date_histogram#days',
      'simple_value#s',
    ]);
  });
});

describe('parent pipelines', () => {
  it('each equals its definition over the parent buckets', async () => {
    const r = await search(
      perDay({
        cum: { cumulative_sum: { buckets_path: 'total' } },
        deriv: { derivative: { buckets_path: 'total', unit: '1h' } },
        diff: { serial_diff: { buckets_path: 'total', lag: 2 } },
        avg3: {
          moving_fn: { buckets_path: 'total', window: 3, script: 'MovingFunctions.unweightedAvg(values)' },
        },
        ratio: {
          bucket_script: { buckets_path: { t: 'total', n: '_count' }, script: 'params.t / params.n' },
        },
        norm: { normalize: { buckets_path: 'total', method: 'percent_of_sum' } },
      }),
    );
    expect(r.status, r.text).toBe(200);
    const buckets = r.json.aggregations.days.buckets;
    expect(buckets).toHaveLength(6);
    let cum = 0;
    const totalSum = TOTALS.reduce((s, v) => s + v, 0);
    buckets.forEach((b: Bucket, i: number) => {
      expect(b.total!.value).toBe(TOTALS[i]);
      cum += TOTALS[i]!;
      expect(b.cum!.value).toBe(cum);
      // An empty bucket is a gap: skipped, so the derivative next to it is null.
      const gap = (j: number) => COUNTS[j] === 0;
      if (i === 0) expect(b.deriv).toBeUndefined();
      else if (gap(i) || gap(i - 1)) expect(b.deriv!.value).toBeNull();
      else {
        expect(b.deriv!.value).toBe(TOTALS[i]! - TOTALS[i - 1]!);
        expect(b.deriv!.normalized_value).toBeCloseTo((TOTALS[i]! - TOTALS[i - 1]!) / 24, 10);
      }
      if (i < 2 || gap(i) || gap(i - 2)) expect(b.diff).toBeUndefined();
      else expect(b.diff!.value).toBe(TOTALS[i]! - TOTALS[i - 2]!);
      if (gap(i)) {
        expect(b.ratio).toBeUndefined();
        expect(b.avg3).toBeUndefined();
        expect(b.norm!.value).toBe(0);
      } else {
        expect(b.ratio!.value).toBe(TOTALS[i]! / COUNTS[i]!);
        expect(b.norm!.value).toBeCloseTo(TOTALS[i]! / totalSum, 10);
      }
    });
    // moving_fn: the window of up to 3 earlier non-gap values (empty for the first: null).
    const present = TOTALS.filter((_, i) => COUNTS[i]! > 0);
    const presentIdx = buckets.map((_: unknown, i: number) => i).filter((i: number) => COUNTS[i]! > 0);
    presentIdx.forEach((bi: number, k: number) => {
      const win = present.slice(Math.max(0, k - 3), k);
      const want = win.length === 0 ? null : win.reduce((s, v) => s + v, 0) / win.length;
      if (want === null) expect(buckets[bi].avg3.value).toBeNull();
      else expect(buckets[bi].avg3.value).toBeCloseTo(want, 10);
    });
  });

  it('bucket_selector drops buckets, bucket_sort orders and pages them', async () => {
    const sel = await search(
      perDay({ keep: { bucket_selector: { buckets_path: { t: 'total' }, script: 'params.t > 20' } } }),
    );
    expect(sel.json.aggregations.days.buckets.map((b: Bucket) => b.total!.value)).toEqual([40, 0, 50, 45]);
    const sorted = await search(
      perDay({ top: { bucket_sort: { sort: [{ total: { order: 'desc' } }], size: 2, from: 1 } } }),
    );
    expect(sorted.json.aggregations.days.buckets.map((b: Bucket) => b.total!.value)).toEqual([45, 40]);
    const byTerms = await search({
      types: {
        terms: { field: 'type' },
        aggs: { total: { sum: { field: 'price' } }, top: { bucket_sort: { sort: ['total'] } } },
      },
    });
    expect(byTerms.json.aggregations.types.buckets.map((b: Bucket) => b.key)).toEqual(['shoe', 'hat', 'bag']);
  });

  it('cumulative_cardinality unions the buckets seen so far', async () => {
    const r = await search(
      perDay({
        kinds: { cardinality: { field: 'type' } },
        seen: { cumulative_cardinality: { buckets_path: 'kinds' } },
      }),
    );
    expect(r.json.aggregations.days.buckets.map((b: Bucket) => b.seen!.value)).toEqual([2, 2, 2, 2, 3, 3]);
  });
});

describe('bad pipelines answer 400', () => {
  it('a buckets_path naming nothing, or a non-multi-bucket sibling', async () => {
    const none = await search({ ...perDay({}), x: { avg_bucket: { buckets_path: 'nope>total' } } });
    expect(none.status).toBe(400);
    expect(none.json.error.type).toBe('action_request_validation_exception');
    expect(none.json.error.reason).toBe(
      'Validation Failed: 1: buckets_path aggregation does not exist for aggregation [x]: nope>total;',
    );
    const deep = await search({ ...perDay({}), x: { max_bucket: { buckets_path: 'days>unknown' } } });
    expect(deep.status).toBe(400);
    expect(errorText(deep)).toContain('No aggregation [unknown] found for path [days>unknown];');
    const single = await search({ g: { global: {} }, x: { sum_bucket: { buckets_path: 'g>_count' } } });
    expect(single.status).toBe(400);
    expect(errorText(single)).toContain(
      'The first aggregation in buckets_path must be a multi-bucket aggregation for aggregation [x] found :org.elasticsearch.search.aggregations.bucket.global.GlobalAggregationBuilder for buckets path: g>_count',
    );
    const parentPath = await search(perDay({ d: { derivative: { buckets_path: 'missing_metric' } } }));
    expect(parentPath.status).toBe(400);
    expect(errorText(parentPath)).toContain(
      'No aggregation [missing_metric] found for path [missing_metric]',
    );
  });

  it('a parent pipeline without the parent it needs, and bad parameters', async () => {
    const top = await search({ d: { derivative: { buckets_path: '_count' } } });
    expect(top.status).toBe(400);
    expect(errorText(top)).toContain(
      "derivative aggregation [d] must have a histogram, date_histogram or auto_date_histogram as parent but doesn't have a parent",
    );
    const terms = await search({
      t: { terms: { field: 'type' }, aggs: { d: { cumulative_sum: { buckets_path: '_count' } } } },
    });
    expect(terms.status).toBe(400);
    const topScript = await search({ s: { bucket_script: { buckets_path: { a: '_count' }, script: '1' } } });
    expect(errorText(topScript)).toContain(
      'bucket_script aggregation [s] must be declared inside of another aggregation',
    );
    for (const bad of [
      { avg_bucket: {} },
      { avg_bucket: { buckets_path: 'days>total', gap_policy: 'sometimes' } },
      { percentiles_bucket: { buckets_path: 'days>total', percents: [150] } },
      { avg_bucket: { buckets_path: 'days>total', foo: 1 } },
    ]) {
      const r = await search({ ...perDay({}), x: bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    const serial = await search(perDay({ s: { serial_diff: { buckets_path: 'total', lag: 0 } } }));
    expect(serial.status).toBe(400);
    const multi = await search({
      ...perDay({ st: { stats: { field: 'price' } } }),
      x: { max_bucket: { buckets_path: 'days>st' } },
    });
    expect(multi.status).toBe(400);
    expect(errorText(multi)).toContain('contains multiple values. Please specify which to use.');
    const throughTerms = await search({
      t: {
        terms: { field: 'type' },
        aggs: { t2: { terms: { field: 'type' }, aggs: { m: { max: { field: 'price' } } } } },
      },
      x: { max_bucket: { buckets_path: 't>t2>m' } },
      y: { max_bucket: { buckets_path: 't>t2' } },
    });
    expect(throughTerms.status).toBe(400);
    expect(errorText(throughTerms)).toMatch(/\[Object\[\]\] at aggregation \[t2\]/);
    const onTerms = await search({
      t: { terms: { field: 'type' }, aggs: { t2: { terms: { field: 'type' } } } },
      y: { max_bucket: { buckets_path: 't>t2' } },
    });
    expect(errorText(onTerms)).toMatch(/\[StringTerms\] at aggregation \[t2\]/);
    const ok = await search({
      ...perDay({ st: { stats: { field: 'price' } } }),
      x: { max_bucket: { buckets_path: 'days>st.max' } },
    });
    expect(ok.json.aggregations.x.value).toBe(50);
  });
});
