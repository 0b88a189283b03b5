/**
 * The fields every values-source aggregation accepts (ValuesSourceAggregationBuilder.declareFields):
 * `field`, `missing`, `value_type`, `script`, and where the aggregation takes them `format` and
 * `time_zone`. A `script` (alone, or with `field` as a value script over `_value`) is run by
 * the aggregations of SCRIPTABLE; the others answer 501 for it.
 */
import { illegalArgument, notImplemented } from '../../errors/catalogue.ts';
import { ShoalError } from '../../errors/shoal-error.ts';
import type { JsonScalar } from '../../query/ast.ts';
import { here, type ParseCtx } from '../../query/parse-context.ts';
import { intValue, objectText, text } from '../../query/xcontent-values.ts';
import { parseScriptSpec, type ScriptSpec } from '../../script/script-spec.ts';
import type { Mutable } from './body-context.ts';
import { type DeclaredField, requireOneOf, TOKENS } from './object-parser.ts';
import type { ValuesSourceSpec, ValueTypeHint } from './spec.ts';

/** A values source being read; `field` is checked once the body is read. */
export interface SourceDraft {
  field?: string;
  missing?: JsonScalar;
  format?: string;
  valueType?: ValueTypeHint;
  timeZone?: string;
  script?: ScriptSpec;
}

/** The aggregations that run a `script` in Shoal. */
const SCRIPTABLE = new Set([
  'value_count',
  'cardinality',
  'avg',
  'sum',
  'min',
  'max',
  'stats',
  'extended_stats',
  'terms',
  'histogram',
  'date_histogram',
  'range',
  'date_range',
  'percentiles',
  'percentile_ranks',
  'boxplot',
  'median_absolute_deviation',
]);

export interface SourceOptions {
  formattable: boolean;
  timeZoneAware: boolean;
}

/** The declared fields of a values source, writing into `draft`. */
export function sourceFields(
  ctx: ParseCtx,
  type: string,
  draft: SourceDraft,
  opts: SourceOptions,
): Record<string, DeclaredField> {
  const fields: Record<string, DeclaredField> = {
    field: { tokens: TOKENS.STRING, read: (v) => (draft.field = text(ctx, v)) },
    missing: {
      tokens: TOKENS.VALUE,
      read: (v) => {
        if (v === null) throw illegalArgument('[missing] must not be null');
        draft.missing = objectText(ctx, v);
      },
    },
    value_type: { tokens: TOKENS.STRING, read: (v) => (draft.valueType = valueType(ctx, text(ctx, v))) },
    script: {
      tokens: TOKENS.OBJECT_OR_STRING,
      read: (v) => {
        if (!SCRIPTABLE.has(type)) throw notImplemented(`scripts in the [${type}] aggregation`);
        draft.script = parseScriptSpec(ctx, v);
      },
    },
  };
  if (opts.formattable) fields.format = { tokens: TOKENS.STRING, read: (v) => (draft.format = text(ctx, v)) };
  if (opts.timeZoneAware) {
    fields.time_zone = {
      tokens: TOKENS.NUMBER,
      read: (v) => (draft.timeZone = typeof v === 'string' ? zoneId(ctx, v) : hoursZone(ctx, v)),
    };
  }
  return fields;
}

/** The finished values source: `field` or `script` is required (`field` is empty when only a script gives the values). */
export function finishSource(draft: SourceDraft, seen: ReadonlySet<string>): ValuesSourceSpec {
  requireOneOf(seen, ['field', 'script']);
  const out: Mutable<ValuesSourceSpec> = { field: draft.field ?? '' };
  if (draft.script !== undefined) out.script = draft.script;
  if (draft.missing !== undefined) out.missing = draft.missing;
  if (draft.format !== undefined) out.format = draft.format;
  if (draft.valueType !== undefined) out.valueType = draft.valueType;
  if (draft.timeZone !== undefined) out.timeZone = draft.timeZone;
  return out;
}

/** ValueType.lenientParse. */
function valueType(ctx: ParseCtx, s: string): ValueTypeHint {
  switch (s) {
    case 'string':
      return 'string';
    case 'double':
    case 'float':
      return 'double';
    case 'number':
    case 'numeric':
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
      return 'long';
    case 'date':
      return 'date';
    case 'ip':
      return 'ip';
    case 'boolean':
      return 'boolean';
    default:
      here(ctx, 'value');
      throw illegalArgument(`Unknown value type [${s}]`);
  }
}

const OFFSET = /^([+-])(\d{1,2})(?::?(\d{2}))?(?::?(\d{2}))?$/;
const FIXED_IDS = new Set(['Z', 'UTC', 'GMT', 'UT']);

/** ZoneId.of: fixed offsets, `UTC`/`GMT`/`UT` prefixed offsets, and region ids the runtime knows. */
export function zoneId(ctx: ParseCtx, id: string): string {
  if (FIXED_IDS.has(id)) return id;
  const prefixed = /^(UTC|GMT|UT)([+-].*)$/.exec(id);
  const offset = prefixed ? prefixed[2]! : id[0] === '+' || id[0] === '-' ? id : undefined;
  if (offset !== undefined) {
    const m = OFFSET.exec(offset);
    const valid =
      m !== null &&
      Number(m[2]) <= 18 &&
      Number(m[3] ?? 0) <= 59 &&
      Number(m[4] ?? 0) <= 59 &&
      Number(m[2]) * 3600 + Number(m[3] ?? 0) * 60 + Number(m[4] ?? 0) <= 18 * 3600;
    if (!valid) {
      here(ctx, 'value');
      throw new ShoalError(
        'date_time_exception',
        `Invalid ID for ZoneOffset, invalid format: ${offset}`,
        400,
      );
    }
    return id;
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: id });
  } catch {
    here(ctx, 'value');
    throw new ShoalError('zone_rules_exception', `Unknown time-zone ID: ${id}`, 400);
  }
  return id;
}

/** ZoneOffset.ofHours for a numeric `time_zone`. */
function hoursZone(ctx: ParseCtx, v: unknown): string {
  const h = intValue(ctx, v);
  if (h < -18 || h > 18) {
    here(ctx, 'value');
    throw new ShoalError(
      'date_time_exception',
      `Zone offset hours not in valid range: value ${h} is not in the range -18 to 18`,
      400,
    );
  }
  if (h === 0) return 'Z';
  return `${h < 0 ? '-' : '+'}${String(Math.abs(h)).padStart(2, '0')}:00`;
}
