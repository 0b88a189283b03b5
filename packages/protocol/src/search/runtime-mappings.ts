/**
 * Runtime fields as Elasticsearch reads them (RuntimeField.parseRuntimeFields), from a
 * search's `runtime_mappings` or a mapping's `runtime` section: per field a `type` and
 * optionally a Painless `script` that calls `emit(...)`, and a `format` for dates. Without a
 * script the field's values are read from `_source`. A `null` definition (only in a mapping
 * update) removes the field. A `composite` field's script emits a map; its `fields` are
 * sub-fields `name.key` of their own types, each reading its key of the map
 * (flattenRuntimeFields turns them into fields of their own). `lookup` fields are not run.
 */
import { mapperParsing, notImplemented } from '../errors/catalogue.ts';
import type { ParseCtx } from '../query/parse-context.ts';
import { parseScriptSpec, type ScriptSpec } from '../script/script-spec.ts';

export const RUNTIME_TYPES = ['boolean', 'date', 'double', 'geo_point', 'ip', 'keyword', 'long'] as const;
export type RuntimeType = (typeof RUNTIME_TYPES)[number];

export interface RuntimeFieldSpec {
  type: RuntimeType | 'composite';
  /** composite only: the sub-fields, by the key of the emitted map they read. */
  fields?: Record<string, RuntimeFieldSpec>;
  /** A composite's sub-field once flattened: the key it reads of the map the script emits. */
  compositeKey?: string;
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

/** One field's definition; `parent` names the composite field a sub-field belongs to. */
export function parseRuntimeField(
  name: string,
  def: unknown,
  ctx?: ParseCtx,
  parent?: string,
): RuntimeFieldSpec {
  if (!isObject(def)) {
    throw mapperParsing(`Expected map for runtime field [${name}] definition but got a ${javaClass(def)}`);
  }
  const type = def.type;
  if (type === undefined || type === null)
    throw mapperParsing(`No type specified for runtime field [${name}]`);
  if (type === 'lookup') throw notImplemented(`runtime fields of type [${type}]`);
  if (type === 'composite') {
    if (parent !== undefined) {
      throw mapperParsing(`Composite field [${name}] cannot be a child of composite field [${parent}]`);
    }
    return parseComposite(name, def, ctx);
  }
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
        if (parent !== undefined) {
          throw mapperParsing(
            `Cannot use [script] parameter on sub-field [${name}] of composite field [${parent}]`,
          );
        }
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
        if (parent !== undefined) throw unknownParameter(name, key, type);
        spec.onScriptError = v;
        break;
      default:
        throw unknownParameter(name, key, type);
    }
  }
  return spec;
}

/** CompositeRuntimeField: a `script` and `fields` (both required), `on_script_error`, `meta`. */
function parseComposite(name: string, def: Record<string, unknown>, ctx?: ParseCtx): RuntimeFieldSpec {
  const spec: RuntimeFieldSpec = { type: 'composite', fields: {} };
  for (const [key, v] of Object.entries(def)) {
    switch (key) {
      case 'type':
        break;
      case 'script':
        if (v !== null) spec.script = parseScriptSpec(ctx, v);
        break;
      case 'fields':
        if (!isObject(v)) {
          throw mapperParsing(
            `[fields] must be an object, got ${javaClass(v)}[${String(v)}] for field [${name}]`,
          );
        }
        for (const [sub, subDef] of Object.entries(v)) {
          spec.fields![sub] = parseRuntimeField(sub, subDef, ctx, name);
        }
        break;
      case 'meta':
        if (!isObject(v))
          throw mapperParsing(`[meta] on mapper [${name}] of type [composite] must be an object`);
        spec.meta = v;
        break;
      case 'on_script_error':
        if (v !== 'fail' && v !== 'continue') {
          throw mapperParsing(
            `Unknown value [${String(v)}] for field [on_script_error] - accepted values are [fail, continue]`,
          );
        }
        spec.onScriptError = v;
        break;
      default:
        throw unknownParameter(name, key, 'composite');
    }
  }
  if (!spec.script) throw mapperParsing(`composite runtime field [${name}] must declare a [script]`);
  if (Object.keys(spec.fields!).length === 0) {
    throw mapperParsing(`composite runtime field [${name}] must declare its [fields]`);
  }
  return spec;
}

/**
 * The fields a search sees: a composite field becomes its sub-fields `name.key`, each running
 * the composite's script and reading its key of the emitted map.
 */
export function flattenRuntimeFields(defs: RuntimeMappings): RuntimeMappings {
  if (!Object.values(defs).some((d) => d.type === 'composite')) return defs;
  const out: RuntimeMappings = {};
  for (const [name, def] of Object.entries(defs)) {
    if (def.type !== 'composite') {
      out[name] = def;
      continue;
    }
    for (const [key, sub] of Object.entries(def.fields ?? {})) {
      const leaf: RuntimeFieldSpec = { ...sub, script: def.script!, compositeKey: key };
      if (def.onScriptError !== undefined) leaf.onScriptError = def.onScriptError;
      out[`${name}.${key}`] = leaf;
    }
  }
  return out;
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
  if (spec.fields) {
    out.fields = Object.fromEntries(
      Object.keys(spec.fields)
        .sort()
        .map((k) => [k, renderRuntimeField(spec.fields![k]!)]),
    );
  }
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
