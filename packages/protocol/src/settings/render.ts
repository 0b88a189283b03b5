/**
 * Settings as `GET /{index}/_settings` and `GET _cluster/settings` write them: nested objects
 * by default (keys in Elasticsearch's HashMap order), the flat sorted map with
 * `?flat_settings=true`, and `defaults` with `?include_defaults=true`.
 */

import { javaHashMapOrder } from './java-hash-order.ts';
import type { FlatSettings } from './normalize.ts';
import { settingsOfScope } from './registry.ts';
import { defaultValue, type SettingScope, type SettingValue } from './setting.ts';

type Nested = { [key: string]: SettingValue | Nested };

/** The `settings` and, with `include_defaults`, `defaults` objects of an index in `GET /{index}/_settings`. */
export type RenderedSettings = {
  settings: Record<string, unknown>;
  defaults?: Record<string, unknown>;
};

/**
 * One settings object: the stored settings (default), the stored settings and every default
 * not overridden (`includeDefaults`), or only those defaults (`onlyDefaults`, the `defaults`
 * object of a response).
 */
export function renderSettings(
  flat: FlatSettings,
  opts: { flat: boolean; includeDefaults: boolean; onlyDefaults?: boolean; scope?: SettingScope },
): Record<string, unknown> {
  if (!opts.includeDefaults && !opts.onlyDefaults) return shape(flat, opts.flat);
  const defaults = unsetDefaults(flat, opts.scope ?? 'index');
  return shape(opts.onlyDefaults ? defaults : { ...flat, ...defaults }, opts.flat);
}

/** Both objects, as an index's entry in `GET /{index}/_settings` (`defaults` only with `includeDefaults`). */
export function renderSettingsWithDefaults(
  flat: FlatSettings,
  opts: { flat: boolean; includeDefaults: boolean; scope?: SettingScope },
): RenderedSettings {
  const out: RenderedSettings = { settings: shape(flat, opts.flat) };
  if (opts.includeDefaults) out.defaults = shape(unsetDefaults(flat, opts.scope ?? 'index'), opts.flat);
  return out;
}

function unsetDefaults(flat: FlatSettings, scope: SettingScope): FlatSettings {
  const defaults: FlatSettings = {};
  for (const s of settingsOfScope(scope)) {
    if (s.private || Object.hasOwn(flat, s.key)) continue;
    defaults[s.key] = defaultValue(s, flat);
  }
  return defaults;
}

/** One settings object in either form. */
export function shape(flat: FlatSettings, asFlat: boolean): Record<string, unknown> {
  const keys = Object.keys(flat).sort();
  if (asFlat) {
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = flat[k];
    return out;
  }
  const root: Nested = {};
  for (const k of keys) insert(root, k, flat[k]!);
  return ordered(root);
}

/**
 * Settings.getAsStructuredMap: split on the first dot and recurse. A key that is both a value
 * and a prefix (`a` and `a.b`) keeps the value under the dotted name (`"a.b"`).
 */
function insert(map: Nested, key: string, value: SettingValue, prefix = ''): void {
  const dot = key.indexOf('.');
  if (dot === -1) {
    map[prefix + key] = value;
    return;
  }
  const head = key.slice(0, dot);
  const rest = key.slice(dot + 1);
  const existing = map[prefix + head];
  if (existing === undefined) {
    const inner: Nested = {};
    insert(inner, rest, value);
    map[prefix + head] = inner;
  } else if (typeof existing === 'object' && !Array.isArray(existing)) {
    insert(existing, rest, value);
  } else {
    insert(map, rest, value, `${prefix}${head}.`);
  }
}

function ordered(map: Nested): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of javaHashMapOrder(Object.keys(map))) {
    const v = map[k]!;
    out[k] = typeof v === 'object' && !Array.isArray(v) ? ordered(v) : v;
  }
  return out;
}
