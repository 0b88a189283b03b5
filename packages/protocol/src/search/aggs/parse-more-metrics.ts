/**
 * weighted_avg (WeightedAvgAggregationBuilder: a `value` and a `weight` source, each a field
 * or a script with an optional `missing`) and string_stats (`show_distribution`).
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { booleanValue, text } from '../../query/xcontent-values.ts';
import type { BodyContext, SpecDraft } from './body-context.ts';
import { readDeclared, TOKENS } from './object-parser.ts';
import type { ValuesSourceSpec } from './spec.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

export function parseWeightedAvg(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  let value: ValuesSourceSpec | undefined;
  let weight: ValuesSourceSpec | undefined;
  let format: string | undefined;
  const sub = (key: string) => (v: unknown) => {
    const draft: SourceDraft = {};
    const fields = sourceFields(b.ctx, 'weighted_avg', draft, { formattable: false, timeZoneAware: false });
    // MultiValuesSourceFieldConfig: field, script, missing (and a value_type-free config).
    delete fields.value_type;
    const seen = readDeclared(b.ctx, key, v as Record<string, unknown>, fields);
    return finishSource(draft, seen);
  };
  const seen = readDeclared(b.ctx, 'weighted_avg', body, {
    value: { tokens: TOKENS.OBJECT, read: (v) => (value = sub('value')(v)) },
    weight: { tokens: TOKENS.OBJECT, read: (v) => (weight = sub('weight')(v)) },
    format: { tokens: TOKENS.STRING, read: (v) => (format = text(b.ctx, v)) },
    value_type: { tokens: TOKENS.STRING, read: (v) => text(b.ctx, v) },
  });
  if (!seen.has('value')) throw illegalArgument('Required [value]');
  if (!seen.has('weight')) throw illegalArgument('Required [weight]');
  const out: SpecDraft = { type: 'weighted_avg', value: value!, weight: weight! };
  return format === undefined ? out : { ...out, format };
}

export function parseStringStats(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const draft: SourceDraft = {};
  let showDistribution = false;
  const fields = sourceFields(b.ctx, 'string_stats', draft, { formattable: false, timeZoneAware: false });
  fields.show_distribution = {
    tokens: TOKENS.BOOLEAN,
    read: (v) => (showDistribution = booleanValue(b.ctx, v)),
  };
  const seen = readDeclared(b.ctx, 'string_stats', body, fields);
  return { type: 'string_stats', source: finishSource(draft, seen), showDistribution };
}
