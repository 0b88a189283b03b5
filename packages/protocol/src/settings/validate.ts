/**
 * Validation of settings a client sends (AbstractScopedSettings.validate, the update checks of
 * MetadataUpdateSettingsService and ClusterUpdateSettings), with Elasticsearch's texts.
 * Each function throws the first failure as 400 illegal_argument_exception and returns the
 * deprecation warnings the request must carry.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import { didYouMean } from '../values/similarity.ts';
import { formatTimeValue } from '../values/time-value.ts';
import { TIME_SERIES_ONLY } from './index-settings-mapping.ts';
import type { FlatSettings, SettingsUpdate } from './normalize.ts';
import { findGroup, findSetting, suggestKeys } from './registry.ts';
import {
  checkSettingValue,
  defaultValue,
  deprecationMessage,
  parseIntSetting,
  parseTimeSetting,
  type Setting,
  type SettingScope,
} from './setting.ts';

function inScope(s: Setting, scope: SettingScope): boolean {
  return scope === 'index' ? s.scope === 'index' : s.scope !== 'index';
}

/**
 * Checks every key is known in the scope, every value parses, no private setting is set, and
 * the cross-setting rules hold. Keys are checked in sorted order, as Elasticsearch's sorted
 * Settings are. `current` holds the settings already in force (for the cross checks).
 */
export function validateSettings(
  settings: SettingsUpdate,
  scope: SettingScope,
  current: FlatSettings = {},
): string[] {
  const warnings: string[] = [];
  for (const key of Object.keys(settings).sort()) {
    const value = settings[key];
    const setting = findSetting(key);
    if (!setting || !inScope(setting, scope)) {
      const found = findGroup(key);
      const group = found && (scope === 'index') === (found.scope === 'index') ? found : undefined;
      if (group) {
        if (value !== null && value !== undefined) group.validate?.(key, value);
        continue;
      }
      // A wildcard only resets (`"index.blocks.*": null`), as AbstractScopedSettings allows.
      if (key.endsWith('*') && value === null) continue;
      const hint = didYouMean(suggestKeys(key, scope));
      throw illegalArgument(
        `unknown setting [${key}]` +
          (hint ||
            ' please check that any required plugins are installed, or check the breaking changes documentation for removed settings'),
      );
    }
    if (setting.private) throw illegalArgument(`private index setting [${key}] can not be set explicitly`);
    if (value === null || value === undefined) continue;
    checkSettingValue(setting, value);
    const missing = setting.unsupported?.(Array.isArray(value) ? value.join(',') : value);
    // A value Elasticsearch accepts for a feature Shoal lacks: the client's request cannot be
    // served as asked, so it is refused (400) with what is missing named, not half-applied.
    if (missing !== undefined)
      throw illegalArgument(
        `${missing} are not supported by Shoal; [${key}] must be [${String(defaultValue(setting, {}))}]`,
      );
    if (setting.deprecated) warnings.push(deprecationMessage(key));
  }
  const merged = mergeUpdate(current, settings);
  if (scope === 'index') {
    checkRoutingShards(merged);
    checkTimeSeriesOnly(merged);
  } else checkKeepAlives(merged);
  return warnings;
}

/**
 * MetadataCreateIndexService's checks of a new index's settings: soft deletes cannot be turned
 * off, and translog retention is deprecated (a warning). Returns the warnings.
 */
export function newIndexChecks(settings: FlatSettings): string[] {
  if (settings['index.soft_deletes.enabled'] === 'false') {
    throw illegalArgument(
      'Creating indices with soft-deletes disabled is no longer supported. Please do not specify a value for setting [index.soft_deletes.enabled].',
    );
  }
  if (
    settings['index.translog.retention.age'] !== undefined ||
    settings['index.translog.retention.size'] !== undefined
  ) {
    return [
      'Translog retention settings [index.translog.retention.age] and [index.translog.retention.size] are deprecated and effectively ignored. They will be removed in a future version.',
    ];
  }
  return [];
}

/** IndexMode.STANDARD refuses what only a time_series index may carry. */
function checkTimeSeriesOnly(flat: FlatSettings): void {
  for (const key of TIME_SERIES_ONLY) {
    if (flat[key] !== undefined) throw illegalArgument(`[${key}] requires [index.mode=time_series]`);
  }
}

