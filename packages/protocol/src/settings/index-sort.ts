/**
 * Index sorting (IndexSortConfig): `index.sort.field` with its parallel `order`, `mode` and
 * `missing` lists, checked as Elasticsearch checks them when an index is created — the lists'
 * sizes first, then each field against the mappings. Shoal keeps no segment in sort order, so
 * a valid index sort changes no search result; it is validated and shown.
 */
import { illegalArgument } from '../errors/catalogue.ts';
import type { FlatSettings } from './normalize.ts';
import { listValues } from './setting.ts';

/** What the sort checks need to know of a mapped field. */
export interface SortableField {
  type: string;
  docValues: boolean;
}

function list(flat: Readonly<FlatSettings>, key: string): string[] | undefined {
  const v = flat[key];
  return v === undefined ? undefined : listValues(v);
}

/** Java's List.toString. */
function javaList(values: readonly string[]): string {
  return `[${values.join(', ')}]`;
}

/**
 * The sort fields, after IndexSortConfig's size checks:
 * `index.sort.field:[a, b] index.sort.order:[asc], size mismatch`.
 */
export function indexSortFields(flat: Readonly<FlatSettings>): string[] {
  const fields = list(flat, 'index.sort.field') ?? [];
  const order = list(flat, 'index.sort.order');
  if (order && order.length !== fields.length)
    throw illegalArgument(
      `index.sort.field:${javaList(fields)} index.sort.order:${javaList(order)}, size mismatch`,
    );
  const mode = list(flat, 'index.sort.mode');
  if (mode && mode.length !== fields.length) {
    const modes = mode.map((m) => m.toUpperCase());
    throw illegalArgument(
      `index.sort.field:${javaList(fields)} index.sort.mode:${javaList(modes)}, size mismatch`,
    );
  }
  const missing = list(flat, 'index.sort.missing');
  if (missing && missing.length !== fields.length)
    throw illegalArgument(
      `index.sort.field:${javaList(fields)} index.sort.missing:${javaList(missing)}, size mismatch`,
    );
  return fields;
}

/**
 * Checks the index sort against the mappings of a new index (IndexSortConfig.buildIndexSort,
 * and DocumentMapper's refusal of nested fields in a sorted index).
 */
export function checkIndexSort(
  flat: Readonly<FlatSettings>,
  mapping: { field(path: string): SortableField | undefined; hasNested: boolean },
): void {
  const fields = indexSortFields(flat);
  if (fields.length === 0) return;
  if (mapping.hasNested) throw illegalArgument('cannot have nested fields when index sort is activated');
  for (const name of fields) {
    const f = mapping.field(name);
    if (!f) throw illegalArgument(`unknown index sort field:[${name}]`);
    if (f.type === 'geo_point')
      throw illegalArgument(
        "can't sort on geo_point field without using specific sorting feature, like geo_distance",
      );
    if (!f.docValues) throw illegalArgument(`docvalues not found for index sort field:[${name}]`);
  }
}
