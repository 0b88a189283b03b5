/**
 * Parses one document against a compiled mapping: walks the JSON, turns each value into
 * index-ready terms, tokens, numbers or points, and introduces dynamic fields as Elasticsearch
 * does (collecting them into a `{"properties": …}` update the caller merges before re-parsing).
 * Arrays are multi-valued; arrays of objects flatten. `nested` objects are flattened into their
 * parent too, so top-level queries do not see their fields (search/top-level-fields.ts) and the
 * `nested` query answers 501.
 */
import { illegalArgument, mapperParsing, type ShoalError } from '@shoal/protocol';
import type { ParsedDocument } from '../contract.ts';
import { DEFAULT_DATE_FORMAT, detectDateFormat, isJavaDouble, isJavaLong } from '../dates/index.ts';
import { CField, CObject } from './compiled.ts';
import { DOC_COUNT_FIELD, docCountField } from './doc-count-field.ts';
import {
  addTerm,
  type Ctx,
  type DocumentParserMapping,
  location,
  parseNull,
  parseValue,
} from './document-values.ts';
import { type DynamicType, findTemplate, templateMapping } from './dynamic-templates.ts';
import { documentParsingAt, illegalState, strictDynamicAt } from './errors.ts';
import { isCoordinateArray } from './geo-value.ts';
import { javaToString } from './java-text.ts';
import { JsonSyntaxError, lineCol, numberLiteralAt, parseJsonSource } from './json-text.ts';
import { countLeaf, objectDepth } from './limits.ts';
import { childPath, isPlainObject, type ObjectNode, ROOT_NAME } from './nodes.ts';
import { parseLeaf } from './parse-mapping.ts';
import { LEAF_TYPES } from './type-params.ts';

const METADATA_FIELDS = new Set([
  '_id',
  '_index',
  '_routing',
  '_source',
  '_version',
  '_seq_no',
  '_primary_term',
  '_ignored',
  '_field_names',
  '_nested_path',
  '_tier',
  '_data_stream_timestamp',
  '_feature',
]);

let docSeq = 0;
const decoder = new TextDecoder();

function objectName(obj: CObject): string {
  return obj.path === '' ? ROOT_NAME : obj.path;
}

function strictError(obj: CObject, name: string, ctx: Ctx): ShoalError {
  return strictDynamicAt(
    location(ctx),
    `mapping set to strict, dynamic introduction of [${name}] within [${objectName(obj)}] is not allowed`,
  );
}

function lookup(obj: CObject, name: string, ctx: Ctx): CField | CObject | undefined {
  return obj.children.get(name) ?? ctx.overlay?.get(childPath(obj.path, name));
}

// ------------------------------------------------------------------ dynamic mapping

function updateProperties(obj: CObject, ctx: Ctx): Record<string, unknown> {
  if (!ctx.update) {
    ctx.update = {};
    ctx.updateNodes = new Map([['', ctx.update]]);
  }
  let node = ctx.updateNodes!.get(obj.path);
  if (!node) {
    // An existing object on the way to a new field: name it, with what a merge must not see
    // as a change (nested kind and include_in_* values).
    const parentProps = updateProperties(obj.parent!, ctx);
    node = {};
    if (obj.nested) {
      node.type = 'nested';
      if (obj.node.includeInParent) node.include_in_parent = true;
      if (obj.node.includeInRoot) node.include_in_root = true;
    }
    parentProps[obj.name] = node;
    ctx.updateNodes!.set(obj.path, node);
  }
  if (node.type === 'object') delete node.type;
  let props = node.properties as Record<string, unknown> | undefined;
  if (!props) {
    props = {};
    node.properties = props;
  }
  return props;
}

function countNew(ctx: Ctx, n: number): void {
  ctx.newFields += n;
  const limit = ctx.m.totalFieldsLimit;
  if (ctx.m.fieldCount + ctx.newFields > limit) {
    const reason = `Limit of total fields [${limit}] has been exceeded while adding new fields [${ctx.newFields}]`;
    throw documentParsingAt(location(ctx), `failed to parse: ${reason}`, illegalArgument(reason));
  }
}

