/**
 * The query shapes of `npm run bench -- queries`, in the spirit of Elasticsearch's Rally tracks
 * (http_logs, nyc_taxis, geonames): each shape builds a new body on every request from a
 * seeded generator (a term, a range's bounds, a sort direction, an `after` key), so no cache
 * keyed on one repeated query helps. `kind` sets the shape's target ratio to match_all.
 */
import { CARRIERS, type FlightValues, LOGS_FIRST_MS, LOGS_SPAN_MS, PATH_ROOTS } from './queries-data.ts';

export type ShapeKind = 'baseline' | 'filter' | 'sort' | 'agg';

export interface Shape {
  id: string;
  kind: ShapeKind;
  /** One request body, its values drawn from `rnd`. */
  body(rnd: () => number): Record<string, unknown>;
}

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const between = (rnd: () => number, lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
const dir = (rnd: () => number) => (rnd() < 0.5 ? 'asc' : 'desc');
const iso = (ms: number) => new Date(ms).toISOString();
const DAY = 86_400_000;

const WORDS = [
  'early',
  'on',
  'time',
  'late',
  'very',
  'short',
  'medium',
  'long',
  'haul',
  'morning',
  'afternoon',
  'evening',
  'night',
];
const PHRASES = [
  'very late',
  'on time',
  'short haul',
  'medium haul',
  'long haul',
  'late long',
  'early short',
  'haul morning',
  'haul night',
  'time medium',
];
const DELAY_CLASSES = ['early', 'on time', 'late', 'very late'];
const HAULS = ['short haul', 'medium haul', 'long haul'];

/** The `match_all` baseline every ratio is taken to. */
export const MATCH_ALL: Shape = {
  id: 'match_all',
  kind: 'baseline',
  body: () => ({ query: { match_all: {} }, size: 10 }),
};

export function flightShapes(v: FlightValues): Shape[] {
  const [dLo, dHi] = v.distanceRange;
  const [tLo, tHi] = v.departureRange;
  const distanceWindow = (rnd: () => number, width: number) => {
    const lo = between(rnd, dLo, dHi - width);
    return { gte: lo, lt: lo + width };
  };
  const dayWindow = (rnd: () => number, days: number) => {
    const lo = tLo + Math.floor(rnd() * ((tHi - tLo) / DAY - days)) * DAY;
    return { gte: iso(lo), lt: iso(lo + days * DAY) };
  };
  return [
    MATCH_ALL,
    {
      id: 'term int',
      kind: 'filter',
      body: (r) => ({ query: { term: { distance: pick(r, v.distances) } } }),
    },
    {
      id: 'terms int x5',
      kind: 'filter',
      body: (r) => ({ query: { terms: { delay: Array.from({ length: 5 }, () => pick(r, v.delays)) } } }),
    },
    {
      id: 'range int 2%',
      kind: 'filter',
      body: (r) => ({ query: { range: { distance: distanceWindow(r, 100) } } }),
    },
    {
      id: 'range date 7d',
      kind: 'filter',
      body: (r) => ({ query: { range: { departure: dayWindow(r, 7) } } }),
    },
    {
      id: 'term keyword',
      kind: 'filter',
      body: (r) => ({ query: { term: { flight: pick(r, v.flights) } } }),
    },
    {
      id: 'bool filter+must_not',
      kind: 'filter',
      body: (r) => ({
        query: {
          bool: {
            filter: [{ range: { departure: dayWindow(r, 30) } }, { term: { carrier: pick(r, CARRIERS) } }],
            must_not: [{ term: { delay_class: pick(r, DELAY_CLASSES) } }],
          },
        },
      }),
    },
    {
      id: 'match 2 words',
      kind: 'filter',
      body: (r) => ({ query: { match: { summary: `${pick(r, WORDS)} ${pick(r, WORDS)}` } } }),
    },
    {
      id: 'match_phrase',
      kind: 'filter',
      body: (r) => ({ query: { match_phrase: { summary: pick(r, PHRASES) } } }),
    },
    {
      id: 'prefix keyword',
      kind: 'filter',
      body: (r) => ({ query: { prefix: { flight: `${pick(r, CARRIERS)}${between(r, 1, 9)}` } } }),
    },
    {
      id: 'wildcard keyword',
      kind: 'filter',
      body: (r) => ({
        query: { wildcard: { flight: `${pick(r, CARRIERS)}*${between(r, 0, 9)}${between(r, 0, 9)}` } },
      }),
    },
    { id: 'sort 1 int', kind: 'sort', body: (r) => ({ sort: [{ delay: dir(r) }] }) },
    { id: 'sort 2 kw+int', kind: 'sort', body: (r) => ({ sort: [{ haul: dir(r) }, { distance: dir(r) }] }) },
    {
      id: 'sort 3 kw+date+int',
      kind: 'sort',
      body: (r) => ({ sort: [{ delay_class: dir(r) }, { departure: dir(r) }, { delay: dir(r) }] }),
    },
    {
      id: 'sort+filter',
      kind: 'sort',
      body: (r) => ({
        query: { bool: { filter: [{ range: { distance: distanceWindow(r, 500) } }] } },
        sort: [{ delay: dir(r) }],
      }),
    },
    {
      id: 'search_after deep',
      kind: 'sort',
      body: (r) => ({
        sort: [{ distance: 'asc' }, { id: 'asc' }],
        search_after: [between(r, dLo, dHi), between(r, 0, 199_999)],
      }),
    },
    {
      id: 'total true',
      kind: 'filter',
      body: (r) => ({ query: { range: { delay: { gte: between(r, -20, 60) } } }, track_total_hits: true }),
    },
    {
      id: 'total false',
      kind: 'filter',
      body: (r) => ({ query: { match: { summary: pick(r, WORDS) } }, track_total_hits: false }),
    },
    {
      id: 'date_histogram',
      kind: 'agg',
      body: (r) => ({
        size: 0,
        aggs: {
          h: {
            date_histogram: {
              field: 'departure',
              calendar_interval: pick(r, ['day', 'week', 'month']),
              time_zone: pick(r, ['UTC', '+02:00', '-05:00']),
            },
          },
        },
      }),
    },
    {
      id: 'terms agg',
      kind: 'agg',
      body: (r) => ({
        size: 0,
        aggs: {
          t: {
            terms: {
              field: pick(r, ['carrier', 'delay_class', 'haul', 'part_of_day']),
              size: between(r, 3, 10),
            },
          },
        },
      }),
    },
    {
      id: 'range agg',
      kind: 'agg',
      body: (r) => {
        const a = between(r, dLo, 1000);
        const b = between(r, a + 1, 3000);
        return {
          size: 0,
          aggs: { r: { range: { field: 'distance', ranges: [{ to: a }, { from: a, to: b }, { from: b }] } } },
        };
      },
    },
    {
      id: 'cardinality',
      kind: 'agg',
      body: (r) => ({
        size: 0,
        aggs: { c: { cardinality: { field: pick(r, ['distance', 'delay', 'flight']) } } },
      }),
    },
    {
      id: 'stats',
      kind: 'agg',
      body: (r) => ({ size: 0, aggs: { s: { stats: { field: pick(r, ['distance', 'delay', 'time']) } } } }),
    },
    {
      id: 'composite page',
      kind: 'agg',
      body: (r) => ({
        size: 0,
        aggs: {
          c: {
            composite: {
              size: 20,
              sources: [
                { haul: { terms: { field: 'haul' } } },
                { day: { date_histogram: { field: 'departure', calendar_interval: 'day' } } },
              ],
              after: { haul: pick(r, HAULS), day: tLo + Math.floor(r() * 360) * DAY },
            },
          },
        },
      }),
    },
    {
      id: 'percentiles',
      kind: 'agg',
      body: (r) => ({
        size: 0,
        aggs: {
          p: {
            percentiles: {
              field: pick(r, ['distance', 'delay', 'time']),
              percents: [pick(r, [1, 5, 10]), 50, pick(r, [90, 95, 99])],
            },
          },
        },
      }),
    },
    {
      id: 'top_hits',
      kind: 'agg',
      body: (r) => ({
        size: 0,
        aggs: {
          t: {
            top_hits: {
              size: between(r, 1, 5),
              sort: [{ [pick(r, ['distance', 'delay', 'departure'])]: dir(r) }],
            },
          },
        },
      }),
    },
    {
      id: 'date_histogram+pipelines',
      kind: 'agg',
      body: (r) => ({
        size: 0,
        aggs: {
          h: {
            date_histogram: { field: 'departure', calendar_interval: pick(r, ['week', 'month']) },
            aggs: {
              d: { derivative: { buckets_path: '_count' } },
              c: { cumulative_sum: { buckets_path: '_count' } },
              m: {
                moving_fn: {
                  buckets_path: '_count',
                  window: 4,
                  script: 'MovingFunctions.unweightedAvg(values)',
                },
              },
            },
          },
          top: { max_bucket: { buckets_path: 'h>_count' } },
          avg: { avg_bucket: { buckets_path: 'h>_count' } },
        },
      }),
    },
  ];
}

export function logsShapes(): Shape[] {
  const window = (rnd: () => number, ms: number) => {
    const lo = LOGS_FIRST_MS + Math.floor(rnd() * (LOGS_SPAN_MS - ms));
    return { gte: iso(lo), lt: iso(lo + ms) };
  };
  return [
    MATCH_ALL,
    {
      id: 'logs term status',
      kind: 'filter',
      body: (r) => ({ query: { term: { status: pick(r, [500, 503, 403, 206]) } } }),
    },
    {
      id: 'logs range 1h',
      kind: 'filter',
      body: (r) => ({ query: { range: { '@timestamp': window(r, 3_600_000) } } }),
    },
    {
      id: 'logs bool',
      kind: 'filter',
      body: (r) => ({
        query: {
          bool: {
            filter: [
              { range: { '@timestamp': window(r, DAY) } },
              { term: { method: pick(r, ['POST', 'PUT', 'DELETE']) } },
            ],
            must_not: [{ term: { status: 200 } }],
          },
        },
      }),
    },
    {
      id: 'logs prefix path',
      kind: 'filter',
      body: (r) => ({ query: { prefix: { path: `/${pick(r, PATH_ROOTS)}/1${between(r, 0, 9)}` } } }),
    },
    {
      id: 'logs sort ts+filter',
      kind: 'sort',
      body: (r) => ({
        query: { bool: { filter: [{ term: { status: pick(r, [404, 304]) } }] } },
        sort: [{ '@timestamp': dir(r) }],
      }),
    },
    {
      id: 'logs sort bytes',
      kind: 'sort',
      body: (r) => ({ sort: [{ bytes: dir(r) }, { response_ms: dir(r) }] }),
    },
    {
      id: 'logs date_histogram',
      kind: 'agg',
      body: (r) => ({
        size: 0,
        query: { range: { '@timestamp': window(r, 7 * DAY) } },
        aggs: { h: { date_histogram: { field: '@timestamp', fixed_interval: pick(r, ['1h', '30m']) } } },
      }),
    },
    {
      id: 'logs terms status',
      kind: 'agg',
      body: (r) => ({ size: 0, aggs: { t: { terms: { field: pick(r, ['status', 'method', 'agent']) } } } }),
    },
  ];
}
