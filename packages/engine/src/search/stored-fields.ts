/**
 * `stored_fields` on fields mapped with `store: true`, for GET and search hits. Shoal keeps one
 * stored copy of a document, its `_source`, so a stored field's values are read from there and
 * rendered as the field's type renders them (dates in the field's format, numbers as numbers) —
 * what Elasticsearch returns from its separate stored copy. Names of fields that are not stored
 * are left out, as Elasticsearch leaves them out; metadata names (`_routing`, `_source`) are
 * the caller's.
 */
import { notImplemented, parseJson } from '@shoal/protocol';
import type { IndexMapping } from '../contract.ts';
import type { MappedField } from '../mapping/compiled.ts';
import { fetchSourceValues, sourceValueParser } from './source-values.ts';

function storedMatches(mapping: IndexMapping, name: string): MappedField[] {
  if (name.startsWith('_')) return [];
  return (mapping.fieldsMatching(name) as MappedField[]).filter((f) => f.store === true);
}

/** The stored fields that `names` reach in `mapping` (none: no `fields` to render). */
export function storedFieldsOf(mapping: IndexMapping, names: readonly string[]): MappedField[] {
  const out: MappedField[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    for (const f of storedMatches(mapping, name)) {
      if (seen.has(f.path)) continue;
      seen.add(f.path);
      out.push(f);
    }
  }
  if (out.length > 0 && mapping.sourceEnabled === false) {
    throw notImplemented('stored_fields on store: true fields of an index whose _source is disabled');
  }
  return out;
}

/** One document's stored field values (JSON texts) by field path. */
export function storedFieldValues(
  fields: readonly MappedField[],
  sourceBytes: Uint8Array | undefined,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (fields.length === 0 || !sourceBytes || sourceBytes.length === 0) return out;
  const source = parseJson(sourceBytes, '_source');
  for (const f of fields) {
    const path = f.multiField ? f.path.slice(0, f.path.lastIndexOf('.')) : f.path;
    const values: string[] = [];
    fetchSourceValues(source, [path.split('.')], f.nullValue, sourceValueParser(f, undefined), values, []);
    if (values.length > 0) out.set(f.path, values);
  }
  return out;
}