/** DocumentParser: one document holds at most `index.mapping.nested_objects.limit` nested objects. */
function countNested(ctx: Ctx): void {
  const limit = ctx.m.nestedObjectsLimit;
  if (++ctx.nestedObjects > limit) {
    const reason = `The number of nested documents has exceeded the allowed limit of [${limit}]. This limit can be set by changing the [index.mapping.nested_objects.limit] index level setting.`;
    throw documentParsingAt(location(ctx), `failed to parse: ${reason}`, illegalArgument(reason));
  }
}

/** The template a new field or object takes, with the mapping it gives (dynamic-templates.ts). */
function templateDef(
  obj: CObject,
  name: string,
  type: DynamicType,
  defaultType: string,
  ctx: Ctx,
): Record<string, unknown> | undefined {
  if (ctx.m.templates.length === 0 && !ctx.namedTemplates) return undefined;
  const path = childPath(obj.path, name);
  const t = findTemplate(ctx.m.templates, name, path, type, ctx.namedTemplates?.[path], (reason) =>
    documentParsingAt(location(ctx), `failed to parse: ${reason}`, mapperParsing(reason)),
  );
  if (!t) return undefined;
  const def = templateMapping(t, name, defaultType);
  const mapped = javaToString(def.type);
  if (mapped !== 'object' && mapped !== 'nested' && !LEAF_TYPES.has(mapped)) {
    const reason = `No mapper found for type [${mapped}]`;
    throw documentParsingAt(location(ctx), `failed to parse: ${reason}`, mapperParsing(reason));
  }
  return def;
}

/** A new object, or the leaf field an `object` dynamic template makes of it (flattened, geo_point…). */
function newObjectOrField(obj: CObject, name: string, ctx: Ctx): CObject | CField {
  const def = templateDef(obj, name, 'object', 'object', ctx);
  if (!def && obj.dynamic === 'runtime') return runtimeObject(obj, name, ctx);
  if (!def || def.type === 'object' || def.type === 'nested') return newObject(obj, name, ctx, def);
  return fieldFromDef(obj, name, def, ctx);
}

/**
 * Under `dynamic: runtime` a new object is not mapped (Elasticsearch adds no object field): its
 * leaves become runtime fields named by their full path. The object exists for this parse only.
 */
function runtimeObject(obj: CObject, name: string, ctx: Ctx): CObject {
  const path = childPath(obj.path, name);
  const created = new CObject({ kind: 'object', name, path, children: new Map() }, obj, 'runtime');
  ctx.overlay ??= new Map();
  ctx.overlay.set(path, created);
  return created;
}

/** The runtime field type `dynamic: runtime` gives a new value (keyword, not text, for strings). */
function runtimeDefinition(value: unknown, ctx: Ctx): Record<string, unknown> {
  const def = dynamicDefinition(value, ctx);
  if (def.type === 'text') return { type: 'keyword' };
  if (def.type === 'float') return { type: 'double' };
  return def;
}

/** A new leaf under `dynamic: runtime`: a runtime field of the detected type, unless one exists. */
function newRuntimeField(obj: CObject, name: string, value: unknown, ctx: Ctx): void {
  const path = childPath(obj.path, name);
  const pending = ctx.update?.runtime as Record<string, unknown> | undefined;
  if (ctx.m.runtimeNames.has(path) || pending?.[path] !== undefined) return;
  countNew(ctx, 1);
  if (!ctx.update) {
    ctx.update = {};
    ctx.updateNodes = new Map([['', ctx.update]]);
  }
  const runtime = (ctx.update.runtime as Record<string, unknown> | undefined) ?? {};
  runtime[path] = runtimeDefinition(value, ctx);
  ctx.update.runtime = runtime;
}

