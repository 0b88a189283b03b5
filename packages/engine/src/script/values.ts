/**
 * The values a script sees besides numbers, strings, booleans, lists (arrays) and maps (plain
 * objects or Map): a document's field values (ScriptDocValues), geo points, and dates
 * (Elasticsearch 7's JodaCompatibleZonedDateTime, read in UTC). Nothing else of the JavaScript
 * world is reachable: members and methods are looked up in the allow-lists of members.ts.
 */

/** What a doc field's values are: its Java class in messages, and whether numbers are integral. */
export type DocFieldKind =
  | 'long'
  | 'double'
  | 'string'
  | 'boolean'
  | 'date'
  | 'geo_point'
  | 'ip'
  | 'dense_vector'
  | 'empty';

export class GeoPointValue {
  constructor(
    readonly lat: number,
    readonly lon: number,
  ) {}
}

export class DateValue {
  constructor(readonly millis: number) {}
}

/** A date's Instant (`toInstant().toEpochMilli()`). */
export class InstantValue {
  constructor(readonly millis: number) {}
}

/**
 * One field of the current document (`doc['f']`): its values in doc-values order. A document
 * lookup refills one per field as it moves from document to document.
 */
export class DocField {
  constructor(
    readonly field: string,
    readonly kind: DocFieldKind,
    readonly values: unknown[],
  ) {}

  get javaClass(): string {
    switch (this.kind) {
      case 'long':
        return 'org.elasticsearch.index.fielddata.ScriptDocValues$Longs';
      case 'double':
        return 'org.elasticsearch.index.fielddata.ScriptDocValues$Doubles';
      case 'boolean':
        return 'org.elasticsearch.index.fielddata.ScriptDocValues$Booleans';
      case 'date':
        return 'org.elasticsearch.index.fielddata.ScriptDocValues$Dates';
      case 'geo_point':
        return 'org.elasticsearch.index.fielddata.ScriptDocValues$GeoPoints';
      default:
        return 'org.elasticsearch.index.fielddata.ScriptDocValues$Strings';
    }
  }
}

/** The current document's fields, as `doc` gives them. */
export interface DocLookup {
  /** The field's values; throws Elasticsearch's error for a field with no doc values. */
  get(field: string): DocField;
  has(field: string): boolean;
}

/** The Java class a value has in messages (`Cannot apply [*] operation to types [java.lang.String] …`). */
export function javaClassOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return 'java.lang.String';
    case 'boolean':
      return 'java.lang.Boolean';
    case 'number':
      return Number.isInteger(v)
        ? Math.abs(v) > 2147483647
          ? 'java.lang.Long'
          : 'java.lang.Integer'
        : 'java.lang.Double';
    case 'bigint':
      return 'java.lang.Long';
  }
  if (Array.isArray(v)) return 'java.util.ArrayList';
  if (v instanceof DocField) return v.javaClass;
  if (v instanceof GeoPointValue) return 'org.elasticsearch.common.geo.GeoPoint';
  if (v instanceof DateValue) return 'org.elasticsearch.script.JodaCompatibleZonedDateTime';
  if (v instanceof InstantValue) return 'java.time.Instant';
  const own = (v as { javaClass?: unknown }).javaClass;
  if (typeof own === 'string') return own;
  return 'java.util.HashMap';
}
