/**
 * A setting declaration (Elasticsearch's Setting<T>): key, value type with its bounds, default,
 * scope, whether `PUT _settings` may change it, and its deprecation. Validation, defaults,
 * `include_defaults` and deprecation warnings all derive from these declarations.
 *
 * Values are kept as Elasticsearch keeps them: strings (lists as string arrays). The parse
 * functions here turn a stored string into its typed value, or throw Elasticsearch's 400
 * illegal_argument_exception for it.
 */
import { illegalArgument, numberFormat } from '../errors/catalogue.ts';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseByteSize } from '../values/byte-size.ts';
import { javaInt, javaLong, parseBooleanStrict } from '../values/params.ts';
import { formatTimeValue, parseTimeValue } from '../values/time-value.ts';

/**
 * `index`: per index (IndexScope). `cluster`: node settings that `PUT _cluster/settings` may
 * change (NodeScope + Dynamic in Elasticsearch). `node`: fixed at node start-up.
 */
export type SettingScope = 'index' | 'cluster' | 'node';

/**
 * Bounds are written as Elasticsearch prints them in its messages: `minText` is the bound's
 * TimeValue/ByteSizeValue string rep (`100ms`, `56b`), which depends on the unit the bound
 * was declared in, so it is given where the computed form would differ.
 */
export type SettingType =
  | { kind: 'int'; min?: number; max?: number }
  | { kind: 'long'; min?: number }
  | { kind: 'double'; min?: number; max?: number }
  | { kind: 'bool' }
  | { kind: 'time'; minMs?: number; minText?: string; maxMs?: number; maxText?: string }
  | { kind: 'bytes'; min?: number; minText?: string }
  | { kind: 'enum'; values: readonly string[]; invalid: (value: string) => string }
  | { kind: 'string'; validate?: (value: string, key: string) => void }
  | { kind: 'list'; element?: (value: string, key: string) => void };

export type SettingValue = string | string[];

export interface Setting {
  key: string;
  type: SettingType;
  /** The stored default, or a function of the other settings (`index.number_of_routing_shards`). */
  default: SettingValue | ((flat: Readonly<Record<string, SettingValue>>) => SettingValue);
  scope: SettingScope;
  /** Changeable on an open index / a running cluster. */
  dynamic: boolean;
  /** Property.Final: never changeable after creation, even on a closed index. */
  final?: boolean;
  /** Property.PrivateIndex: filled in by Shoal, never set by a client (`index.uuid`). */
  private?: boolean;
  /** Shown in the `Warning` header when the setting is used (deprecationMessage builds the text). */
  deprecated?: boolean;
  /**
   * A value whose feature Shoal lacks and cannot pretend to have (`index.mode: time_series`):
   * returns what is missing, and the value is refused with a 501 naming it.
   */
  unsupported?: (value: string) => string | undefined;
}

/**
 * A family of settings under a prefix (Elasticsearch's group and prefix-key affix settings):
 * `index.analysis.` (free-form), `index.routing.allocation.include.` (one list setting per
 * node attribute). `validate` checks one member's value, knowing its whole key.
 */
export interface SettingGroup {
  prefix: string;
  scope: SettingScope;
  dynamic: boolean;
  validate?: (key: string, value: SettingValue) => void;
}

/**
 * Elasticsearch's deprecated-setting warning, worded without a product name
 * (changes78.md §5.2).
 */
export function deprecationMessage(key: string): string {
  return `[${key}] setting was deprecated and will be removed in a future release! See the breaking changes documentation for the next major version.`;
}

export function defaultValue(setting: Setting, flat: Readonly<Record<string, SettingValue>>): SettingValue {
  return typeof setting.default === 'function' ? setting.default(flat) : setting.default;
}

/** Checks a stored value against its declaration (Setting.get), throwing Elasticsearch's error. */
export function checkSettingValue(setting: Setting, value: SettingValue): void {
  const t = setting.type;
  if (t.kind === 'list') {
    if (t.element) for (const v of listValues(value)) t.element(v, setting.key);
    return;
  }
  const s = Array.isArray(value) ? value.join(',') : value;
  switch (t.kind) {
    case 'int':
      parseIntSetting(setting.key, s, t.min, t.max);
      return;
    case 'long':
      parseLongSetting(setting.key, s, t.min);
      return;
    case 'double':
      parseDoubleSetting(setting.key, s, t.min, t.max);
      return;
    case 'bool':
      parseBooleanStrict(s);
      return;
    case 'time':
      parseTimeSetting(setting.key, s, t.minMs, t);
      return;
    case 'bytes':
      parseBytesSetting(setting.key, s, t.min, t.minText);
      return;
    case 'enum':
      if (!t.values.includes(s.toLowerCase())) throw illegalArgument(t.invalid(s));
      return;
    case 'string':
      t.validate?.(s, setting.key);
      return;
  }
}