function newObject(obj: CObject, name: string, ctx: Ctx, template?: Record<string, unknown>): CObject {
  const path = childPath(obj.path, name);
  if (objectDepth(path) > ctx.m.depthLimit) {
    const reason = `Limit of mapping depth [${ctx.m.depthLimit}] has been exceeded due to object field [${path}]`;
    throw documentParsingAt(location(ctx), `failed to parse: ${reason}`, illegalArgument(reason));
  }
  countNew(ctx, 1);
  const node: ObjectNode = template
    ? templateObject(name, path, template)
    : { kind: 'object', name, path, children: new Map() };
  const created = new CObject(node, obj, obj.dynamic);
  ctx.overlay ??= new Map();
  ctx.overlay.set(path, created);
  const props = updateProperties(obj, ctx);
  const json: Record<string, unknown> = template ? { ...template } : { type: 'object' };
  props[name] = json;
  ctx.updateNodes!.set(path, json);
  return created;
}

/** The mapping Elasticsearch gives a new field from its first value. */
function dynamicDefinition(value: unknown, ctx: Ctx): Record<string, unknown> {
  const m = ctx.m;
  if (typeof value === 'string') {
    if (m.numericDetection) {
      if (isJavaLong(value)) return { type: 'long' };
      if (isJavaDouble(value)) return { type: 'float' };
    }
    if (m.dateDetection) {
      const format = detectDateFormat(value, m.dynamicDateFormats);
      if (format !== undefined)
        return format === DEFAULT_DATE_FORMAT ? { type: 'date' } : { type: 'date', format };
    }
    return { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
  }
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'bigint') return { type: 'long' };
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return { type: 'float' };
    // JSON.parse turns 1.0 into 1; the literal decides, as Jackson's number type does.
    const lit = numberLiteralAt(ctx.text, ctx.path.slice(0, ctx.depth));
    return lit !== undefined && /[.eE]/.test(lit) ? { type: 'float' } : { type: 'long' };
  }
  throw illegalState(`Unable to dynamically map value [${javaToString(value)}]`);
}

/** An object node of a template's mapping (its `dynamic` and `enabled`; properties come later). */
function templateObject(name: string, path: string, def: Record<string, unknown>): ObjectNode {
  const node: { -readonly [K in keyof ObjectNode]: ObjectNode[K] } = {
    kind: def.type === 'nested' ? 'nested' : 'object',
    name,
    path,
    children: new Map(),
  };
  if (def.dynamic !== undefined) {
    const d = javaToString(def.dynamic);
    node.dynamic = d === 'strict' ? 'strict' : d === 'false' ? 'false' : d === 'runtime' ? 'runtime' : 'true';
  }
  if (def.enabled !== undefined) node.enabled = def.enabled === true || def.enabled === 'true';
  return node;
}

/** The JSON type a new value was detected as, in match_mapping_type's terms. */
function dynamicTypeOf(def: Record<string, unknown>): DynamicType {
  switch (def.type) {
    case 'long':
      return 'long';
    case 'float':
      return 'double';
    case 'date':
      return 'date';
    case 'boolean':
      return 'boolean';
    default:
      return 'string';
  }
}

/** Whether a dynamic template maps the new field (it then becomes a mapped field, even under runtime). */
function hasTemplate(obj: CObject, name: string, value: unknown, ctx: Ctx): boolean {
  const def = dynamicDefinition(value, ctx);
  const type = dynamicTypeOf(def);
  return templateDef(obj, name, type, type === 'string' ? 'text' : (def.type as string), ctx) !== undefined;
}

function newField(obj: CObject, name: string, value: unknown, ctx: Ctx): CField {
  let def = dynamicDefinition(value, ctx);
  const type = dynamicTypeOf(def);
  def = templateDef(obj, name, type, type === 'string' ? 'text' : (def.type as string), ctx) ?? def;
  if (def.type === 'object' || def.type === 'nested') {
    const reason = `Can't parse [${childPath(obj.path, name)}] as an object: its value is not an object`;
    throw documentParsingAt(location(ctx), `failed to parse: ${reason}`, mapperParsing(reason));
  }
  return fieldFromDef(obj, name, def, ctx);
}

