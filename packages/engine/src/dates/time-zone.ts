/**
 * Time zones for date parsing, date math and formatting: fixed offsets (`Z`, `+01:00`, `-0530`,
 * `UTC+2`) and IANA region ids through Intl. Elasticsearch takes them as java.time ZoneIds.
 */
import { illegalArgument } from '@shoal/protocol';
import { daysFromCivil, MS_PER_DAY } from './calendar.ts';

const MAX_DATE_MS = 8.64e15;

export interface Zone {
  id: string;
  /** Offset from UTC in millis at the given instant. */
  offsetAt(epochMillis: number): number;
  /** Epoch millis of a local date-time (given as millis-as-if-UTC) in this zone. */
  localToUtc(localMillis: number): number;
}

function fixedZone(id: string, offsetMillis: number): Zone {
  return { id, offsetAt: () => offsetMillis, localToUtc: (local) => local - offsetMillis };
}

export const UTC: Zone = fixedZone('Z', 0);

const OFFSET_RE = /^([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$/;

function parseOffsetMillis(s: string): number | undefined {
  const m = OFFSET_RE.exec(s);
  if (!m) return undefined;
  const h = Number(m[2]);
  const min = m[3] ? Number(m[3]) : 0;
  const sec = m[4] ? Number(m[4]) : 0;
  if (h > 18 || min > 59 || sec > 59) return undefined;
  const total = (h * 3600 + min * 60 + sec) * 1000;
  if (total > 18 * 3600 * 1000) return undefined;
  return m[1] === '-' ? -total : total;
}

function regionZone(id: string): Zone | undefined {
  let dtf: Intl.DateTimeFormat;
  try {
    dtf = new Intl.DateTimeFormat('en-US', {
      timeZone: id,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
  } catch {
    return undefined;
  }
  const offsetAt = (epochMillis: number): number => {
    const clamped = Math.max(-MAX_DATE_MS, Math.min(MAX_DATE_MS, epochMillis));
    const floored = Math.floor(clamped / 1000) * 1000;
    let y = 0;
    let mo = 0;
    let d = 0;
    let h = 0;
    let mi = 0;
    let s = 0;
    let bc = false;
    for (const p of dtf.formatToParts(new Date(floored))) {
      switch (p.type) {
        case 'year':
          y = Number(p.value);
          break;
        case 'month':
          mo = Number(p.value);
          break;
        case 'day':
          d = Number(p.value);
          break;
        case 'hour':
          h = Number(p.value);
          break;
        case 'minute':
          mi = Number(p.value);
          break;
        case 'second':
          s = Number(p.value);
          break;
        case 'era':
          bc = p.value.startsWith('B');
          break;
      }
    }
    if (bc) y = 1 - y;
    const asUtc = daysFromCivil(y, mo, d) * MS_PER_DAY + h * 3_600_000 + mi * 60_000 + s * 1000;
    return asUtc - floored;
  };
  return {
    id,
    offsetAt,
    localToUtc(local) {
      // Two passes settle on the offset in force at the result; in a DST gap this lands after
      // the gap, as java.time's ZonedDateTime.ofLocal does.
      const o1 = offsetAt(local);
      const guess = local - o1;
      const o2 = offsetAt(guess);
      if (o1 === o2) return guess;
      const second = local - o2;
      return offsetAt(second) === o2 ? second : Math.max(guess, second);
    },
  };
}

const CACHE = new Map<string, Zone>();

/** Resolves a time zone id as Elasticsearch's `time_zone` parameters accept it. */
export function resolveZone(id: string): Zone {
  const cached = CACHE.get(id);
  if (cached) return cached;
  const zone = computeZone(id);
  if (!zone) {
    throw illegalArgument(
      /^[+-]/.test(id) ? `Invalid ID for ZoneOffset, invalid format: ${id}` : `Unknown time-zone ID: ${id}`,
    );
  }
  CACHE.set(id, zone);
  return zone;
}

function computeZone(id: string): Zone | undefined {
  if (id === 'Z' || id === 'UTC' || id === 'GMT' || id === 'UT' || id === 'Etc/UTC') return fixedZone(id, 0);
  if (id[0] === '+' || id[0] === '-') {
    const off = parseOffsetMillis(id);
    return off === undefined ? undefined : fixedZone(id, off);
  }
  const prefixed = /^(UTC|GMT|UT)([+-].*)$/.exec(id);
  if (prefixed) {
    const off = parseOffsetMillis(prefixed[2]!);
    return off === undefined ? undefined : fixedZone(id, off);
  }
  return regionZone(id);
}

/** Parses an offset text found inside a date (`+01:00`, `-0530`, `+01`). */
export function offsetFromText(s: string): number | undefined {
  return parseOffsetMillis(s);
}
