/**
 * A mapping as a user under field-level security sees it (MappingMetadata.filterFields, what
 * the get-mapping, get-field-mapping and get-index APIs apply): hidden fields are left out,
 * an object left without fields goes too, and a hidden field whose multi-fields are visible
 * becomes an object holding them.
 */
import { type FieldPredicate, fieldPredicate } from '@shoal/protocol';
import type { IndexAccess } from '@shoal/security';
import type { IndexMetadata } from './index-metadata.ts';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Filters `fields` in place; true when nothing is left in it. */
function filterFields(prefix: string, fields: Json, visible: FieldPredicate): boolean {
  for (const [name, value] of Object.entries(fields)) {
    const path = prefix + name;
    if (!isObject(value)) continue;
    let mayRemove = true;
    let multiField = false;
    if (isObject(value.properties)) {
      mayRemove = filterFields(`${path}.`, value.properties, visible);
    } else if (isObject(value.fields)) {
      multiField = true;
      mayRemove = filterFields(`${path}.`, value.fields, visible);
      if (mayRemove) delete value.fields;
    }
    if (visible(path)) continue;
    if (mayRemove) delete fields[name];
    else if (multiField) fields[name] = { properties: value.fields };
  }
  return Object.keys(fields).length === 0;
}

/** The mapping JSON (`{"properties": …}`) with only what `visible` shows; the input is not changed. */
export function visibleMapping(mapping: Json, visible: FieldPredicate): Json {
  const copy = structuredClone(mapping);
  if (isObject(copy.properties)) filterFields('', copy.properties, visible);
  return copy;
}

/** What the user may see of an index's fields; undefined when nothing is hidden. */
export function fieldsVisibleIn(
  access: IndexAccess | undefined,
  meta: IndexMetadata,
): FieldPredicate | undefined {
  const fields = access?.([meta.name, ...meta.aliases.keys()])?.fields;
  return fields ? fieldPredicate(fields) : undefined;
}

/** `GET _mapping`'s mapping of `meta` for this user. */
export function displayedMapping(meta: IndexMetadata, access: IndexAccess | undefined): Json {
  const json = meta.mapping.toDisplayJSON();
  const visible = fieldsVisibleIn(access, meta);
  return visible ? visibleMapping(json, visible) : json;
}
