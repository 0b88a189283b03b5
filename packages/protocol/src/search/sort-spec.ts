import type { JsonScalar } from '../query/ast.ts';
import type { GeoDistanceSortOptions } from './geo-distance-sort.ts';
import type { ScriptSortOptions } from './script-sort.ts';

export type SortOrder = 'asc' | 'desc';
export type SortMode = 'min' | 'max' | 'sum' | 'avg' | 'median';
export type NumericType = 'long' | 'double' | 'date' | 'date_nanos';

/** One parsed sort key. Defaults are already applied (order: desc for _score, asc otherwise). */
export type SortSpec =
  | { kind: 'score'; order: SortOrder }
  | { kind: 'doc'; order: SortOrder }
  | { kind: 'shard_doc'; order: SortOrder }
  | {
      kind: 'field';
      field: string;
      order: SortOrder;
      /** `_last` (default), `_first`, or a custom substitute value parsed to the field type. */
      missing: '_last' | '_first' | JsonScalar;
      mode?: SortMode;
      numericType?: NumericType;
      unmappedType?: string;
      /** Date format for the returned sort value (date and date_nanos only). */
      format?: string;
      /** The raw `nested` sort options (`path`, `filter`, `max_children`, `nested`), when given. */
      nested?: Record<string, unknown>;
      /** `_geo_distance`: the values are distances from these points to the geo_point `field`. */
      geoDistance?: GeoDistanceSortOptions;
      /** `_script` (field `_script`): the values are the script's. */
      script?: ScriptSortOptions;
    };

/**
 * A sort value as it travels between shard and coordinator and as it is written in
 * `hits[].sort`. Longs, `date_nanos` and `_shard_doc` are bigint so they never lose precision.
 */
export type SortValue = number | bigint | string | boolean | null;
