/**
 * Document- and field-level security as the shards apply it: security says, per index, which
 * role queries a document must match and which fields may be seen (IndexAccess); each target
 * shard is given that as a document filter — the OR of a layer's queries, every layer AND-ed —
 * and a field visibility, which its reader applies (engine restricted-reader.ts).
 */
import { type FieldVisibility, parseQuery, type QueryNode } from '@shoal/protocol';
import type { IndexAccess } from '@shoal/security';
import type { IndexMetadata } from '../state/index-metadata.ts';
import type { ShardTarget } from './shard-targets.ts';

export interface ReadRestriction {
  documentFilter?: QueryNode;
  fieldVisibility?: FieldVisibility;
}

function anyOf(queries: QueryNode[]): QueryNode {
  if (queries.length === 1) return queries[0]!;
  return { type: 'bool', must: [], filter: [], should: queries, mustNot: [], boost: 1 };
}

/** What the user may read of `meta` (granted through its own name or any of its aliases). */
export function readRestriction(
  access: IndexAccess | undefined,
  meta: IndexMetadata,
): ReadRestriction | undefined {
  if (!access) return undefined;
  const a = access([meta.name, ...meta.aliases.keys()]);
  if (!a) return undefined;
  const out: ReadRestriction = {};
  if (a.queries) {
    const layers = a.queries.map((layer) => anyOf(layer.map((q) => parseQuery(q))));
    out.documentFilter =
      layers.length === 1
        ? layers[0]!
        : { type: 'bool', must: [], filter: layers, should: [], mustNot: [], boost: 1 };
  }
  if (a.fields) out.fieldVisibility = a.fields;
  return out;
}

/** Gives each target its index's restriction (targets are the request's own objects). */
export function restrictTargets(targets: readonly ShardTarget[], access: IndexAccess | undefined): void {
  if (!access) return;
  const byIndex = new Map<IndexMetadata, ReadRestriction | undefined>();
  for (const t of targets) {
    let r = byIndex.get(t.meta);
    if (!byIndex.has(t.meta)) {
      r = readRestriction(access, t.meta);
      byIndex.set(t.meta, r);
    }
    if (r?.documentFilter) t.documentFilter = r.documentFilter;
    if (r?.fieldVisibility) t.fieldVisibility = r.fieldVisibility;
  }
}

/** A fetch of a target's hits, with the fields its reader may show. */
export function fetchFor<F extends { fieldVisibility?: FieldVisibility }>(fetch: F, t: ShardTarget): F {
  return t.fieldVisibility ? { ...fetch, fieldVisibility: t.fieldVisibility } : fetch;
}
