/** A `PUT /{index}/_settings` body applied to an index's flat settings (MetadataUpdateSettingsService). */
import { type FlatSettings, findSetting, type SettingsUpdate, simpleMatch } from '@shoal/protocol';

/** Settings with the changes applied: `null` resets a key, a wildcard key resets all it matches. */
export function applyChanges(current: Readonly<FlatSettings>, changes: SettingsUpdate): FlatSettings {
  const settings = { ...current };
  for (const [k, v] of Object.entries(changes)) {
    if (v !== null && v !== undefined) settings[k] = v;
    else if (k.endsWith('*')) {
      for (const key of Object.keys(settings))
        if (simpleMatch(k, key) && !isPrivateKey(key)) delete settings[key];
    } else delete settings[k];
  }
  return settings;
}

/** What a wildcard reset leaves alone: the settings Shoal fills in itself. */
function isPrivateKey(key: string): boolean {
  return findSetting(key)?.private === true || key === 'index.creation_date';
}

/** `preserve_existing`: only the settings the index does not have yet. */
export function withoutExisting(changes: SettingsUpdate, current: Readonly<FlatSettings>): SettingsUpdate {
  const out: SettingsUpdate = {};
  for (const [k, v] of Object.entries(changes)) if (!Object.hasOwn(current, k)) out[k] = v;
  return out;
}

/** The settings a request gives, its `null`s (nothing to reset on a new index) dropped. */
export function withoutNulls(given: SettingsUpdate): FlatSettings {
  const out: FlatSettings = {};
  for (const [k, v] of Object.entries(given)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}
