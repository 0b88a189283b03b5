/**
 * Parses a `mappings` body (create index, PUT _mapping, dynamic updates) into a RootNode with
 * Elasticsearch's validation and error texts. Errors are the inner ones (mapper_parsing,
 * illegal_argument); the caller wraps them in `Failed to parse mapping: …`.
 */
import {
  illegalArgument,
  mapperParsing,
  parseException,
  parseRuntimeField,
  type RuntimeFieldSpec,
  ShoalError,
} from '@shoal/protocol';
import { validateDateFormat } from '../dates/index.ts';
import { compileScript } from '../script/script.ts';
import { compileTemplates } from './dynamic-templates.ts';
import { javaToString } from './java-text.ts';
import { mergeNodes } from './merge.ts';
import {
  childPath,
  type Dynamic,
  type FieldNode,
  isPlainObject,
  type MapperNode,
  type ObjectNode,
  ROOT_NAME,
  type RootNode,
  type SourceConfig,
} from './nodes.ts';
import { validateNullValue } from './null-values.ts';
import { type LeafType, type ParamContext, parseBool } from './params.ts';
import { isSpecialType, validateSpecialField } from './special-types.ts';
import { LEAF_TYPES, PARAMS } from './type-params.ts';

function remaining(entries: [string, unknown][]): string {
  return entries.map(([k, v]) => ` [${k} : ${javaToString(v)}]`).join('');
}

function boolOption(v: unknown, name: string): boolean {
  try {
    return parseBool(v);
  } catch (e) {
    throw illegalArgument(`Could not convert [${name}] to boolean`, e instanceof ShoalError ? e : undefined);
  }
}

function parseDynamic(v: unknown): Dynamic {
  const s = javaToString(v).toLowerCase();
  if (s === 'strict') return 'strict';
  if (s === 'runtime') return 'runtime';
  return boolOption(v, 'dynamic.dynamic') ? 'true' : 'false';
}

export function parseLeaf(
  name: string,
  path: string,
  type: LeafType,
  node: Record<string, unknown>,
): FieldNode {
  const params: Record<string, unknown> = {};
  let fields = new Map<string, FieldNode>();
  let copyTo: string[] = [];
  const specs = PARAMS[type];
  const ctx: ParamContext = { field: name, type, params };
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    if (key === 'fields') {
      fields = parseMultiFields(name, path, value);
      continue;
    }
    if (key === 'copy_to') {
      copyTo = Array.isArray(value) ? value.map(javaToString) : [javaToString(value)];
      continue;
    }
    const spec = specs.find((s) => s.name === key);
    if (!spec) throw mapperParsing(`unknown parameter [${key}] on mapper [${name}] of type [${type}]`);
    if (value === null && !spec.acceptsNull) {
      throw mapperParsing(`[${key}] on mapper [${name}] of type [${type}] must not have a [null] value`);
    }
    params[key] = spec.parse(value, ctx);
  }
  if (type === 'text') {
    if (params.search_analyzer !== undefined && params.analyzer === undefined) {
      throw mapperParsing(`analyzer on field [${name}] must be set when search_analyzer is set`);
    }
    if (params.search_quote_analyzer !== undefined && params.search_analyzer === undefined) {
      throw mapperParsing(`analyzer on field [${name}] must be set when search_quote_analyzer is set`);
    }
  }
  if (type === 'scaled_float' && params.scaling_factor === undefined) {
    throw illegalArgument('Field [scaling_factor] is required');
  }
  if (isSpecialType(type)) validateSpecialField(name, type, params);
  if (params.null_value !== undefined && params.null_value !== null) {
    params.null_value = validateNullValue(name, type, params);
  }
  return { kind: 'field', name, path, type, params, fields, copyTo };
}