/** Setting.parseInt: `Failed to parse value [0] for setting [index.number_of_shards] must be >= 1`. */
export function parseIntSetting(key: string, s: string, min?: number, max?: number): number {
  const v = javaInt(s);
  if (v === undefined)
    throw illegalArgument(`Failed to parse value [${s}] for setting [${key}]`, numberFormat(s));
  if (min !== undefined && v < min)
    throw illegalArgument(`Failed to parse value [${s}] for setting [${key}] must be >= ${min}`);
  if (max !== undefined && v > max)
    throw illegalArgument(`Failed to parse value [${s}] for setting [${key}] must be <= ${max}`);
  return v;
}

/** A list setting's values: a single string is a comma-separated list, as Settings.getAsList reads it. */
export function listValues(value: SettingValue): string[] {
  return Array.isArray(value) ? value : value.split(',').map((v) => v.trim());
}

/** Setting.parseLong: `Failed to parse value [-1] for setting [index.mapping.depth.limit] must be >= 1`. */
export function parseLongSetting(key: string, s: string, min?: number): bigint {
  const v = javaLong(s);
  if (v === undefined)
    throw illegalArgument(`Failed to parse value [${s}] for setting [${key}]`, numberFormat(s));
  if (min !== undefined && v < BigInt(min))
    throw illegalArgument(`Failed to parse value [${s}] for setting [${key}] must be >= ${min}`);
  return v;
}

/** Java's Double.parseDouble grammar (decimal and exponent forms, `NaN`, `Infinity`). */
const JAVA_DOUBLE = /^[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)$/;

/** A Java double as Double.toString writes a bound: `2.0`, `0.5`. */
function javaDoubleText(n: number): string {
  return Number.isInteger(n) ? n.toFixed(1) : String(n);
}

/** Setting.doubleSetting's parser: `Failed to parse value [1] for setting [x] must be >= 2.0`. */
export function parseDoubleSetting(key: string, s: string, min?: number, max?: number): number {
  const text = s.trim();
  if (!JAVA_DOUBLE.test(text))
    throw illegalArgument(`Failed to parse value [${s}] for setting [${key}]`, numberFormat(s));
  const v = Number(text.replace(/[fFdD]$/, ''));
  if (min !== undefined && v < min)
    throw illegalArgument(
      `Failed to parse value [${s}] for setting [${key}] must be >= ${javaDoubleText(min)}`,
    );
  if (max !== undefined && v > max)
    throw illegalArgument(
      `Failed to parse value [${s}] for setting [${key}] must be <= ${javaDoubleText(max)}`,
    );
  return v;
}

/**
 * Setting.timeSetting with bounds, in milliseconds (minTimeValueParser):
 * `failed to parse value [10ms] for setting [index.translog.sync_interval], must be >= [100ms]`.
 */
export function parseTimeSetting(
  key: string,
  s: string,
  minMs?: number,
  bounds: { minText?: string; maxMs?: number; maxText?: string } = {},
): number {
  const ms = parseTimeValue(s, key);
  if (minMs !== undefined && ms < minMs) {
    throw illegalArgument(
      `failed to parse value [${s}] for setting [${key}], must be >= [${bounds.minText ?? formatTimeValue(minMs)}]`,
    );
  }
  if (bounds.maxMs !== undefined && ms > bounds.maxMs) {
    throw illegalArgument(
      `failed to parse value [${s}] for setting [${key}], must be <= [${bounds.maxText ?? formatTimeValue(bounds.maxMs)}]`,
    );
  }
  return ms;
}

/** Setting.parseByteSize: parse errors become illegal_argument_exception with the same text. */
export function parseBytesSetting(key: string, s: string, min?: number, minText?: string): number {
  let bytes: number;
  try {
    bytes = parseByteSize(s, key);
  } catch (e) {
    if (isShoalError(e)) throw illegalArgument(e.reason, e);
    throw e;
  }
  if (min !== undefined && bytes < min) {
    throw illegalArgument(
      `failed to parse value [${s}] for setting [${key}], must be >= [${minText ?? `${min}b`}]`,
    );
  }
  return bytes;
}
