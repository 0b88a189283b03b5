/**
 * Which deprecated settings a group of settings uses: for the `Warning` headers of a request
 * that sets them, and for `GET /_migration/deprecations`.
 */
import { isShoalError } from '../errors/shoal-error.ts';
import { type FlatSettings, normalizeSettings } from './normalize.ts';
import { findSetting } from './registry.ts';
import { deprecationMessage, type SettingScope } from './setting.ts';

/** The keys of `flat` that name deprecated settings, sorted. */
export function deprecatedKeysIn(flat: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(flat)
    .filter((k) => flat[k] !== null && findSetting(k)?.deprecated === true)
    .sort();
}

/**
 * The deprecation warnings for settings as a client sent them (nested or flat). Settings that
 * do not even normalize give none: the request fails on them elsewhere, with its own error.
 */
export function settingDeprecationWarnings(raw: unknown, scope: SettingScope): string[] {
  let flat: FlatSettings;
  try {
    flat = normalizeSettings(raw ?? {}, scope) as FlatSettings;
  } catch (e) {
    if (isShoalError(e)) return [];
    throw e;
  }
  return deprecatedKeysIn(flat).map(deprecationMessage);
}
