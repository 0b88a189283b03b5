/**
 * `search_after` values converted to the comparable form of each sort key (SearchAfterBuilder):
 * errors #16 (length), #17 (no sort), #18 (unparseable), and the date parser's own error for
 * a date that does not match the format.
 */
import { illegalArgument, type SortSpec, type SortValue } from '@shoal/protocol';
import type { IndexMapping } from '../contract.ts';
import type { ShardContext } from './field-values.ts';
import { resolveSortKeys, type SortKey } from './sort-keys.ts';
import { toComparable, type ValueTarget } from './sort-value-parse.ts';

export function parseSearchAfter(
  values: readonly unknown[],
  sort: readonly SortSpec[],
  mapping: IndexMapping,
  ctx: ShardContext = { index: '_na_', indexUuid: '_na_' },
): SortValue[] {
  return convertSearchAfter(values, resolveSortKeys(sort, mapping, ctx));
}

/** Validates (#16, #17) and converts search_after values for already-resolved sort keys. */
export function convertSearchAfter(values: readonly unknown[], keys: readonly SortKey[]): SortValue[] {
  const sort = keys.map((k) => k.spec);
  if (sort.length === 0 || (sort.length === 1 && sort[0]!.kind === 'score' && sort[0]!.order === 'desc')) {
    throw illegalArgument('Sort must contain at least one field.');
  }
  if (values.length !== sort.length) {
    throw illegalArgument(`search_after has ${values.length} value(s) but sort has ${sort.length}.`);
  }
  return keys.map((k, i) => toComparable(values[i], targetOf(k)));
}

function targetOf(k: SortKey): ValueTarget {
  switch (k.spec.kind) {
    case 'score':
      return { name: '_score', kind: 'score' };
    case 'doc':
      return { name: '_doc', kind: 'doc' };
    case 'shard_doc':
      return { name: '_shard_doc', kind: 'shard_doc' };
    case 'field':
      return k.field!.target;
  }
}

/**
 * A `_shard_doc` search_after value as a reader-doc threshold for this shard: every doc of an
 * earlier shard is behind us (-1), of a later shard ahead (+∞), else the doc id itself.
 */
export function shardDocThreshold(value: SortValue, shardIndex: number): number {
  if (typeof value !== 'bigint') return typeof value === 'number' ? value : -1;
  const shard = Number(value >> 32n);
  const doc = Number(value & 0xffffffffn);
  if (shard === shardIndex) return doc;
  // In natural (ascending) terms this shard's docs all sort above an earlier shard's value and
  // below a later one's; the key's direction is applied by the comparator.
  return shard < shardIndex ? -1 : Number.POSITIVE_INFINITY;
}
