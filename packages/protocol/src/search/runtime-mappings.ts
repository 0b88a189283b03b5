/**
 * Runtime fields as Elasticsearch reads them (RuntimeField.parseRuntimeFields), from a
 * search's `runtime_mappings` or a mapping's `runtime` section: per field a `type` and
 * optionally a Painless `script` that calls `emit(...)`, and a `format` for dates. Without a
 * script the field's values are read from `_source`. A `null` definition (only in a mapping
 * update) removes the field.
 */
import { mapperParsing, notImplemented } from '../errors/catalogue.ts';
import type { ParseCtx } from '../query/parse-context.ts';
import { parseScriptSpec, type ScriptSpec } from '../script/script-spec.ts';

export const RUNTIME_TYPES = ['boolean', 'date', 'double', 'geo_point', 'ip', 'keyword', 'long'] as const;
export type RuntimeType = (typeof RUNTIME_TYPES)[number];

export interface RuntimeFieldSpec {
  type: RuntimeType;
  /** The script, a stored one resolved when the caller could. */
  script?: ScriptSpec;
  /** date only. */
  format?: string;
  meta?: Record<string, unknown>;
  /** `continue`: a document whose script fails gets no values (and the search goes on). */
  onScriptError?: 'fail' | 'continue';
}

export type RuntimeMappings = Record<string, RuntimeFieldSpec>;

function javaClass(v: unknown): string {
  if (typeof v === 'string') return 'java.lang.String';
  if (typeof v === 'number') return Number.isInteger(v) ? 'java.lang.Integer' : 'java.lang.Double';
  if (typeof v === 'boolean') return 'java.lang.Boolean';
  if (Array.isArray(v)) return 'java.util.ArrayList';
  return 'java.lang.Object';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One field's definition. */
export function parseRuntimeField(name: string, def: unknown, ctx?: ParseCtx): RuntimeFieldSpec {
  if (!isObject(def)) {
    throw mapperParsing(`Expected map for runtime field [${name}] definition but got a ${javaClass(def)}`);
  }
  const type = def.type;
  if (type === undefined || type === null)
    throw mapperParsing(`No type specified for runtime field [${name}]`);
  if (type === 'composite' || type === 'lookup') throw notImplemented(`runtime fields of type [${type}]`);
  if (typeof type !== 'string' || !(RUNTIME_TYPES as readonly string[]).includes(type)) {
    throw mapperParsing(`No handler for type [${String(type)}] declared on runtime field [${name}]`);
  }
  const spec: RuntimeFieldSpec = { type: type as RuntimeType };
  for (const [key, v] of Object.entries(def)) {
    switch (key) {
      case 'type':
        break;
      case 'script':
        if (v === null) break;
        spec.script = parseScriptSpec(ctx, v);
        break;
      case 'format':
        if (type !== 'date') throw unknownParameter(name, key, type);
        if (typeof v !== 'string')
          throw mapperParsing(`[format] on runtime field [${name}] must be a string`);
        spec.format = v;
        break;
      case 'meta':
        if (!isObject(v))
          throw mapperParsing(`[meta] on mapper [${name}] of type [${type}] must be an object`);
        spec.meta = v;
        break;
      case 'on_script_error':
        if (v !== 'fail' && v !== 'continue') {
          throw mapperParsing(
            `Unknown value [${String(v)}] for field [on_script_error] - accepted values are [fail, continue]`,
          );
        }
        if (!def.script) {
          throw mapperParsing(`runtime field [${name}] must have a [script] to use [on_script_error]`);
        }
        spec.onScriptError = v;
        break;
      default:
        throw unknownParameter(name, key, type);
    }
  }
  return spec;
}

function unknownParameter(name: string, key: string, type: string) {
  return mapperParsing(`unknown parameter [${key}] on runtime field [${name}] of type [${type}]`);
}

/** A `runtime_mappings` object (search) — every value a definition. */
export function parseRuntimeMappings(v: unknown, ctx?: ParseCtx): RuntimeMappings {
  if (!isObject(v)) throw mapperParsing(`Expected map for runtime mappings but got a ${javaClass(v)}`);
  const out: RuntimeMappings = {};
  for (const [name, def] of Object.entries(v)) out[name] = parseRuntimeField(name, def, ctx);
  return out;
}

/** A runtime field as a mapping (or `GET _mapping`) prints it. */
export function renderRuntimeField(spec: RuntimeFieldSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { type: spec.type };
  if (spec.format !== undefined) out.format = spec.format;
  if (spec.meta !== undefined) out.meta = spec.meta;
  if (spec.onScriptError !== undefined) out.on_script_error = spec.onScriptError;
  if (spec.script) {
    const s: Record<string, unknown> = spec.script.id !== undefined ? { id: spec.script.id } : {};
    if (spec.script.id === undefined) {
      s.source = spec.script.source;
      s.lang = spec.script.lang;
    }
    if (Object.keys(spec.script.params).length > 0) s.params = spec.script.params;
    out.script = s;
  }
  return out;
}
