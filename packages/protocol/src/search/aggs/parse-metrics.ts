/**
 * Metric aggregation bodies: avg, sum, min, max, value_count, stats, extended_stats (`sigma`),
 * cardinality (`precision_threshold`), as their builders' ObjectParsers read them.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { booleanValue, doubleValue, text } from '../../query/xcontent-values.ts';
import { javaDouble } from '../../values/java-double.ts';
import type { BodyContext, SpecDraft } from './body-context.ts';
import { longValue, readDeclared, TOKENS } from './object-parser.ts';
import type { SimpleMetricSpec } from './spec.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

/** CardinalityAggregationBuilder: thresholds above this are taken as this. */
const MAX_PRECISION_THRESHOLD = 40000;
const DEFAULT_PRECISION_THRESHOLD = 3000;

export function parseSimpleMetric(type: SimpleMetricSpec['type']) {
  return (b: BodyContext, body: Record<string, unknown>): SpecDraft => {
    const draft: SourceDraft = {};
    const fields = sourceFields(b.ctx, type, draft, { formattable: true, timeZoneAware: false });
    const seen = readDeclared(b.ctx, type, body, fields);
    return { type, source: finishSource(draft, seen) };
  };
}

export function parseExtendedStats(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const draft: SourceDraft = {};
  let sigma = 2;
  const fields = sourceFields(b.ctx, 'extended_stats', draft, { formattable: true, timeZoneAware: false });
  fields.sigma = {
    tokens: TOKENS.NUMBER,
    read: (v) => {
      const s = doubleValue(b.ctx, v);
      if (s < 0) {
        throw illegalArgument(
          `[sigma] must be greater than or equal to 0. Found [${javaDouble(s)}] in [${b.name}]`,
        );
      }
      sigma = s;
    },
  };
  const seen = readDeclared(b.ctx, 'extended_stats', body, fields);
  return { type: 'extended_stats', source: finishSource(draft, seen), sigma };
}

export function parseCardinality(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const draft: SourceDraft = {};
  let threshold = DEFAULT_PRECISION_THRESHOLD;
  const fields = sourceFields(b.ctx, 'cardinality', draft, { formattable: false, timeZoneAware: false });
  fields.precision_threshold = {
    tokens: TOKENS.NUMBER,
    read: (v) => {
      const t = longValue(b.ctx, v);
      if (t < 0) {
        throw illegalArgument(
          `[precisionThreshold] must be greater than or equal to 0. Found [${t}] in [${b.name}]`,
        );
      }
      threshold = Math.min(t, MAX_PRECISION_THRESHOLD);
    },
  };
  // Hashing choices only: they do not change what is counted.
  fields.rehash = { tokens: TOKENS.BOOLEAN, read: (v) => booleanValue(b.ctx, v) };
  fields.execution_hint = { tokens: TOKENS.STRING, read: (v) => text(b.ctx, v) };
  const seen = readDeclared(b.ctx, 'cardinality', body, fields);
  return { type: 'cardinality', source: finishSource(draft, seen), precisionThreshold: threshold };
}
