/**
 * The routing values a search uses per index (IndexNameExpressionResolver.resolveSearchRouting):
 * an index reached through aliases that all have a `search_routing` is searched with the union
 * of their values, intersected with the request's `?routing=`; an index reached by its own name
 * or through an alias without one is searched with the request's routing (every shard without).
 */
import type { IndexMetadata } from '../state/index-metadata.ts';
import type { ReachedNames } from '../state/resolve-indices.ts';

/**
 * Java's `String.split(",")`, as Strings.splitStringByCommaToArray uses it: empty values stay,
 * except trailing ones; an empty string gives no value at all.
 */
export function splitRouting(routing: string): string[] {
  if (routing.length === 0) return [];
  const parts = routing.split(',');
  let end = parts.length;
  while (end > 0 && parts[end - 1] === '') end--;
  return parts.slice(0, end);
}

/**
 * The routing values of each index; an index without an entry is searched on every shard.
 * As in Elasticsearch, alias routing values that the request's routing leaves empty drop the
 * index's entry, so it is searched on every shard.
 */
export function searchRouting(
  indices: readonly IndexMetadata[],
  reached: ReachedNames,
  routing: string | undefined,
): Map<IndexMetadata, Set<string>> {
  const param = routing === undefined ? undefined : new Set(splitRouting(routing));
  const out = new Map<IndexMetadata, Set<string>>();
  for (const meta of indices) {
    let values: Set<string> | undefined;
    let unrouted = reached.indices?.has(meta.name) === true;
    for (const alias of reached.aliases ?? []) {
      if (unrouted) break;
      const a = meta.aliases.get(alias);
      if (!a) continue;
      if (!a.searchRouting) {
        unrouted = true;
        break;
      }
      values ??= new Set();
      for (const v of splitRouting(a.searchRouting)) values.add(v);
    }
    if (unrouted || !values) {
      if (param) out.set(meta, param);
      continue;
    }
    if (param) for (const v of values) if (!param.has(v)) values.delete(v);
    if (values.size > 0) out.set(meta, values);
  }
  return out;
}
