/**
 * Date math as Elasticsearch's JavaDateMathParser evaluates it: `now` or `<date>||` as the
 * anchor, then `+N<unit>`, `-N<unit>` and `/<unit>` (units y M w d h H m s). With `roundUp`
 * (range bounds `gt` and `lte`) a rounding goes to the last millisecond of its unit, and an
 * anchor without math fills its missing fields with their maxima; otherwise to the first.
 * Calendar units move local time in the time zone; hours, minutes and seconds move the instant.
 */

import { illegalArgument } from '@shoal/protocol';
import {
  daysFromCivil,
  daysInMonth,
  isoDayOfWeek,
  type LocalDateTime,
  localFromEpoch,
  MS_PER_DAY,
} from './calendar.ts';
import { parseException } from './errors.ts';
import { dateFormatter } from './formatter.ts';
import type { InstantValue } from './parsed-fields.ts';
import { type DateResolution, toResolution } from './resolution.ts';
import { resolveZone, UTC, type Zone } from './time-zone.ts';

export interface DateMathOptions {
  roundUp: boolean;
  timeZone?: string;
  nowMillis: number;
}

function toLocal(v: InstantValue, zone: Zone): LocalDateTime {
  return localFromEpoch(v.millis, v.nanoOfMilli, zone.offsetAt(v.millis));
}

function fromLocal(l: LocalDateTime, zone: Zone): InstantValue {
  const local =
    daysFromCivil(l.year, l.month, l.day) * MS_PER_DAY +
    l.hour * 3_600_000 +
    l.minute * 60_000 +
    l.second * 1000 +
    Math.floor(l.nano / 1_000_000);
  return { millis: zone.localToUtc(local), nanoOfMilli: l.nano % 1_000_000 };
}

function plusMonths(l: LocalDateTime, months: number): void {
  const total = l.year * 12 + (l.month - 1) + months;
  l.year = Math.floor(total / 12);
  l.month = total - l.year * 12 + 1;
  l.day = Math.min(l.day, daysInMonth(l.year, l.month));
}

function plusDays(l: LocalDateTime, days: number): void {
  const d = daysFromCivil(l.year, l.month, l.day) + days;
  const c = localFromEpoch(d * MS_PER_DAY, 0, 0);
  l.year = c.year;
  l.month = c.month;
  l.day = c.day;
}

function startOfDay(l: LocalDateTime): void {
  l.hour = 0;
  l.minute = 0;
  l.second = 0;
  l.nano = 0;
}

function applyMath(math: string, start: InstantValue, roundUp: boolean, zone: Zone): InstantValue {
  let v = start;
  let i = 0;
  while (i < math.length) {
    const c = math[i++]!;
    let round = false;
    let sign = 1;
    if (c === '/') round = true;
    else if (c === '+') sign = 1;
    else if (c === '-') sign = -1;
    else throw parseException(`operator not supported for date math [${math}]`);
    if (i >= math.length) throw parseException(`truncated date math [${math}]`);
    let num = 1;
    if (math[i]! >= '0' && math[i]! <= '9') {
      const from = i;
      while (i < math.length && math[i]! >= '0' && math[i]! <= '9') i++;
      if (i >= math.length) throw parseException(`truncated date math [${math}]`);
      num = Number(math.slice(from, i));
    }
    if (round && num !== 1)
      throw parseException(`rounding \`/\` can only be used on single unit types [${math}]`);
    const unit = math[i++]!;
    const n = sign * num;
    switch (unit) {
      case 'y':
      case 'M':
      case 'w':
      case 'd': {
        const l = toLocal(v, zone);
        if (round) {
          startOfDay(l);
          if (unit === 'y') {
            l.month = 1;
            l.day = 1;
            if (roundUp) l.year += 1;
          } else if (unit === 'M') {
            l.day = 1;
            if (roundUp) plusMonths(l, 1);
          } else if (unit === 'w') {
            const dow = isoDayOfWeek(daysFromCivil(l.year, l.month, l.day));
            plusDays(l, 1 - dow);
            if (roundUp) plusDays(l, 7);
          } else if (roundUp) {
            plusDays(l, 1);
          }
        } else if (unit === 'y') {
          plusMonths(l, 12 * n);
        } else if (unit === 'M') {
          plusMonths(l, n);
        } else {
          plusDays(l, unit === 'w' ? 7 * n : n);
        }
        v = fromLocal(l, zone);
        break;
      }
      case 'h':
      case 'H':
      case 'm':
      case 's': {
        const unitMs = unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000;
        if (round) {
          // Truncate in local time so zones with sub-hour offsets round like java.time does.
          const offset = zone.offsetAt(v.millis);
          const local = v.millis + offset;
          const truncated = Math.floor(local / unitMs) * unitMs;
          v = { millis: truncated - offset + (roundUp ? unitMs : 0), nanoOfMilli: 0 };
        } else {
          v = { millis: v.millis + n * unitMs, nanoOfMilli: v.nanoOfMilli };
        }
        break;
      }
      default:
        throw parseException(`unit [${unit}] not supported for date math [${math}]`);
    }
    if (round && roundUp) v = { millis: v.millis - 1, nanoOfMilli: v.nanoOfMilli };
  }
  return v;
}

function parseAnchor(text: string, format: string, roundUp: boolean, zone: Zone): InstantValue {
  const out: InstantValue = { millis: 0, nanoOfMilli: 0 };
  const err = dateFormatter(format).parse(text, roundUp, zone, out);
  if (err !== null) {
    const inner = `failed to parse date field [${text}] with format [${format}]`;
    throw parseException(`${inner}: [${inner}]`, illegalArgument(inner));
  }
  return out;
}

/**
 * Resolves a range bound or other date-math expression (`now-1d/d`, `2020-01-01||+1M/d`,
 * `2020-01-01`). Returns epoch millis (number) or epoch nanos (bigint). Errors are
 * parse_exception with Elasticsearch's texts.
 */
export function resolveDateMath(
  expr: string,
  format: string,
  resolution: DateResolution,
  opts: DateMathOptions,
): number | bigint {
  const zone = opts.timeZone ? resolveZone(opts.timeZone) : UTC;
  let v: InstantValue;
  if (expr.startsWith('now')) {
    v = applyMath(expr.slice(3), { millis: opts.nowMillis, nanoOfMilli: 0 }, opts.roundUp, zone);
  } else {
    const idx = expr.indexOf('||');
    if (idx < 0) {
      v = parseAnchor(expr, format, opts.roundUp, zone);
    } else {
      v = applyMath(
        expr.slice(idx + 2),
        parseAnchor(expr.slice(0, idx), format, false, zone),
        opts.roundUp,
        zone,
      );
    }
  }
  return toResolution(v, resolution);
}
