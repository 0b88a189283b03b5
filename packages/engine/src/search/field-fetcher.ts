/**
 * The `fields` and `docvalue_fields` of fetched hits (FieldFetcher, FetchDocValuesPhase), each
 * hit's rendered as `,"fields":{…}` — in the order of Elasticsearch's HashMap — followed by
 * `,"ignored_field_values":{…}` when a requested field ignored values at index time. A hit's
 * `_source` is parsed only when `fields` asks for something.
 */
import { illegalArgument, javaDouble, notImplemented, parseJson, stringifyJson } from '@shoal/protocol';
import type { FetchFieldsSpec, IndexMapping } from '../contract.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { MappedField } from '../mapping/compiled.ts';
import { type DocValuesReader, docValuesReader } from './docvalue-values.ts';
import { JavaHashMap } from './java-hash-map.ts';
import { fetchSourceValues, sourceValueParser, type ValueParser } from './source-values.ts';
import { storedFieldsOf } from './stored-fields.ts';

interface SourceField {
  name: string;
  paths: string[][];
  nullValue: unknown;
  parse: ValueParser;
}

export interface FieldsPlan {
  docValues: { name: string; read: DocValuesReader }[];
  source: SourceField[];
  unmapped: { pattern: RegExp | string }[];
}

const isPattern = (p: string) => p.includes('*');

