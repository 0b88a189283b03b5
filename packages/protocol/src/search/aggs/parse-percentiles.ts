/**
 * percentiles and percentile_ranks bodies (PercentilesAggregationBuilder,
 * PercentileRanksAggregationBuilder): the values source, `percents` / `values`, `keyed`, and
 * the method — `tdigest: {compression}` (the default, 100) or `hdr:
 * {number_of_significant_value_digits}` (default 3), never both.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { here } from '../../query/parse-context.ts';
import { booleanValue, doubleValue, intValue, text } from '../../query/xcontent-values.ts';
import { javaDouble } from '../../values/java-double.ts';
import type { BodyContext, SpecDraft } from './body-context.ts';
import { readDeclared, TOKENS } from './object-parser.ts';
import type { PercentilesMethod } from './spec.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

export const DEFAULT_PERCENTS: readonly number[] = [1, 5, 25, 50, 75, 95, 99];
export const DEFAULT_COMPRESSION = 100;
const DEFAULT_DIGITS = 3;

/** A list of doubles (`percents`, `values`): not empty, each a number. */
export function doubleList(b: BodyContext, key: string, v: unknown): number[] {
  const list = v as unknown[];
  if (list.length === 0) throw illegalArgument(`[${key}] must not be empty: [${b.name}]`);
  return list.map((x, i) => doubleValue(b.ctx, x, i));
}

/** Percents must lie in [0, 100]. */
export function checkPercents(b: BodyContext, percents: readonly number[]): void {
  for (const p of percents) {
    if (!(p >= 0 && p <= 100)) {
      here(b.ctx, 'value');
      throw illegalArgument(`percent must be in [0,100], got [${javaDouble(p)}]: [${b.name}]`);
    }
  }
}

export function parsePercentiles(type: 'percentiles' | 'percentile_ranks') {
  return (b: BodyContext, body: Record<string, unknown>): SpecDraft => {
    const draft: SourceDraft = {};
    let points: number[] | undefined;
    let keyed = true;
    let tdigest: { compression: number } | undefined;
    let hdr: { digits: number } | undefined;
    const fields = sourceFields(b.ctx, type, draft, { formattable: true, timeZoneAware: false });
    const listKey = type === 'percentiles' ? 'percents' : 'values';
    fields[listKey] = {
      tokens: TOKENS.ARRAY,
      read: (v) => {
        points = doubleList(b, listKey, v);
        if (type === 'percentiles') checkPercents(b, points);
      },
    };
    fields.keyed = { tokens: TOKENS.BOOLEAN, read: (v) => (keyed = booleanValue(b.ctx, v)) };
    fields.tdigest = {
      tokens: TOKENS.OBJECT,
      read: (v) => {
        const t = { compression: DEFAULT_COMPRESSION };
        readDeclared(b.ctx, 'tdigest', v as Record<string, unknown>, {
          compression: {
            tokens: TOKENS.NUMBER,
            read: (c) => {
              const n = doubleValue(b.ctx, c);
              if (n < 0) {
                throw illegalArgument(
                  `[compression] must be greater than or equal to 0. Found [${javaDouble(n)}] in [${b.name}]`,
                );
              }
              t.compression = n;
            },
          },
          // Which digest implementation runs: Shoal has the one.
          execution_hint: { tokens: TOKENS.STRING, read: (h) => text(b.ctx, h) },
        });
        tdigest = t;
      },
    };
    fields.hdr = {
      tokens: TOKENS.OBJECT,
      read: (v) => {
        const h = { digits: DEFAULT_DIGITS };
        readDeclared(b.ctx, 'hdr', v as Record<string, unknown>, {
          number_of_significant_value_digits: {
            tokens: TOKENS.NUMBER,
            read: (d) => {
              const n = intValue(b.ctx, d);
              if (n < 0 || n > 5)
                throw illegalArgument('[numberOfSignificantValueDigits] must be between 0 and 5');
              h.digits = n;
            },
          },
        });
        hdr = h;
      },
    };
    const seen = readDeclared(b.ctx, type, body, fields);
    if (tdigest && hdr) {
      throw illegalArgument(`Only one percentiles method should be declared.`);
    }
    if (type === 'percentile_ranks' && points === undefined) {
      throw illegalArgument(`[values] must not be null: [${b.name}]`);
    }
    const method: PercentilesMethod = hdr
      ? { kind: 'hdr', digits: hdr.digits }
      : { kind: 'tdigest', compression: tdigest?.compression ?? DEFAULT_COMPRESSION };
    return {
      type,
      source: finishSource(draft, seen),
      points: [...(points ?? DEFAULT_PERCENTS)].sort((x, y) => x - y),
      keyed,
      method,
    };
  };
}

/** boxplot and median_absolute_deviation: a values source and `compression`. */
export function parseDigestMetric(type: 'boxplot' | 'median_absolute_deviation') {
  return (b: BodyContext, body: Record<string, unknown>): SpecDraft => {
    const draft: SourceDraft = {};
    let compression = type === 'boxplot' ? DEFAULT_COMPRESSION : 1000;
    const fields = sourceFields(b.ctx, type, draft, { formattable: true, timeZoneAware: false });
    fields.compression = {
      tokens: TOKENS.NUMBER,
      read: (v) => {
        const n = doubleValue(b.ctx, v);
        if (n <= 0) {
          throw illegalArgument(
            `[compression] must be greater than 0. Found [${javaDouble(n)}] in [${b.name}]`,
          );
        }
        compression = n;
      },
    };
    fields.execution_hint = { tokens: TOKENS.STRING, read: (v) => text(b.ctx, v) };
    const seen = readDeclared(b.ctx, type, body, fields);
    return { type, source: finishSource(draft, seen), compression };
  };
}
