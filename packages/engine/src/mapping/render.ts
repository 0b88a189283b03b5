/**
 * The mapping as `GET /{index}/_mapping` prints it: properties sorted by name, objects
 * without `type` unless they are empty, parameters only when set to a non-default value (in
 * Elasticsearch's parameter order), then `fields`, then `copy_to`. Root order: dynamic,
 * enabled, _meta, _routing, _source, dynamic_date_formats, dynamic_templates, date_detection,
 * numeric_detection, properties.
 */
import { renderRuntimeField } from '@shoal/protocol';
import type { FieldNode, MapperNode, ObjectNode, RootNode } from './nodes.ts';
import { printsParam } from './params.ts';
import { PARAMS } from './type-params.ts';

function sortedEntries<T>(m: ReadonlyMap<string, T>): [string, T][] {
  return [...m.entries()].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
}

/**
 * `display`: the mapping as a response prints it, where values Elasticsearch holds as Java
 * doubles and floats are RawJson text (`100.0`); otherwise plain JSON values, to store, compare
 * and send to the shards.
 */
export function renderField(f: FieldNode, display = false): Record<string, unknown> {
  const out: Record<string, unknown> = { type: f.type };
  for (const spec of PARAMS[f.type]) {
    if (!(spec.name in f.params)) continue;
    const value = f.params[spec.name];
    if (!printsParam(spec, value, f.params)) continue;
    out[spec.name] = display && spec.display ? spec.display(value, f.type) : value;
  }
  if (f.fields.size > 0) {
    const fields: Record<string, unknown> = {};
    for (const [name, sub] of sortedEntries(f.fields)) fields[name] = renderField(sub, display);
    out.fields = fields;
  }
  if (f.copyTo.length > 0) out.copy_to = [...f.copyTo];
  return out;
}

function renderProperties(o: ObjectNode, out: Record<string, unknown>, display: boolean): void {
  if (o.children.size === 0) return;
  const props: Record<string, unknown> = {};
  for (const [name, child] of sortedEntries(o.children)) props[name] = renderNode(child, display);
  out.properties = props;
}

export function renderObject(o: ObjectNode, display = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (o.kind === 'nested') {
    out.type = 'nested';
    if (o.includeInParent) out.include_in_parent = true;
    if (o.includeInRoot) out.include_in_root = true;
  } else if (o.children.size === 0) {
    out.type = 'object';
  }
  if (o.dynamic !== undefined) out.dynamic = o.dynamic;
  if (o.enabled === false) out.enabled = false;
  renderProperties(o, out, display);
  return out;
}

export function renderNode(n: MapperNode, display = false): Record<string, unknown> {
  return n.kind === 'field' ? renderField(n, display) : renderObject(n, display);
}

export function renderRoot(r: RootNode, display = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (r.object.dynamic !== undefined) out.dynamic = r.object.dynamic;
  if (r.object.enabled === false) out.enabled = false;
  if (r.meta !== undefined) out._meta = r.meta;
  if (r.routingRequired === true) out._routing = { required: true };
  if (r.source) {
    const s: Record<string, unknown> = {};
    if (r.source.enabled !== undefined) s.enabled = r.source.enabled;
    if (r.source.mode !== undefined) s.mode = r.source.mode;
    if (r.source.includes && r.source.includes.length > 0) s.includes = [...r.source.includes];
    if (r.source.excludes && r.source.excludes.length > 0) s.excludes = [...r.source.excludes];
    if (Object.keys(s).length > 0) out._source = s;
  }
  if (r.dynamicDateFormats !== undefined) out.dynamic_date_formats = [...r.dynamicDateFormats];
  if (r.dynamicTemplates !== undefined) out.dynamic_templates = r.dynamicTemplates;
  if (r.dateDetection !== undefined) out.date_detection = r.dateDetection;
  if (r.numericDetection !== undefined) out.numeric_detection = r.numericDetection;
  const runtime = Object.entries(r.runtime ?? {}).filter(([, d]) => d !== null);
  if (runtime.length > 0) {
    const rt: Record<string, unknown> = {};
    for (const [name, def] of runtime.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0)))
      rt[name] = renderRuntimeField(def!);
    out.runtime = rt;
  }
  renderProperties(r.object, out, display);
  return out;
}
