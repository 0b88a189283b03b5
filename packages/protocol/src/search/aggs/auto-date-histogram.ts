/**
 * auto_date_histogram (AutoDateHistogramAggregationBuilder, InternalAutoDateHistogram): date
 * buckets whose interval is picked to give no more than `buckets` of them. The ladder of
 * roundings — seconds, minutes, hours, days, months, years — each allows a few multiples of its
 * unit (inner intervals: 7 days, 3 months, 10 years …). A shard buckets its values at the
 * rounding its own range needs; the merge re-rounds every shard's keys at the coarsest of their
 * roundings, coarser still while there are more than `buckets × largest multiple`; the final
 * reduce fills the gaps, picks the rounding the whole range needs, and merges runs of
 * consecutive buckets by the smallest multiple that brings the count to `buckets`. The response
 * names the interval it settled on (`7d`).
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { intValue, text } from '../../query/xcontent-values.ts';
import type { BodyContext, DraftOf, SpecDraft } from './body-context.ts';
import { readDeclared, TOKENS } from './object-parser.ts';
import type { AggPartial, KeyBucket } from './partial.ts';
import type { AutoDateHistogramPartial } from './partial-more-buckets.ts';
import { DEFAULT_MAX_BUCKETS, type Renderer } from './render.ts';
import type { AggSpec, AutoDateHistogramSpec, CalendarUnit, DateRounding } from './spec.ts';
import type { AggDates } from './value-text.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

export interface RoundingStep {
  readonly unit: CalendarUnit;
  readonly abbreviation: string;
  /** A rough length of one unit, to skip ahead before counting buckets exactly. */
  readonly roughMillis: number;
  readonly innerIntervals: readonly number[];
}

const LADDER: readonly RoundingStep[] = [
  { unit: 'second', abbreviation: 's', roughMillis: 1000, innerIntervals: [1, 5, 10, 30] },
  { unit: 'minute', abbreviation: 'm', roughMillis: 60_000, innerIntervals: [1, 5, 10, 30] },
  { unit: 'hour', abbreviation: 'h', roughMillis: 3_600_000, innerIntervals: [1, 3, 12] },
  { unit: 'day', abbreviation: 'd', roughMillis: 86_400_000, innerIntervals: [1, 7] },
  { unit: 'month', abbreviation: 'M', roughMillis: 30 * 86_400_000, innerIntervals: [1, 3] },
  { unit: 'year', abbreviation: 'y', roughMillis: 365 * 86_400_000, innerIntervals: [1, 5, 10, 20, 50, 100] },
];

const MINIMUM_INTERVALS = ['year', 'month', 'day', 'hour', 'minute', 'second'] as const;

/** The roundings an aggregation uses: the ladder from its `minimum_interval` up. */
export function roundingLadder(spec: AutoDateHistogramSpec): readonly RoundingStep[] {
  const from =
    spec.minimumInterval === undefined ? 0 : LADDER.findIndex((s) => s.unit === spec.minimumInterval);
  return LADDER.slice(from);
}

const maxInner = (s: RoundingStep) => s.innerIntervals[s.innerIntervals.length - 1]!;

export function parseAutoDateHistogram(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const draft: SourceDraft = {};
  let buckets = 10;
  let minimumInterval: AutoDateHistogramSpec['minimumInterval'];
  const seen = readDeclared(ctx, 'auto_date_histogram', body, {
    ...sourceFields(ctx, 'auto_date_histogram', draft, { formattable: true, timeZoneAware: true }),
    buckets: {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        buckets = intValue(ctx, v);
        if (buckets <= 0) throw illegalArgument(`buckets must be greater than 0 for [${name}]`);
      },
    },
    minimum_interval: {
      tokens: new Set([...TOKENS.STRING, 'VALUE_NULL' as const]),
      read: (v) => {
        if (v === null) return;
        const unit = text(ctx, v);
        const known = MINIMUM_INTERVALS.find((u) => u === unit);
        if (known === undefined) {
          throw illegalArgument(`minimum_interval must be one of [[${MINIMUM_INTERVALS.join(', ')}]]`);
        }
        minimumInterval = known;
      },
    },
  });
  const spec: DraftOf<'auto_date_histogram'> = {
    type: 'auto_date_histogram',
    source: finishSource(draft, seen),
    buckets,
  };
  if (minimumInterval !== undefined) spec.minimumInterval = minimumInterval;
  // Every bucket of the finest rounding may have to be held: the target is bounded by search.max_buckets.
  const ladder = roundingLadder(spec as AutoDateHistogramSpec);
  const widest = Math.max(1, ...ladder.slice(0, -1).map(maxInner));
  const ceiling = Math.floor(DEFAULT_MAX_BUCKETS / widest);
  if (buckets > ceiling) throw illegalArgument(`buckets must be less than ${ceiling}`);
  return spec;
}

