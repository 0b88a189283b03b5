/**
 * Scripts that rewrite a document: the scripted `_update` (and its scripted upsert),
 * `_update_by_query` and `_reindex`. The script gets a `ctx` (ctx-map.ts) holding the
 * document's `_source` and metadata and leaves there what is to be written; `sourceBytes`
 * turns the `_source` it left back into JSON as XContentBuilder would (maps, lists, dates as
 * ISO strings, geo points as objects), refusing a value that contains itself.
 */
import { illegalArgument, stringifyJson } from '@shoal/protocol';
import { type CtxInit, type CtxKind, CtxMap } from './ctx-map.ts';
import { javaString } from './members.ts';
import { compileScript } from './script.ts';
import { DateValue, DocField, GeoPointValue, InstantValue } from './values.ts';

export { type CtxInit, type CtxKind, CtxMap } from './ctx-map.ts';

export interface WriteScript {
  source: string;
  params: Readonly<Record<string, unknown>>;
}

/**
 * Runs `script` on a document; returns the ctx as the script left it. Compile and runtime
 * failures are thrown as `script_exception` (callers wrap them as their API does).
 */
export function runWriteScript(kind: CtxKind, script: WriteScript, init: CtxInit): CtxMap {
  const compiled = compileScript(script.source);
  const ctx = new CtxMap(kind, init);
  compiled.run({ params: script.params, ctx });
  return ctx;
}

const encoder = new TextEncoder();

/** The `_source` a script left, as JSON bytes. */
export function sourceBytes(source: unknown): Uint8Array {
  return encoder.encode(stringifyJson(toJson(source, [])));
}

/** A script value as JSON; `path` holds the containers being written (a cycle is refused). */
function toJson(v: unknown, path: unknown[]): unknown {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object') return v;
  if (v instanceof DateValue || v instanceof InstantValue) return javaString(v);
  if (v instanceof GeoPointValue) return { lat: v.lat, lon: v.lon };
  if (path.includes(v)) throw illegalArgument('Iterable object is self-referencing itself');
  path.push(v);
  try {
    if (v instanceof DocField) return v.values.map((x) => toJson(x, path));
    if (Array.isArray(v)) return v.map((x) => toJson(x, path));
    const out: Record<string, unknown> = {};
    const entries = v instanceof Map ? [...v] : Object.entries(v);
    for (const [k, x] of entries) {
      const key = typeof k === 'string' ? k : javaString(k);
      Object.defineProperty(out, key, {
        value: toJson(x, path),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return out;
  } finally {
    path.pop();
  }
}
