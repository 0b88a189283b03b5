/**
 * `fields`, `docvalue_fields` and `stored_fields` on the coordinator: the spec the shards'
 * fetch receives, and the per-index checks a shard makes while it parses the request
 * (FetchDocValuesContext's `index.max_docvalue_fields_search`).
 */
import { type FetchFieldsSpec, type IndexMapping, storedFieldsOf } from '@shoal/engine';
import { getInt, illegalArgument, type SearchRequest, type ShoalError } from '@shoal/protocol';
import type { IndexMetadata } from '../state/index-metadata.ts';
import { withCollapseDocValues } from './collapse.ts';

/** What the shards' fetch needs; undefined when the search uses none of the three options. */
export function fetchFieldsSpec(search: SearchRequest): FetchFieldsSpec | undefined {
  const { fetchFields, storedFields } = search;
  const docValueFields =
    search.collapse !== undefined ? withCollapseDocValues(search) : search.docValueFields;
  const scriptFields = search.scriptFields;
  if (!fetchFields && !docValueFields && !storedFields && !scriptFields) return undefined;
  const spec: FetchFieldsSpec = {};
  if (scriptFields) spec.scriptFields = scriptFields;
  if (fetchFields && fetchFields.length > 0) spec.fields = fetchFields;
  if (docValueFields) spec.docValueFields = docValueFields;
  if (storedFields && !storedFields.fetch) spec.storedNone = true;
  if (search.runtimeMappings) spec.runtime = search.runtimeMappings;
  if (storedFields?.fetch && storedFields.names.length > 0) spec.storedFields = storedFields.names;
  return spec;
}

function expand(mapping: IndexMapping, pattern: string): string[] {
  return mapping.fieldsMatching(pattern).map((f) => f.path);
}

/** The error every shard of `meta` would fail the query phase with, if any. */
export function fetchFieldsError(meta: IndexMetadata, search: SearchRequest): ShoalError | null {
  if (search.docValueFields) {
    let count = 0;
    for (const ff of search.docValueFields) count += expand(meta.mapping, ff.field).length;
    const max = getInt(meta.settings, 'index.max_docvalue_fields_search');
    if (count > max) {
      return illegalArgument(
        `Trying to retrieve too many docvalue_fields. Must be less than or equal to: [${max}] but was [${count}]. This limit can be set by changing the [index.max_docvalue_fields_search] index level setting.`,
      );
    }
  }
  // Refused here, before any shard runs: stored fields of an index that keeps no `_source`.
  storedFieldsOf(meta.mapping, search.storedFields?.names ?? []);
  return null;
}
