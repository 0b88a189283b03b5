/**
 * The data set of the query-shape benchmark: flights-200k with fields derived from each row
 * (so every shape has a field to work on: a date, low- and high-cardinality keywords), and an
 * optional generated web-server log set of any size. Both are deterministic: the same rows
 * every run, and a seeded random generator for the logs and the requests' values.
 */

import { delayClass, haulClass, partOfDay } from '../sample-data/flights.ts';
import type { SampleDataset } from '../sample-data/index.ts';
import { flightRows, flightSummary } from '../sample-data/index.ts';

/** mulberry32: a small, fast, seeded 32-bit generator (values in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const CARRIERS = ['AA', 'AS', 'B6', 'DL', 'F9', 'G4', 'HA', 'NK', 'OO', 'UA', 'WN', 'YX'];
/** The first departure day; the rows spread over one year from it. */
export const FIRST_DAY_MS = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;
const ROWS_PER_DAY = 548;

/** A row's derived carrier and flight number (a fixed hash of its row number). */
export function flightNumber(id: number): string {
  const h = Math.imul(id + 1, 2654435761) >>> 0;
  return `${CARRIERS[h % CARRIERS.length]!}${100 + ((h >>> 8) % 9000)}`;
}

/** A row's departure instant: one day per 548 rows, at the row's hour of day. */
export function departureMs(id: number, time: number): number {
  return FIRST_DAY_MS + Math.floor(id / ROWS_PER_DAY) * DAY_MS + Math.round(time * 3_600_000);
}

export const flightsQueryIndex = 'flights-q';

export const flightsQuery: SampleDataset = {
  name: 'flights-q',
  index: flightsQueryIndex,
  mappings: {
    properties: {
      id: { type: 'integer' },
      delay: { type: 'integer' },
      distance: { type: 'integer' },
      time: { type: 'float' },
      departure: { type: 'date' },
      summary: { type: 'text' },
      delay_class: { type: 'keyword' },
      haul: { type: 'keyword' },
      part_of_day: { type: 'keyword' },
      carrier: { type: 'keyword' },
      flight: { type: 'keyword' },
    },
  },
  count: () => flightRows().length,
  *docs() {
    const rows = flightRows();
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const flight = flightNumber(i);
      yield {
        id: String(i),
        source: {
          id: i,
          delay: r.delay,
          distance: r.distance,
          time: r.time,
          departure: new Date(departureMs(i, r.time)).toISOString(),
          summary: flightSummary(r),
          delay_class: delayClass(r.delay),
          haul: haulClass(r.distance),
          part_of_day: partOfDay(r.time),
          carrier: flight.slice(0, 2),
          flight,
        },
      };
    }
  },
};

/** What the request generators draw from: the data's own values. */
export interface FlightValues {
  distances: number[];
  delays: number[];
  flights: string[];
  /** [min, max] of each numeric field. */
  distanceRange: [number, number];
  delayRange: [number, number];
  departureRange: [number, number];
}

export function flightValues(): FlightValues {
  const rows = flightRows();
  const distances = new Set<number>();
  const delays = new Set<number>();
  const flights = new Set<string>();
  let dMin = Infinity;
  let dMax = -Infinity;
  let lMin = Infinity;
  let lMax = -Infinity;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    distances.add(r.distance);
    delays.add(r.delay);
    if (i % 50 === 0) flights.add(flightNumber(i));
    dMin = Math.min(dMin, r.distance);
    dMax = Math.max(dMax, r.distance);
    lMin = Math.min(lMin, r.delay);
    lMax = Math.max(lMax, r.delay);
  }
  return {
    distances: [...distances],
    delays: [...delays],
    flights: [...flights],
    distanceRange: [dMin, dMax],
    delayRange: [lMin, lMax],
    departureRange: [FIRST_DAY_MS, departureMs(rows.length - 1, 24)],
  };
}

// --- The generated web-server logs (`--logs`) ----------------------------------------------

export const logsIndex = 'logs-q';
const METHODS = ['GET', 'GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'HEAD'];
const STATUSES = [200, 200, 200, 200, 200, 200, 200, 304, 301, 404, 404, 500, 503, 206, 403];
const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64)',
  'Mozilla/5.0 (Macintosh)',
  'curl/8.4.0',
  'Googlebot/2.1',
  'okhttp/4.12',
];
export const PATH_ROOTS = ['api', 'static', 'images', 'blog', 'docs', 'shop', 'account', 'search'];
export const LOGS_FIRST_MS = Date.UTC(2024, 5, 1);
/** Every log line is at most this long after the first (30 days). */
export const LOGS_SPAN_MS = 30 * 86_400_000;

export function logsDataset(count: number, seed = 7): SampleDataset {
  return {
    name: 'logs-q',
    index: logsIndex,
    mappings: {
      properties: {
        '@timestamp': { type: 'date' },
        status: { type: 'integer' },
        bytes: { type: 'long' },
        client_ip: { type: 'ip' },
        path: { type: 'keyword' },
        method: { type: 'keyword' },
        agent: { type: 'keyword' },
        response_ms: { type: 'float' },
        message: { type: 'text' },
      },
    },
    count: () => count,
    *docs() {
      const rnd = seededRandom(seed);
      const step = LOGS_SPAN_MS / count;
      for (let i = 0; i < count; i++) {
        const root = PATH_ROOTS[Math.floor(rnd() ** 2 * PATH_ROOTS.length)]!;
        const path = `/${root}/${Math.floor(rnd() * 2000)}`;
        const method = METHODS[Math.floor(rnd() * METHODS.length)]!;
        const status = STATUSES[Math.floor(rnd() * STATUSES.length)]!;
        const ip = `10.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}.${1 + Math.floor(rnd() * 254)}`;
        yield {
          id: String(i),
          source: {
            '@timestamp': new Date(LOGS_FIRST_MS + Math.floor(i * step)).toISOString(),
            status,
            bytes: Math.floor(200 + rnd() ** 3 * 2_000_000),
            client_ip: ip,
            path,
            method,
            agent: AGENTS[Math.floor(rnd() * AGENTS.length)]!,
            response_ms: Math.round(rnd() ** 2 * 5000) / 10,
            message: `${method} ${path} ${status}`,
          },
        };
      }
    },
  };
}
