/**
 * The field names the `_query` APIs accept and the stored fields they stand for
 * (Elasticsearch's FieldNameTranslators): an API key's `username` is its `creator.principal`,
 * `metadata.<key>` reaches into the metadata. A name outside the list is refused, so a query can
 * never read a password hash or a key's secret.
 */
import { illegalArgument } from '@shoal/protocol';
import { compilePatterns } from '../authz/patterns.ts';

/** Where a `metadata` query lands: the stored leaves, as a `flattened` field keeps them. */
export const METADATA_VALUES = 'metadata_values';
export const METADATA_KEYED = 'metadata_keyed';
/** Between a metadata leaf's path and its value in METADATA_KEYED. */
export const KEY_SEPARATOR = '\u0000';

interface Translator {
  query: string;
  index: string;
  sortable: boolean;
}

/** A translated field: a plain one, or a metadata leaf (`metadata.<path>`). */
export type IndexField = { kind: 'plain'; name: string } | { kind: 'metadata-key'; path: string };

const isPattern = (s: string) => s.includes('*');

export class FieldNames {
  constructor(
    private readonly fields: readonly Translator[],
    /** Whether `metadata` and `metadata.<key>` may be queried. */
    private readonly metadata: boolean,
  ) {}

  /** The stored field for a query field name; 400 for a name not allowed. */
  translate(field: string, inSort = false): IndexField {
    if (isPattern(field)) {
      throw illegalArgument(`Field name pattern [${field}] is not allowed for querying or aggregation`);
    }
    const t = this.fields.find((f) => f.query === field);
    if (t) {
      if (inSort && !t.sortable) throw illegalArgument(`sorting is not supported for field [${field}]`);
      return { kind: 'plain', name: t.index };
    }
    if (this.metadata) {
      if (field === 'metadata') return { kind: 'plain', name: METADATA_VALUES };
      if (field.startsWith('metadata.'))
        return { kind: 'metadata-key', path: field.slice('metadata.'.length) };
    }
    throw illegalArgument(`Field [${field}] is not allowed for querying or aggregation`);
  }

  /** The stored fields a name or pattern reaches (simple_query_string's `fields`); may be none. */
  translatePattern(pattern: string): string[] {
    const matches = compilePatterns([pattern]);
    const out = this.fields.filter((f) => (isPattern(pattern) ? matches(f.query) : f.query === pattern));
    const names = out.map((f) => f.index);
    if (this.metadata && (isPattern(pattern) ? matches('metadata') : pattern === 'metadata'))
      names.push(METADATA_VALUES);
    return names;
  }
}

const plain = (query: string, index = query, sortable = true): Translator => ({ query, index, sortable });

/** `_query/api_key` (ApiKey's public fields). */
export const API_KEY_FIELDS = new FieldNames(
  [
    plain('username', 'creator.principal'),
    plain('realm_name', 'creator.realm'),
    plain('name'),
    plain('type', 'api_key_type'),
    plain('creation', 'creation_time'),
    plain('expiration', 'expiration_time'),
    plain('invalidated', 'api_key_invalidated'),
    plain('invalidation', 'invalidation_time'),
  ],
  true,
);

/** `_query/user` (full_name and email are text: searchable, not sortable). */
export const USER_FIELDS = new FieldNames(
  [
    plain('username'),
    plain('roles'),
    plain('enabled'),
    plain('full_name', 'full_name', false),
    plain('email', 'email', false),
  ],
  false,
);

/** `_query/role`. */
export const ROLE_FIELDS = new FieldNames(
  [
    plain('name'),
    plain('description'),
    plain('applications.application'),
    plain('applications.resources'),
    plain('applications.privileges'),
  ],
  true,
);
