/**
 * vega-datasets' `flights-200k.json`: U.S. flight delay statistics (Bureau of Transportation
 * Statistics), one row per flight, `{ delay, distance, time }` and nothing else:
 *
 * - `delay`: the delay in minutes, an integer; negative when the flight was ahead of schedule
 *   (the file holds -86 … 1444);
 * - `distance`: the distance flown in miles, an integer (30 … 4962);
 * - `time`: the hour of day as a decimal number, 0 ≤ time < 24 (e.g. 13.5 is 13:30).
 *
 * The rows have no text, and a search engine benchmark needs one, so each document gets a
 * `summary` that is derived from the row's own values and nothing else (no random words, so a
 * `match` on it selects flights by real properties):
 *
 * - delay class: delay < 0 → "early"; 0 ≤ delay < 15 → "on time" (the 15-minute threshold is
 *   the BTS/FAA definition of an on-time flight); 15 ≤ delay < 60 → "late"; delay ≥ 60 →
 *   "very late";
 * - haul class by distance: < 500 miles → "short haul"; 500 ≤ distance < 1500 → "medium
 *   haul"; ≥ 1500 → "long haul";
 * - part of the day from `time`: [6, 12) → "morning"; [12, 17) → "afternoon"; [17, 21) →
 *   "evening"; [21, 24) and [0, 6) → "night";
 *
 * joined as `<delay> <haul> <part of day> flight`, e.g. "very late long haul evening flight"
 * or "on time short haul morning flight". The numeric fields are kept as they are, and each
 * document carries `id`, its 0-based row number in the file (also used as its `_id`), so any
 * document can be traced back to its row.
 */
import type { SampleDataset } from './dataset.ts';
import { readDatasetFile } from './dataset.ts';

export interface FlightRow {
  delay: number;
  distance: number;
  time: number;
}

export interface FlightDoc extends FlightRow {
  id: number;
  summary: string;
}

export function delayClass(delay: number): string {
  if (delay < 0) return 'early';
  if (delay < 15) return 'on time';
  if (delay < 60) return 'late';
  return 'very late';
}

export function haulClass(distance: number): string {
  if (distance < 500) return 'short haul';
  if (distance < 1500) return 'medium haul';
  return 'long haul';
}

export function partOfDay(time: number): string {
  if (time >= 6 && time < 12) return 'morning';
  if (time >= 12 && time < 17) return 'afternoon';
  if (time >= 17 && time < 21) return 'evening';
  return 'night';
}

export function flightSummary(row: FlightRow): string {
  return `${delayClass(row.delay)} ${haulClass(row.distance)} ${partOfDay(row.time)} flight`;
}

export function flightDoc(row: FlightRow, id: number): FlightDoc {
  return { id, delay: row.delay, distance: row.distance, time: row.time, summary: flightSummary(row) };
}

export const flightsMappings = {
  properties: {
    id: { type: 'integer' },
    delay: { type: 'integer' },
    distance: { type: 'integer' },
    time: { type: 'float' },
    summary: { type: 'text' },
  },
};

let rows: FlightRow[] | undefined;

/** The raw rows of flights-200k.json (read once, then cached). */
export function flightRows(): FlightRow[] {
  rows ??= readDatasetFile<FlightRow[]>('flights-200k.json');
  return rows;
}

export const flights: SampleDataset<FlightDoc> = {
  name: 'flights',
  index: 'flights',
  mappings: flightsMappings,
  count: () => flightRows().length,
  *docs() {
    const all = flightRows();
    for (let i = 0; i < all.length; i++) yield { id: String(i), source: flightDoc(all[i]!, i) };
  },
};
