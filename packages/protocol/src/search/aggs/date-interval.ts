/**
 * date_histogram intervals (DateIntervalWrapper): `calendar_interval` (`1M`, `week`, …),
 * `fixed_interval` (`90m`, `7d`), or the legacy `interval` — kept working with the 7.x
 * deprecation warning, read as a calendar unit when it is one and a fixed duration otherwise —
 * and `offset` (`+6h`, `-1d`, or millis).
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { here, type ParseCtx } from '../../query/parse-context.ts';
import { text } from '../../query/xcontent-values.ts';
import { parseTimeValue } from '../../values/time-value.ts';
import type { DeclaredField } from './object-parser.ts';
import { longValue, TOKENS } from './object-parser.ts';
import type { CalendarUnit, DateInterval } from './spec.ts';

export const INTERVAL_DEPRECATION =
  '[interval] on [date_histogram] is deprecated, use [fixed_interval] or [calendar_interval] in the future.';

/** DateHistogramAggregationBuilder.DATE_FIELD_UNITS. */
const CALENDAR_UNITS: Readonly<Record<string, CalendarUnit>> = {
  year: 'year',
  '1y': 'year',
  quarter: 'quarter',
  '1q': 'quarter',
  month: 'month',
  '1M': 'month',
  week: 'week',
  '1w': 'week',
  day: 'day',
  '1d': 'day',
  hour: 'hour',
  '1h': 'hour',
  minute: 'minute',
  '1m': 'minute',
  second: 'second',
  '1s': 'second',
};

type IntervalKind = 'none' | 'fixed' | 'calendar' | 'legacy_interval' | 'legacy_date_histo';

/** The interval fields of a date_histogram body, and the interval they set. */
export class DateIntervalReader {
  private kind: IntervalKind = 'none';
  private text = '';

  constructor(
    private readonly ctx: ParseCtx,
    private readonly warnings: string[],
  ) {}

  fields(): Record<string, DeclaredField> {
    const ctx = this.ctx;
    return {
      interval: {
        tokens: TOKENS.NUMBER,
        read: (v) => {
          if (typeof v === 'number' || typeof v === 'bigint') {
            const n = Number(v);
            if (n < 1)
              throw illegalArgument('[interval] must be 1 or greater for aggregation [date_histogram]');
            this.set('legacy_interval', `${Math.trunc(n)}ms`);
          } else {
            const s = text(ctx, v);
            if (s.length === 0)
              throw illegalArgument('[dateHistogramInterval] must not be null: [date_histogram]');
            this.set('legacy_date_histo', s);
          }
          this.warnings.push(INTERVAL_DEPRECATION);
        },
      },
      calendar_interval: {
        tokens: TOKENS.STRING,
        read: (v) => {
          const s = text(ctx, v);
          if (s.length === 0) throw illegalArgument('[interval] must not be null: [date_histogram]');
          if (CALENDAR_UNITS[s] === undefined) {
            throw illegalArgument(`The supplied interval [${s}] could not be parsed as a calendar interval.`);
          }
          this.set('calendar', s);
        },
      },
      fixed_interval: {
        tokens: TOKENS.STRING,
        read: (v) => {
          const s = text(ctx, v);
          if (s.length === 0) throw illegalArgument('[interval] must not be null: [date_histogram]');
          this.set('fixed', s);
          parseTimeValue(s, 'date_histogram.fixedInterval');
        },
      },
    };
  }

  /** DateIntervalWrapper.setIntervalType: the kinds exclude one another. */
  private set(kind: IntervalKind, text: string): void {
    const prev = this.kind;
    const legacy = (k: IntervalKind) => k === 'legacy_interval' || k === 'legacy_date_histo';
    if (prev !== 'none' && prev !== kind) {
      if (legacy(kind) && (prev === 'calendar' || prev === 'fixed')) {
        throw illegalArgument(
          'Cannot use [interval] with [fixed_interval] or [calendar_interval] configuration options.',
        );
      }
      if (kind === 'fixed' && legacy(prev)) {
        throw illegalArgument('Cannot use [fixed_interval] with [interval] configuration option.');
      }
      if (kind === 'fixed' && prev === 'calendar') {
        throw illegalArgument('Cannot use [fixed_interval] with [calendar_interval] configuration option.');
      }
      if (kind === 'calendar' && legacy(prev)) {
        throw illegalArgument('Cannot use [calendar_interval] with [interval] configuration option.');
      }
      if (kind === 'calendar' && prev === 'fixed') {
        throw illegalArgument('Cannot use [calendar_interval] with [fixed_interval] configuration option.');
      }
    }
    // A date-histogram text wins over a number given with it (dateHistogramInterval over interval).
    if (kind === 'legacy_interval' && prev === 'legacy_date_histo') return;
    this.kind = kind;
    this.text = text;
  }

  /** The interval once the body is read (DateIntervalWrapper.createRounding's checks). */
  interval(): DateInterval {
    if (this.kind === 'none' || this.text.length === 0) {
      throw illegalArgument('Invalid interval specified, must be non-null and non-empty');
    }
    if (this.kind === 'calendar') return { kind: 'calendar', unit: CALENDAR_UNITS[this.text]! };
    if (this.kind === 'legacy_date_histo') {
      const unit = CALENDAR_UNITS[this.text];
      if (unit !== undefined) return { kind: 'calendar', unit };
      let millis: number;
      try {
        millis = parseTimeValue(this.text, 'DateIntervalWrapper.interval');
      } catch {
        throw illegalArgument(`Unable to parse interval [${this.text}]`);
      }
      return fixed(millis);
    }
    return fixed(parseTimeValue(this.text, 'date_histogram.fixedInterval'));
  }
}

function fixed(millis: number): DateInterval {
  if (millis <= 0) throw illegalArgument('Zero or negative time interval not supported');
  return { kind: 'fixed', millis };
}

/** DateHistogramAggregationBuilder.parseStringOffset, or millis given as a number. */
export function readOffset(ctx: ParseCtx, v: unknown): number {
  if (typeof v !== 'string') return longValue(ctx, v);
  if (v.length === 0) {
    here(ctx, 'value');
    throw illegalArgument('failed to parse offset []');
  }
  const setting = 'DateHistogramAggregationBuilder.parseOffset';
  if (v[0] === '-') return -parseTimeValue(v.slice(1), setting);
  return parseTimeValue(v[0] === '+' ? v.slice(1) : v, setting);
}
