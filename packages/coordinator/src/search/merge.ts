/**
 * The merge order of a search, in one place: the sort values key by key, then the shard index,
 * then the doc id (together, the `_shard_doc` pair). Shards return their candidates already in
 * this order, so the coordinator k-way merges them and cuts the page.
 */
import type { ShardHitRef } from '@shoal/engine';
import type { SortSpec, SortValue } from '@shoal/protocol';

export interface MergeHit extends ShardHitRef {
  shardIndex: number;
}

type Cmp = (a: MergeHit, b: MergeHit) => number;

function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : 1;
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
  // number and bigint compare correctly with each other.
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

export function hitComparator(sort: SortSpec[]): Cmp {
  const keys = sort.map((spec, i) => {
    const desc = spec.order === 'desc';
    const nullsFirst = spec.kind === 'field' && spec.missing === '_first';
    return (a: MergeHit, b: MergeHit): number => {
      const va = spec.kind === 'score' ? a.score : a.sort[i];
      const vb = spec.kind === 'score' ? b.score : b.sort[i];
      const aNull = va === null || va === undefined;
      const bNull = vb === null || vb === undefined;
      if (aNull || bNull) {
        if (aNull && bNull) return 0;
        // Missing values sit at the end (or the start with `_first`) whatever the order.
        return (aNull ? 1 : -1) * (nullsFirst ? -1 : 1);
      }
      const c = compareValues(va, vb);
      return desc ? -c : c;
    };
  });
  return (a, b) => {
    for (const k of keys) {
      const c = k(a, b);
      if (c !== 0) return c;
    }
    return a.shardIndex - b.shardIndex || a.doc - b.doc;
  };
}

/** A shard's list and the position of its next candidate. */
interface Head {
  list: MergeHit[];
  pos: number;
}

/*
 * The heap helpers are module functions, not closures over the merge: Shoal runs under tsx,
 * whose esbuild keepNames wraps every named closure in `__name()` — an Object.defineProperty
 * per closure per call.
 */
function less(heads: Head[], cmp: Cmp, i: number, j: number): boolean {
  const a = heads[i]!;
  const b = heads[j]!;
  return cmp(a.list[a.pos]!, b.list[b.pos]!) < 0;
}

function siftDown(heads: Head[], cmp: Cmp, i: number): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heads.length && less(heads, cmp, l, m)) m = l;
    if (r < heads.length && less(heads, cmp, r, m)) m = r;
    if (m === i) return;
    const t = heads[i]!;
    heads[i] = heads[m]!;
    heads[m] = t;
    i = m;
  }
}

/**
 * K-way merge of per-shard sorted candidate lists; returns the hits at [from, from + size).
 * A binary heap over the shard heads keeps it O(n log shards).
 */
export function mergeTopHits(lists: MergeHit[][], cmp: Cmp, from: number, size: number): MergeHit[] {
  const heads: Head[] = [];
  for (const list of lists) if (list.length > 0) heads.push({ list, pos: 0 });
  for (let i = (heads.length >> 1) - 1; i >= 0; i--) siftDown(heads, cmp, i);
  const out: MergeHit[] = [];
  let taken = 0;
  while (heads.length > 0 && taken < from + size) {
    const top = heads[0]!;
    const hit = top.list[top.pos++]!;
    if (taken >= from) out.push(hit);
    taken++;
    if (top.pos >= top.list.length) {
      heads[0] = heads[heads.length - 1]!;
      heads.pop();
    }
    if (heads.length > 0) siftDown(heads, cmp, 0);
  }
  return out;
}
