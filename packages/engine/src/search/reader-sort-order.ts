/**
 * A reader's docs in one numeric doc-values sort order, every segment merged into one list.
 *
 * A sorted page (`match_all` sorted by a numeric field, from the start) otherwise merges one
 * stream per segment on every search: a reader of ten segments walks ten sorted permutations
 * and a heap of their heads for each page. A reader that serves the same sort again and again
 * (a dashboard's "latest first" list) keeps the merged order instead — built once, by the same
 * merge over every position of every segment, so its order is exactly the streams' order — and
 * a page is then its first k live docs.
 *
 * The order holds every doc the reader's segments had when it was built; the reader's own
 * exclusions (deletes, a slice) are applied as the page is read. It costs 12 bytes a doc, so it
 * is built only for a reader that has already served the sort MIN_USES times; a refresh makes
 * a new reader, which starts counting again.
 */
import type { SortValue } from '@shoal/protocol';
import type { ShardReader } from '../index/shard-reader.ts';
import { candidateComparator } from './query-phase.ts';
import { mergeStreams, SegmentStream, type StreamShape } from './segment-merge.ts';
import type { FieldSort, SortKey } from './sort-keys.ts';
import { permutationKey, sortedPermutation } from './sorted-permutation.ts';

/** Searches of one sort a reader serves before it keeps their merged order. */
export const MIN_USES = 16;

export interface ReaderSortOrder {
  /** Reader-wide doc ids in sort order (ties by doc). */
  docs: Int32Array;
  /** Each entry's sort value: the field's value, or its `missing` substitute. */
  values: Float64Array | BigInt64Array;
}

const NEVER_CANCELLED = { step(): void {} };

/** One sort's slot on a reader: how often it was served, then its order (null: cannot be built). */
interface OrderSlot {
  uses: number;
  order: ReaderSortOrder | null | undefined;
}

/** A reader's slots, by field path, then by mode, direction and missing first (orderSlotIndex). */
type OrderSlots = Map<string, OrderSlot[]>;

const ORDER_SLOTS = 'sort-orders';
const newOrderSlots = (): OrderSlots => new Map();

/** The slot of a field's sort: what permutationKey and the missing side tell apart. */
function orderSlotIndex(fs: FieldSort, reverse: boolean, missingFirst: boolean): number {
  return (fs.mode === 'max' ? 4 : 0) | (reverse ? 2 : 0) | (missingFirst ? 1 : 0);
}

/**
 * The merged order of `key` (a numeric doc-values sort, `_first`/`_last` missing), once the
 * reader has served it MIN_USES times; undefined before, and for a reader of one segment
 * (whose own permutation is already the order). Found without building a key string: it is
 * asked on every sorted search.
 */
export function readerSortOrder(
  reader: ShardReader,
  key: SortKey,
  missingFirst: boolean,
): ReaderSortOrder | undefined {
  const segs = reader.segments;
  if (segs.length < 2) return undefined;
  const fs = key.field as FieldSort;
  const byField = reader.cached(ORDER_SLOTS, newOrderSlots);
  let slots = byField.get(fs.path);
  if (slots === undefined) {
    slots = [];
    byField.set(fs.path, slots);
  }
  const i = orderSlotIndex(fs, key.reverse, missingFirst);
  let slot = slots[i];
  if (slot === undefined) {
    slot = { uses: 0, order: undefined };
    slots[i] = slot;
  }
  if (slot.order !== undefined) return slot.order ?? undefined;
  if (++slot.uses < MIN_USES) return undefined;
  slot.order = build(reader, key, permutationKey(fs, key.reverse), missingFirst);
  return slot.order ?? undefined;
}

function build(
  reader: ShardReader,
  key: SortKey,
  permKey: string,
  missingFirst: boolean,
): ReaderSortOrder | null {
  const fs = key.field as FieldSort;
  const shape: StreamShape = {
    missingFirst,
    missing: fs.missing,
    score: Number.NaN,
    tiebreak: false,
    cancel: NEVER_CANCELLED,
  };
  let n = 0;
  const streams = reader.segments.map((rs) => {
    n += rs.segment.maxDoc;
    return new SegmentStream(rs, sortedPermutation(rs, fs, key.reverse, permKey), 0, null, null, shape);
  });
  const all = mergeStreams(streams, candidateComparator([key]), n);
  const first = all[0]?.values[0];
  const values = typeof first === 'bigint' ? new BigInt64Array(all.length) : new Float64Array(all.length);
  const docs = new Int32Array(all.length);
  for (let i = 0; i < all.length; i++) {
    const c = all[i]!;
    const v: SortValue = c.values[0]!;
    if (typeof v !== typeof first) return null;
    values[i] = v as never;
    docs[i] = c.doc;
  }
  return { docs, values };
}
