/**
 * Settings bodies to Elasticsearch's flat form: nested objects flattened with dots, every
 * value a string (lists as string arrays), and for index settings the `index.` prefix added
 * where it is missing (Settings.Builder.normalizePrefix). `null` stays null: it resets the
 * setting to its default.
 */
import { illegalArgument, settingsException } from '../errors/catalogue.ts';
import type { SettingScope, SettingValue } from './setting.ts';

export type FlatSettings = Record<string, SettingValue>;
export type SettingsUpdate = Record<string, SettingValue | null>;

/**
 * Accepts the three forms Elasticsearch accepts: `{"index":{"number_of_shards":3}}`,
 * `{"index.number_of_shards":3}` and, for index settings, `{"number_of_shards":3}`.
 */
export function normalizeSettings(input: unknown, scope: SettingScope): SettingsUpdate {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw settingsException(`Failed to load settings from [${stringOf(input)}]`);
  }
  const flat: SettingsUpdate = {};
  flatten(input as Record<string, unknown>, '', flat);
  if (scope !== 'index') return flat;
  const out: SettingsUpdate = {};
  for (const [k, v] of Object.entries(flat)) {
    const key = k.startsWith('index.') || k.endsWith('*') ? k : `index.${k}`;
    if (Object.hasOwn(out, key)) duplicate(key, out[key], v);
    out[key] = v;
  }
  return out;
}

function flatten(obj: Record<string, unknown>, prefix: string, out: SettingsUpdate): void {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix + k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      flatten(v as Record<string, unknown>, `${key}.`, out);
      continue;
    }
    const value = Array.isArray(v) ? v.map((x) => scalar(key, x) ?? 'null') : scalar(key, v);
    if (Object.hasOwn(out, key)) duplicate(key, out[key], value);
    out[key] = value;
  }
}

function scalar(key: string, v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  throw illegalArgument(`settings [${key}] must be a value or a list of values, found an object`);
}

/** Settings.fromXContent refuses one key given twice (`index.a` and `index: {a}`). */
function duplicate(key: string, previous: unknown, current: unknown): never {
  throw illegalArgument(
    `duplicate settings key [${key}] found, previous value [${stringOf(previous)}], current value [${stringOf(current)}]`,
  );
}

function stringOf(v: unknown): string {
  return Array.isArray(v) ? `[${v.join(', ')}]` : String(v);
}