function parseMultiFields(parentName: string, parentPath: string, value: unknown): Map<string, FieldNode> {
  const out = new Map<string, FieldNode>();
  if (Array.isArray(value) && value.length === 0) return out;
  if (!isPlainObject(value)) {
    throw mapperParsing(
      `Expected map for property [fields] on field [${parentName}] but got a ${javaToString(value)}`,
    );
  }
  for (const [name, def] of Object.entries(value)) {
    if (name.includes('.')) {
      throw mapperParsing(
        `Field name [${name}] which is a multi field of [${parentName}] cannot contain '.'`,
      );
    }
    if (!isPlainObject(def)) {
      throw mapperParsing(`illegal field [${name}], only fields can be specified inside fields`);
    }
    if (def.type === undefined) throw mapperParsing(`No type specified for field [${name}]`);
    const type = javaToString(def.type);
    if (type === 'object' || type === 'nested')
      throw mapperParsing(`Type [${type}] cannot be used in multi field`);
    if (!LEAF_TYPES.has(type))
      throw mapperParsing(`No handler for type [${type}] declared on field [${name}]`);
    out.set(name, parseLeaf(name, `${parentPath}.${name}`, type as LeafType, def));
  }
  return out;
}

function parseObject(
  name: string,
  path: string,
  kind: 'object' | 'nested',
  node: Record<string, unknown>,
): ObjectNode {
  let dynamic: Dynamic | undefined;
  let enabled: boolean | undefined;
  let includeInParent: boolean | undefined;
  let includeInRoot: boolean | undefined;
  let children = new Map<string, MapperNode>();
  const rest: [string, unknown][] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') continue;
    if (key === 'dynamic') dynamic = parseDynamic(value);
    else if (key === 'enabled') enabled = boolOption(value, 'enabled.enabled');
    else if (key === 'properties') children = parseProperties(path, value);
    else if (kind === 'nested' && key === 'include_in_parent')
      includeInParent = boolOption(value, 'include_in_parent');
    else if (kind === 'nested' && key === 'include_in_root')
      includeInRoot = boolOption(value, 'include_in_root');
    else rest.push([key, value]);
  }
  if (rest.length > 0)
    throw mapperParsing(`Mapping definition for [${name}] has unsupported parameters: ${remaining(rest)}`);
  return { kind, name, path, dynamic, enabled, includeInParent, includeInRoot, children };
}

function checkName(name: string): void {
  if (name.length === 0) throw illegalArgument('field name cannot be an empty string');
  if (name.trim().length === 0)
    throw illegalArgument(`field name cannot contain only whitespace: ['${name}']`);
  if (name.startsWith('.') || name.endsWith('.') || name.includes('..')) {
    throw illegalArgument(`field name cannot contain only whitespace: ['${name}']`);
  }
}

/** One entry of `properties`; `key` may be dotted (`a.b`), which means objects `a` then `b`. */
function parseProperty(parentPath: string, key: string, def: Record<string, unknown>): MapperNode {
  checkName(key);
  let type: string;
  if (def.type !== undefined && def.type !== null) type = javaToString(def.type);
  else if (def.properties !== undefined && def.properties !== null) type = 'object';
  else if (Object.keys(def).length === 1 && def.enabled !== undefined) type = 'object';
  else throw mapperParsing(`No type specified for field [${key}]`);
  if (type !== 'object' && type !== 'nested' && !LEAF_TYPES.has(type)) {
    throw mapperParsing(`No handler for type [${type}] declared on field [${key}]`);
  }
  const parts = key.split('.');
  const leaf = parts[parts.length - 1]!;
  const leafPath = childPath(parentPath, key);
  let node: MapperNode =
    type === 'object' || type === 'nested'
      ? parseObject(leaf, leafPath, type, def)
      : parseLeaf(leaf, leafPath, type as LeafType, def);
  for (let i = parts.length - 2; i >= 0; i--) {
    const objPath = childPath(parentPath, parts.slice(0, i + 1).join('.'));
    node = { kind: 'object', name: parts[i]!, path: objPath, children: new Map([[node.name, node]]) };
  }
  return node;
}

function parseProperties(parentPath: string, value: unknown): Map<string, MapperNode> {
  const children = new Map<string, MapperNode>();
  if (Array.isArray(value) && value.length === 0) return children;
  if (!isPlainObject(value)) throw parseException('properties must be a map type');
  for (const [key, def] of Object.entries(value)) {
    if (Array.isArray(def) && def.length === 0) continue;
    if (!isPlainObject(def)) {
      throw mapperParsing(
        `Expected map for property [fields] on field [${key}] but got a class java.lang.String`,
      );
    }
    const node = parseProperty(parentPath, key, def);
    const existing = children.get(node.name);
    children.set(node.name, existing ? mergeNodes(existing, node) : node);
  }
  return children;
}

function stringList(v: unknown): string[] {
  return Array.isArray(v) ? v.map(javaToString) : [javaToString(v)];
}