/** The date_histogram rounding of a step of the ladder, in the aggregation's time zone. */
export function stepRounding(step: RoundingStep, timeZone: string | undefined): DateRounding {
  const r: { interval: DateRounding['interval']; offsetMillis: number; timeZone?: string } = {
    interval: { kind: 'calendar', unit: step.unit },
    offsetMillis: 0,
  };
  if (timeZone !== undefined) r.timeZone = timeZone;
  return r;
}

/**
 * InternalAutoDateHistogram.getAppropriateRounding: the first rounding from `from` up whose
 * bucket count over [minKey, maxKey] is at most `target` times its largest multiple.
 */
export function appropriateRounding(
  minKey: number,
  maxKey: number,
  from: number,
  ladder: readonly RoundingStep[],
  target: number,
  dates: Pick<AggDates, 'nextKey'>,
  timeZone: string | undefined,
): number {
  if (from >= ladder.length - 1) return from;
  let idx = from;
  // A rough estimate first, so that the exact count below walks few buckets.
  for (let i = from + 1; i < ladder.length; i++) {
    const rough = (maxKey - minKey) / ladder[i]!.roughMillis;
    if (rough < target * maxInner(ladder[i]!)) {
      idx = i - 1;
      break;
    }
    idx = i;
  }
  for (; idx < ladder.length; idx++) {
    const rounding = stepRounding(ladder[idx]!, timeZone);
    const limit = target * maxInner(ladder[idx]!);
    let required = 0;
    for (let key = minKey; key < maxKey && required <= limit; key = dates.nextKey(key, rounding)) required++;
    if (required <= limit) return idx;
  }
  return ladder.length - 1;
}

type Merge = (subs: readonly AggSpec[], parts: readonly (readonly AggPartial[])[]) => AggPartial[];

/** Buckets (ascending) re-keyed at `rounding`, those landing on one key merged. */
function rebucket(
  buckets: readonly KeyBucket[],
  round: (key: number) => number,
  subs: readonly AggSpec[],
  merge: Merge,
): KeyBucket[] {
  const out: KeyBucket[] = [];
  let run: KeyBucket[] = [];
  let runKey = Number.NaN;
  const flush = () => {
    if (run.length === 0) return;
    out.push(mergeRun(runKey, run, subs, merge));
    run = [];
  };
  for (const b of buckets) {
    const key = round(b.key);
    if (key !== runKey) {
      flush();
      runKey = key;
    }
    run.push(b);
  }
  flush();
  return out;
}

function mergeRun(key: number, run: readonly KeyBucket[], subs: readonly AggSpec[], merge: Merge): KeyBucket {
  if (run.length === 1) return { ...run[0]!, key };
  return {
    key,
    docCount: run.reduce((n, b) => n + b.docCount, 0),
    aggs: merge(
      subs,
      run.map((b) => b.aggs),
    ),
  };
}

/** Coarser roundings while there are more buckets than the largest multiple can bring under the target. */
function coarsenIfNeeded(
  spec: AutoDateHistogramSpec,
  buckets: KeyBucket[],
  idx: number,
  dates: AggDates,
  merge: Merge,
): { buckets: KeyBucket[]; idx: number } {
  const ladder = roundingLadder(spec);
  while (buckets.length > spec.buckets * maxInner(ladder[idx]!) && idx < ladder.length - 1) {
    idx++;
    const rounding = stepRounding(ladder[idx]!, spec.source.timeZone);
    buckets = rebucket(buckets, (k) => dates.round(k, rounding), spec.aggs, merge);
  }
  return { buckets, idx };
}

/**
 * Shards' buckets merged by key, keeping the coarsest rounding any shard used: the keys are
 * re-rounded to it by the final reduce, which alone has the date rules (AggDates).
 */