function fieldFromDef(obj: CObject, name: string, def: Record<string, unknown>, ctx: Ctx): CField {
  const path = childPath(obj.path, name);
  const node = parseLeaf(name, path, def.type as never, def);
  countNew(ctx, countLeaf(node));
  const field = new CField(node, ctx.m.settings, false);
  ctx.overlay ??= new Map();
  ctx.overlay.set(path, field);
  updateProperties(obj, ctx)[name] = def;
  return field;
}

/** The first document to give a constant_keyword without a `value` sets it (a mapping update). */
function constantValueUpdate(f: CField, value: string, ctx: Ctx): void {
  const parts = f.path.split('.');
  let obj: CObject = ctx.m.root;
  for (const part of parts.slice(0, -1)) {
    const next = lookup(obj, part, ctx);
    if (next?.kind !== 'object') return;
    obj = next;
  }
  updateProperties(obj, ctx)[f.name] = { type: 'constant_keyword', value };
}

// ------------------------------------------------------------------ values

function walkEntry(obj: CObject, name: string, value: unknown, ctx: Ctx): void {
  let child = lookup(obj, name, ctx);
  if (value === null) {
    if (child === undefined) {
      if (obj.dynamic === 'strict') throw strictError(obj, name, ctx);
    } else if (child.kind === 'field') {
      parseNull(child, ctx);
    }
    return;
  }
  if (Array.isArray(value)) {
    if (child === undefined) {
      if (obj.dynamic === 'strict') throw strictError(obj, name, ctx);
      if (obj.dynamic === 'false') return;
      // DocumentParser.parseArray: a template for the array as a whole (a geo_point's [lon, lat]).
      const def = isCoordinateArray(value) ? templateDef(obj, name, 'object', 'object', ctx) : undefined;
      if (def?.type === 'geo_point') {
        parseValue(fieldFromDef(obj, name, def, ctx), value, ctx, true);
        return;
      }
    } else if (child.kind === 'field' && child.type === 'geo_point' && isCoordinateArray(value)) {
      parseValue(child, value, ctx, true);
      return;
    } else if (child.kind === 'field' && child.type === 'dense_vector') {
      // The array is the one value.
      parseValue(child, value, ctx, true);
      return;
    }
    const d = ctx.depth++;
    for (let i = 0; i < value.length; i++) {
      ctx.path[d] = i;
      walkEntry(obj, name, value[i], ctx);
    }
    ctx.depth = d;
    return;
  }
  if (typeof value === 'object') {
    if (child === undefined) {
      if (obj.dynamic === 'strict') throw strictError(obj, name, ctx);
      if (obj.dynamic === 'false') return;
      child = newObjectOrField(obj, name, ctx);
    }
    if (child.kind === 'object') {
      if (child.nested) countNested(ctx);
      if (child.enabled) walkObject(value as Record<string, unknown>, child, ctx);
      return;
    }
    parseValue(child, value, ctx, true);
    return;
  }
  if (child === undefined) {
    if (obj.dynamic === 'strict') throw strictError(obj, name, ctx);
    if (obj.dynamic === 'false') return;
    if (obj.dynamic === 'runtime' && !hasTemplate(obj, name, value, ctx)) {
      newRuntimeField(obj, name, value, ctx);
      return;
    }
    child = newField(obj, name, value, ctx);
  }
  if (child.kind === 'object') {
    throw documentParsingAt(
      location(ctx),
      `object mapping for [${child.path}] tried to parse field [${name}] as object, but found a concrete value`,
    );
  }
  parseValue(child, value, ctx, true);
}