function parseMetaConfig(name: string, value: unknown, accept: Record<string, (v: unknown) => void>): void {
  if (!isPlainObject(value)) throw illegalArgument(`[${name}] config must be an object`);
  for (const [key, v] of Object.entries(value)) {
    const handler = accept[key];
    if (!handler) throw mapperParsing(`unknown parameter [${key}] on mapper [${name}] of type [null]`);
    handler(v);
  }
}

/** Parses a whole `mappings` object. Throws the unwrapped error. */
export function parseRoot(json: Record<string, unknown> | undefined): RootNode {
  const body = json ?? {};
  let dynamic: Dynamic | undefined;
  let enabled: boolean | undefined;
  let children = new Map<string, MapperNode>();
  let dateDetection: boolean | undefined;
  let numericDetection: boolean | undefined;
  let dynamicDateFormats: string[] | undefined;
  let dynamicTemplates: unknown[] | undefined;
  let source: SourceConfig | undefined;
  let routingRequired: boolean | undefined;
  let meta: Record<string, unknown> | undefined;
  let runtime: Record<string, RuntimeFieldSpec | null> | undefined;
  const rest: [string, unknown][] = [];
  for (const [key, value] of Object.entries(body)) {
    switch (key) {
      case 'dynamic':
        dynamic = parseDynamic(value);
        break;
      case 'enabled':
        enabled = boolOption(value, 'enabled.enabled');
        break;
      case 'properties':
        children = parseProperties('', value);
        break;
      case 'date_detection':
        dateDetection = boolOption(value, 'date_detection');
        break;
      case 'numeric_detection':
        numericDetection = boolOption(value, 'numeric_detection');
        break;
      case 'dynamic_date_formats': {
        const formats = stringList(value);
        for (const f of formats) validateDateFormat(f);
        dynamicDateFormats = formats;
        break;
      }
      case 'dynamic_templates':
        if (!Array.isArray(value))
          throw mapperParsing(`Dynamic template syntax error. An array of named objects is expected.`);
        compileTemplates(value);
        dynamicTemplates = value;
        break;
      case 'runtime':
        runtime = parseRuntimeSection(value);
        break;
      case '_source': {
        const cfg: SourceConfig = {};
        parseMetaConfig('_source', value, {
          enabled: (v) => (cfg.enabled = parseBool(v)),
          mode: (v) => {
            const m = javaToString(v);
            if (m !== 'stored' && m !== 'disabled' && m !== 'synthetic') {
              throw mapperParsing(
                `Unknown value [${m}] for field [mode] - accepted values are [synthetic, stored, disabled]`,
              );
            }
            cfg.mode = m;
          },
          includes: (v) => (cfg.includes = stringList(v)),
          excludes: (v) => (cfg.excludes = stringList(v)),
        });
        source = cfg;
        break;
      }
      case '_routing':
        parseMetaConfig('_routing', value, { required: (v) => (routingRequired = parseBool(v)) });
        break;
      case '_meta':
        if (!isPlainObject(value))
          throw mapperParsing(`[_meta] must be an object, got ${javaToString(value)}`);
        meta = value;
        break;
      default:
        rest.push([key, value]);
    }
  }
  if (rest.length > 0)
    throw mapperParsing(`Root mapping definition has unsupported parameters: ${remaining(rest)}`);
  return {
    object: { kind: 'object', name: ROOT_NAME, path: '', dynamic, enabled, children },
    dateDetection,
    numericDetection,
    dynamicDateFormats,
    dynamicTemplates,
    source,
    routingRequired,
    meta,
    ...(runtime ? { runtime } : {}),
  };
}

/** RootObjectMapper's `runtime`: each field's definition, `null` to remove one in an update. */
function parseRuntimeSection(value: unknown): Record<string, RuntimeFieldSpec | null> {
  if (!isPlainObject(value)) throw mapperParsing(`runtime must be a map type`);
  const out: Record<string, RuntimeFieldSpec | null> = {};
  for (const [name, def] of Object.entries(value)) {
    if (def === null) {
      out[name] = null;
      continue;
    }
    const spec = parseRuntimeField(name, def);
    // The script compiles when the mapping is parsed: a broken one is the mapping's error.
    if (spec.script?.source !== undefined) compileScript(spec.script.source);
    out[name] = spec;
  }
  return out;
}