/**
 * `PUT /{index}/_settings` rules after validation: on an open index only dynamic settings may
 * change (`Can't update non dynamic settings [[index.codec]] for open indices [[idx/uuid]]`);
 * a final setting never changes (`final index setting [index.number_of_shards], not updateable`).
 */
export function updatableCheck(
  changes: SettingsUpdate,
  target: { open: boolean; index: string; uuid: string },
  opts: { reopen?: boolean } = {},
): void {
  const keys = Object.keys(changes);
  // `?reopen=true` (8.12+): static settings change on an open index as if it were closed.
  if (target.open && !opts.reopen) {
    const nonDynamic = keys.filter((k) => !isDynamic(k));
    if (nonDynamic.length > 0) {
      throw illegalArgument(
        `Can't update non dynamic settings [[${nonDynamic.join(', ')}]] for open indices [[${target.index}/${target.uuid}]]`,
      );
    }
    return;
  }
  const final = keys.find((k) => findSetting(k)?.final);
  if (final !== undefined) throw illegalArgument(`final index setting [${final}], not updateable`);
}

function isDynamic(key: string): boolean {
  if (key.endsWith('*')) return true;
  const s = findSetting(key);
  if (s) return s.dynamic;
  return findGroup(key)?.dynamic ?? false;
}

/**
 * `PUT _cluster/settings` checks for one section (`persistent` or `transient`), with the texts
 * of AbstractScopedSettings.updateSettings. `null` values reset and skip the checks (so do
 * wildcard keys, which only make sense as resets).
 */
export function clusterUpdateCheck(
  update: SettingsUpdate,
  section: 'persistent' | 'transient',
  current: FlatSettings = {},
): string[] {
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(update)) {
    if (value === null) continue;
    const s = findSetting(key);
    if (!s || s.scope === 'index') throw illegalArgument(`${section} setting [${key}], not recognized`);
    if (s.final) throw illegalArgument(`final ${section} setting [${key}], not updateable`);
    if (!s.dynamic || s.scope === 'node')
      throw illegalArgument(`${section} setting [${key}], not dynamically updateable`);
    checkSettingValue(s, value);
    if (s.deprecated) warnings.push(deprecationMessage(key));
  }
  checkKeepAlives(mergeUpdate(current, update));
  return warnings;
}

function mergeUpdate(current: FlatSettings, update: SettingsUpdate): FlatSettings {
  const out: FlatSettings = { ...current };
  for (const [k, v] of Object.entries(update)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

function settingText(flat: FlatSettings, key: string): string {
  const s = findSetting(key)!;
  const v = flat[key] ?? defaultValue(s, flat);
  return Array.isArray(v) ? v.join(',') : v;
}

/** IndexMetadata: routing shards >= shards, and a multiple of them (getRoutingFactor). */
function checkRoutingShards(flat: FlatSettings): void {
  if (flat['index.number_of_routing_shards'] === undefined) return;
  const shards = parseIntSetting('index.number_of_shards', settingText(flat, 'index.number_of_shards'));
  const routing = parseIntSetting(
    'index.number_of_routing_shards',
    settingText(flat, 'index.number_of_routing_shards'),
  );
  if (routing < shards) {
    throw illegalArgument(
      `index.number_of_routing_shards [${routing}] must be >= index.number_of_shards [${shards}]`,
    );
  }
  const factor = Math.trunc(routing / shards);
  if (routing > shards && (factor * shards !== routing || factor <= 1)) {
    throw illegalArgument(`the number of source shards [${shards}] must be a factor of [${routing}]`);
  }
}

/** SearchService: the default keep-alive may not exceed the maximum. */
function checkKeepAlives(flat: FlatSettings): void {
  const def = parseTimeSetting('search.default_keep_alive', settingText(flat, 'search.default_keep_alive'));
  const max = parseTimeSetting('search.max_keep_alive', settingText(flat, 'search.max_keep_alive'));
  if (def > max) {
    throw illegalArgument(
      'Default keep alive setting for request [search.default_keep_alive] should be smaller than max keep alive ' +
        `[search.max_keep_alive], was (${formatTimeValue(def)} > ${formatTimeValue(max)})`,
    );
  }
}