function patternRegExp(p: string): RegExp {
  return new RegExp(
    `^${p
      .split('*')
      .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

/** Mapped leaf names a pattern matches (metadata fields are not leaves of the mapping). */
function matching(mapping: IndexMapping, pattern: string): MappedField[] {
  if (pattern.startsWith('_') && !isPattern(pattern)) {
    throw notImplemented(`metadata field [${pattern}] in fields or docvalue_fields`);
  }
  const found = mapping.fieldsMatching(pattern) as MappedField[];
  for (const f of found) {
    for (let dot = f.path.indexOf('.'); dot >= 0; dot = f.path.indexOf('.', dot + 1)) {
      if (mapping.isNested(f.path.slice(0, dot)))
        throw notImplemented('fields inside nested objects in fields');
    }
  }
  return found;
}

/** Where a field's values are in `_source`: a multi-field reads its parent's. */
function sourcePaths(f: MappedField): string[][] {
  const path = f.multiField ? f.path.slice(0, f.path.lastIndexOf('.')) : f.path;
  return [path.split('.')];
}

/** FetchDocValuesContext + FieldFetcher.create: patterns resolved, value fetchers built. */
export function planFields(mapping: IndexMapping, spec: FetchFieldsSpec, index: string): FieldsPlan {
  const plan: FieldsPlan = { docValues: [], source: [], unmapped: [] };
  for (const ff of spec.docValueFields ?? []) {
    for (const f of matching(mapping, ff.field)) {
      plan.docValues.push({ name: outputName(ff.field, f), read: docValuesReader(f, ff.format, index) });
    }
  }
  const seen = new Set<string>();
  for (const f of storedFieldsOf(mapping, spec.storedFields ?? [])) {
    seen.add(f.path);
    plan.source.push({
      name: f.path,
      paths: sourcePaths(f),
      nullValue: f.nullValue,
      parse: sourceValueParser(f, undefined),
    });
  }
  for (const ff of spec.fields ?? []) {
    if (ff.includeUnmapped)
      plan.unmapped.push({ pattern: isPattern(ff.field) ? patternRegExp(ff.field) : ff.field });
    for (const f of matching(mapping, ff.field)) {
      const name = outputName(ff.field, f);
      if (seen.has(name)) continue;
      seen.add(name);
      if (f.runtime) {
        // A runtime field's values are computed, not in `_source`: read as doc values are
        // (geo points as GeoJSON, the `fields` default).
        const read = f.type === 'geo_point' ? geoJsonReader(f.path) : docValuesReader(f, ff.format, index);
        plan.docValues.push({ name, read });
        continue;
      }
      let parse: ValueParser;
      try {
        parse = sourceValueParser(f, ff.format);
      } catch (e) {
        const which = isPattern(ff.field) ? ` which matched [${ff.field}]` : '';
        const reason = (e as { reason?: string }).reason ?? String(e);
        if ((e as { status?: number }).status === 501) throw e;
        throw illegalArgument(`error fetching [${f.path}]${which}: ${reason}`, e as never);
      }
      plan.source.push({ name, paths: sourcePaths(f), nullValue: f.nullValue, parse });
    }
  }
  return plan;
}

/** A field asked by name keeps that name in the hit (an alias's values come under the alias). */
function outputName(asked: string, f: MappedField): string {
  return isPattern(asked) ? f.path : asked;
}

interface FieldValues {
  values: string[];
  ignored: unknown[];
}

/** Leaf values of `source` whose dotted path a pattern matches (FieldFetcher.collectUnmapped). */
function collectUnmapped(
  node: unknown,
  path: string,
  pattern: RegExp,
  skip: ReadonlySet<string>,
  out: JavaHashMap<FieldValues>,
  found: Map<string, FieldValues>,
): void {
  if (Array.isArray(node)) {
    for (const v of node) collectUnmapped(v, path, pattern, skip, out, found);
    return;
  }
  if (typeof node === 'object' && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      collectUnmapped(v, path === '' ? k : `${path}.${k}`, pattern, skip, out, found);
    }
    return;
  }
  if (node === null || path === '' || skip.has(path) || !pattern.test(path)) return;
  let fv = found.get(path);
  if (!fv) {
    fv = { values: [], ignored: [] };
    found.set(path, fv);
    out.put(path, fv);
  }
  fv.values.push(stringifyJson(node));
}

function unmappedConcrete(source: unknown, path: string): string[] {
  const out: string[] = [];
  const walk = (node: unknown, parts: string[], i: number) => {
    if (Array.isArray(node)) {
      for (const v of node) if (v !== null) walk(v, parts, i);
      return;
    }
    if (i === parts.length) {
      if (node !== null && typeof node !== 'object') out.push(stringifyJson(node));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    let key = '';
    for (let j = i; j < parts.length; j++) {
      key = j === i ? parts[j]! : `${key}.${parts[j]}`;
      const map = node as Record<string, unknown>;
      if (Object.hasOwn(map, key)) {
        walk(map[key], parts, j + 1);
        return;
      }
    }
  };
  walk(source, path.split('.'), 0);
  return out;
}

/** One hit's `fields` JSON (with its leading comma), or '' when it has none. */
export function hitFieldsJson(
  plan: FieldsPlan,
  rs: ReaderSegment,
  local: number,
  sourceBytes: () => Uint8Array,
  /** `script_fields` values (JSON texts) by name. */
  scripted?: readonly [string, string[]][],
): string {
  const hit = new JavaHashMap<FieldValues>();
  if (scripted) for (const [name, values] of scripted) hit.put(name, { values, ignored: [] });
  for (const dv of plan.docValues) {
    const values: string[] = [];
    dv.read(rs, local, values);
    hit.put(dv.name, { values, ignored: [] });
  }
  if (plan.source.length > 0 || plan.unmapped.length > 0) {
    const source = parseJson(sourceBytes(), '_source');
    const fetched = new JavaHashMap<FieldValues>();
    for (const f of plan.source) {
      const fv: FieldValues = { values: [], ignored: [] };
      fetchSourceValues(source, f.paths, f.nullValue, f.parse, fv.values, fv.ignored);
      if (fv.values.length > 0 || fv.ignored.length > 0) fetched.put(f.name, fv);
    }
    const mapped = new Set(plan.source.map((f) => f.name));
    const found = new Map<string, FieldValues>();
    for (const u of plan.unmapped) {
      if (typeof u.pattern === 'string') {
        if (mapped.has(u.pattern)) continue;
        const values = unmappedConcrete(source, u.pattern);
        if (values.length > 0) fetched.put(u.pattern, { values, ignored: [] });
      } else collectUnmapped(source, '', u.pattern, mapped, fetched, found);
    }
    hit.putAll(fetched);
  }
  const entries = hit.iterate();
  let fields = '';
  let ignored = '';
  for (const [name, fv] of entries) {
    if (fv.values.length > 0) fields += `${fields ? ',' : ''}${stringifyJson(name)}:[${fv.values.join(',')}]`;
    if (fv.ignored.length > 0)
      ignored += `${ignored ? ',' : ''}${stringifyJson(name)}:[${fv.ignored.map((v) => stringifyJson(v)).join(',')}]`;
  }
  let out = fields ? `,"fields":{${fields}}` : '';
  if (ignored) out += `,"ignored_field_values":{${ignored}}`;
  return out;
}

/** A geo point field's values as GeoJSON points (`fields` on a runtime geo_point). */
function geoJsonReader(path: string): DocValuesReader {
  return (rs, doc, out) => {
    const g = rs.segment.field(path)?.geo;
    if (!g) return;
    for (let i = g.starts[doc]!; i < g.starts[doc + 1]!; i++) {
      out.push(`{"type":"Point","coordinates":[${javaDouble(g.lon[i]!)},${javaDouble(g.lat[i]!)}]}`);
    }
  };
}
