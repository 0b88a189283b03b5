/**
 * Typed reads of a flat settings map, falling back to the declared default. The values were
 * validated when they were set, so a failure here is a bug and throws as such.
 */
import { illegalState } from '../errors/catalogue.ts';
import { parseBooleanStrict } from '../values/params.ts';
import type { FlatSettings } from './normalize.ts';
import { findSetting } from './registry.ts';
import {
  defaultValue,
  parseBytesSetting,
  parseIntSetting,
  parseLongSetting,
  parseTimeSetting,
  type Setting,
  type SettingValue,
} from './setting.ts';

function declared(key: string): Setting {
  const s = findSetting(key);
  if (!s) throw illegalState(`setting [${key}] is not declared`);
  return s;
}

function raw(flat: Readonly<FlatSettings>, key: string): SettingValue {
  const s = declared(key);
  return flat[key] ?? defaultValue(s, flat);
}

function text(flat: Readonly<FlatSettings>, key: string): string {
  const v = raw(flat, key);
  return Array.isArray(v) ? v.join(',') : v;
}

export function getInt(flat: Readonly<FlatSettings>, key: string): number {
  return parseIntSetting(key, text(flat, key));
}

/** A long setting as a number (limits beyond 2^53 are as good as unlimited). */
export function getLong(flat: Readonly<FlatSettings>, key: string): number {
  return Number(parseLongSetting(key, text(flat, key)));
}

export function getBool(flat: Readonly<FlatSettings>, key: string): boolean {
  return parseBooleanStrict(text(flat, key));
}

/** Milliseconds; -1 means disabled where the setting allows it (`index.refresh_interval`). */
export function getTimeMs(flat: Readonly<FlatSettings>, key: string): number {
  return parseTimeSetting(key, text(flat, key));
}

export function getBytes(flat: Readonly<FlatSettings>, key: string): number {
  return parseBytesSetting(key, text(flat, key));
}

export function getString(flat: Readonly<FlatSettings>, key: string): string {
  return text(flat, key);
}

/** A list setting; a single string value is a one-element list (or comma-separated, as Elasticsearch reads it). */
export function getList(flat: Readonly<FlatSettings>, key: string): string[] {
  const v = raw(flat, key);
  return Array.isArray(v) ? v : v.split(',').map((s) => s.trim());
}