export function mergeAutoDateHistograms(
  spec: AutoDateHistogramSpec,
  parts: readonly AutoDateHistogramPartial[],
  merge: Merge,
): AutoDateHistogramPartial {
  const byKey = new Map<number, KeyBucket[]>();
  for (const p of parts) {
    for (const b of p.buckets) {
      const run = byKey.get(b.key);
      if (run) run.push(b);
      else byKey.set(b.key, [b]);
    }
  }
  const buckets = [...byKey]
    .map(([key, run]) => mergeRun(key, run, spec.aggs, merge))
    .sort((a, b) => a.key - b.key);
  const mapped = parts.find((p) => !p.unmapped) ?? parts[0]!;
  const out: { -readonly [K in keyof AutoDateHistogramPartial]: AutoDateHistogramPartial[K] } = {
    t: 'auto_date_histogram',
    fmt: mapped.fmt,
    roundingIdx: Math.max(...parts.map((p) => p.roundingIdx)),
    buckets,
  };
  if (mapped.unmapped) out.unmapped = true;
  const empty = parts.find((p) => p.empty)?.empty;
  if (empty) out.empty = empty;
  return out;
}

/** The final reduce: gaps filled, the rounding the whole range needs, consecutive buckets merged. */
export function renderAutoDateHistogram(
  r: Renderer,
  spec: AutoDateHistogramSpec,
  p: AutoDateHistogramPartial,
  out: Record<string, unknown>,
  merge: Merge,
  empty: readonly AggPartial[],
): void {
  const ladder = roundingLadder(spec);
  const tz = spec.source.timeZone;
  let idx = p.roundingIdx;
  const shardRounding = stepRounding(ladder[idx]!, tz);
  let buckets = rebucket(p.buckets, (k) => r.dates.round(k, shardRounding), spec.aggs, merge);
  ({ buckets, idx } = coarsenIfNeeded(spec, buckets, idx, r.dates, merge));
  let inner = 1;
  if (buckets.length > 0) {
    idx = appropriateRounding(
      buckets[0]!.key,
      buckets[buckets.length - 1]!.key,
      idx,
      ladder,
      spec.buckets,
      r.dates,
      tz,
    );
    const rounding = stepRounding(ladder[idx]!, tz);
    buckets = withGaps(
      r,
      rebucket(buckets, (k) => r.dates.round(k, rounding), spec.aggs, merge),
      rounding,
      empty,
    );
    ({ buckets, idx } = coarsenIfNeeded(spec, buckets, idx, r.dates, merge));
    if (buckets.length > spec.buckets) {
      for (const interval of ladder[idx]!.innerIntervals) {
        if (Math.ceil(buckets.length / interval) <= spec.buckets) {
          inner = interval;
          const groups: KeyBucket[] = [];
          for (let i = 0; i < buckets.length; i += interval) {
            const run = buckets.slice(i, i + interval);
            groups.push(mergeRun(run[0]!.key, run, spec.aggs, merge));
          }
          buckets = groups;
          break;
        }
      }
    }
  }
  r.consumeBuckets(buckets.length);
  out.buckets = buckets.map((b) => {
    const o: Record<string, unknown> = {};
    if (p.fmt.kind === 'date') o.key_as_string = r.dates.format(b.key, p.fmt.pattern, p.fmt.timeZone);
    o.key = b.key;
    o.doc_count = b.docCount;
    r.renderAll(spec.aggs, b.aggs, o);
    return o;
  });
  out.interval = `${inner}${ladder[idx]!.abbreviation}`;
}

/** Empty buckets between the first and the last key, one per rounding step. */
function withGaps(
  r: Renderer,
  buckets: readonly KeyBucket[],
  rounding: DateRounding,
  empty: readonly AggPartial[],
): KeyBucket[] {
  const out: KeyBucket[] = [];
  let last: KeyBucket | undefined;
  for (const b of buckets) {
    if (last) {
      for (let key = r.dates.nextKey(last.key, rounding); key < b.key; key = r.dates.nextKey(key, rounding)) {
        out.push({ key, docCount: 0, aggs: empty });
        // search.max_buckets bounds the gaps too (the count is consumed once, at the end).
        if (out.length > r.maxBuckets) r.consumeBuckets(out.length);
      }
    }
    out.push(b);
    last = b;
  }
  return out;
}
