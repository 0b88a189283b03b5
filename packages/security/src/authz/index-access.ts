/**
 * Document- and field-level security as a request meets it (Elasticsearch's
 * IndicesAccessControl): for an index, the documents its user may see — the OR of the `query`
 * of every role entry that grants the action there, none of them when one entry has no query —
 * and the fields — the union of their `field_security`, every field when one has none. An API
 * key's permission adds its owner's as a second layer that must pass too.
 */
import type { FieldRule, FieldVisibility } from '@shoal/protocol';
import type { User } from '../authc/user.ts';
import { userRoleQuery } from './role-query.ts';

export interface DocumentFieldAccess {
  /** Each layer's role queries (JSON values), one of which a document must match; absent: every document. */
  queries?: unknown[][];
  /** The fields that may be seen; absent: every field. */
  fields?: FieldVisibility;
}

/**
 * The restrictions on an index for one request, given the index's name and its aliases (a role
 * may grant through either); undefined when there are none.
 */
export type IndexAccess = (names: readonly string[]) => DocumentFieldAccess | undefined;

/** What one role entry restricts (undefined members: nothing). */
export interface EntryRestriction {
  query?: string;
  fields?: FieldRule;
}

/** One permission's restrictions, from the entries that grant the action on the index. */
export function layerAccess(
  entries: readonly EntryRestriction[],
  user: User,
): DocumentFieldAccess | undefined {
  if (entries.length === 0) return undefined;
  let queries: unknown[] | undefined = [];
  let rules: FieldRule[] | undefined = [];
  for (const e of entries) {
    if (e.query === undefined) queries = undefined;
    else queries?.push(userRoleQuery(e.query, user));
    if (e.fields === undefined) rules = undefined;
    else rules?.push(e.fields);
  }
  if (!queries && !rules) return undefined;
  const out: DocumentFieldAccess = {};
  if (queries) out.queries = [queries];
  if (rules) out.fields = [rules];
  return out;
}

/** Both layers' restrictions (an API key's own, then its owner's). */
export function bothLayers(
  a: DocumentFieldAccess | undefined,
  b: DocumentFieldAccess | undefined,
): DocumentFieldAccess | undefined {
  if (!a) return b;
  if (!b) return a;
  const out: DocumentFieldAccess = {};
  const queries = [...(a.queries ?? []), ...(b.queries ?? [])];
  const fields = [...(a.fields ?? []), ...(b.fields ?? [])];
  if (queries.length > 0) out.queries = queries;
  if (fields.length > 0) out.fields = fields;
  return out;
}
