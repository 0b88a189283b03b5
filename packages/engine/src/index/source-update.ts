/**
 * The partial-document merge of `_update`, as Elasticsearch's XContentHelper.update: objects
 * merge recursively, everything else (arrays included) is replaced, and with `detect_noop` the
 * result tells whether anything actually changed.
 */
import { parseJson, stringifyJson } from '@shoal/protocol';

type Json = null | boolean | number | bigint | string | Json[] | { [k: string]: Json };

function isObject(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    for (const k of ka) if (!Object.hasOwn(b, k) || !deepEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

/** Merges `changes` into `source` in place; returns whether `source` changed. */
export function applyPartialUpdate(
  source: Record<string, Json>,
  changes: Record<string, Json>,
  checkNoop: boolean,
): boolean {
  let modified = false;
  for (const key of Object.keys(changes)) {
    const value = changes[key]!;
    if (!Object.hasOwn(source, key)) {
      source[key] = value;
      modified = true;
      continue;
    }
    const old = source[key];
    if (isObject(old) && isObject(value)) {
      modified = applyPartialUpdate(old, value, checkNoop && !modified) || modified;
      continue;
    }
    source[key] = value;
    if (modified) continue;
    modified = !checkNoop || !deepEqual(old, value);
  }
  return modified;
}

const encoder = new TextEncoder();

/** Big integers stay exact (bigint) through the merge, as Jackson keeps them in Elasticsearch. */
export function parseJsonObject(bytes: Uint8Array): Record<string, Json> {
  const v = parseJson(bytes, '_source') as Json;
  return isObject(v) ? v : {};
}

export function serialiseJson(v: unknown): Uint8Array {
  return encoder.encode(stringifyJson(v));
}

/** Deep merge of mapping fragments (`{"properties": …}`) from several documents. */
export function mergeFragments(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(from)) {
    const cur = into[k];
    if (isObject(cur) && isObject(v)) mergeFragments(cur, v);
    else into[k] = v;
  }
}