/** `{"a.b.c": v}` means `{"a": {"b": {"c": v}}}`. */
function walkDotted(obj: CObject, key: string, value: unknown, ctx: Ctx): void {
  const parts = key.split('.');
  for (const part of parts) {
    if (part.length === 0) {
      throw documentParsingAt(
        location(ctx),
        `failed to parse: object field starting or ending with a [.] makes object resolution ambiguous: [${key}]`,
        illegalArgument(
          `object field starting or ending with a [.] makes object resolution ambiguous: [${key}]`,
        ),
      );
    }
  }
  let current = obj;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i]!;
    let child = lookup(current, part, ctx);
    if (child === undefined) {
      if (current.dynamic === 'strict') throw strictError(current, part, ctx);
      if (current.dynamic === 'false') return;
      child = newObjectOrField(current, part, ctx);
    }
    if (child.kind === 'field') {
      // The leaf receives an object, as after Elasticsearch's dot expansion.
      let nested: unknown = value;
      for (let j = parts.length - 1; j > i; j--) nested = { [parts[j]!]: nested };
      parseValue(child, nested, ctx, true);
      return;
    }
    if (!child.enabled) return;
    current = child;
  }
  walkEntry(current, parts[parts.length - 1]!, value, ctx);
}

function walkObject(value: Record<string, unknown>, obj: CObject, ctx: Ctx): void {
  const d = ctx.depth++;
  const root = obj.path === '';
  for (const key in value) {
    ctx.path[d] = key;
    if (key.length === 0 || key.trim().length === 0) {
      throw documentParsingAt(
        location(ctx),
        key.length === 0
          ? 'failed to parse: Field name cannot be an empty string'
          : `Field name cannot contain only whitespace: [${childPath(obj.path, key)}]`,
      );
    }
    if (root && key === DOC_COUNT_FIELD) {
      ctx.fields.push(docCountField(value[key], ctx.id, location(ctx)));
      continue;
    }
    if (root && METADATA_FIELDS.has(key)) {
      throw documentParsingAt(
        location(ctx),
        `Field [${key}] is a metadata field and cannot be added inside a document. Use the index API request parameters.`,
      );
    }
    if (key.includes('.')) walkDotted(obj, key, value[key], ctx);
    else walkEntry(obj, key, value[key], ctx);
  }
  ctx.depth = d;
}

export interface DocumentParseResult {
  doc: ParsedDocument;
  dynamicUpdate?: Record<string, unknown>;
}

export function parseDocumentWith(
  m: DocumentParserMapping,
  id: string,
  source: Uint8Array,
  routing: string | undefined,
  namedTemplates?: Record<string, string>,
): DocumentParseResult {
  const text = decoder.decode(source);
  if (text.trim().length === 0) throw documentParsingAt('0:0', 'failed to parse, document is empty');
  let json: unknown;
  try {
    json = parseJsonSource(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw documentParsingAt(lineCol(text, e.offset), e.message);
    throw e;
  }
  if (!isPlainObject(json)) throw documentParsingAt(null, 'Malformed content, must start with an object');
  const ctx: Ctx = {
    m,
    text,
    id,
    seq: ++docSeq,
    fields: [],
    path: [],
    depth: 0,
    overlay: undefined,
    update: undefined,
    updateNodes: undefined,
    newFields: 0,
    nestedObjects: 0,
  };
  if (namedTemplates) ctx.namedTemplates = namedTemplates;
  if (m.root.enabled) walkObject(json, m.root, ctx);
  if (ctx.constants) for (const [f, value] of ctx.constants) constantValueUpdate(f, value, ctx);
  // A constant_keyword's value belongs to every document of the index.
  for (const f of m.constantFields) if (f.constantValue !== undefined) addTerm(f, f.constantValue, ctx);
  if (ctx.ignored) ctx.fields.push({ path: '_ignored', type: 'keyword', terms: [...ctx.ignored].sort() });
  // RoutingFieldMapper: the routing value is indexed, so that `term: {_routing: …}` finds it.
  if (routing !== undefined) ctx.fields.push({ path: '_routing', type: 'keyword', terms: [routing] });
  const doc: ParsedDocument = { id, source, fields: ctx.fields };
  if (routing !== undefined) doc.routing = routing;
  return ctx.update ? { doc, dynamicUpdate: ctx.update } : { doc };
}
