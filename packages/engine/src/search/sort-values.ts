/**
 * The one order of sort values, shared by the shard's top-k and (exported) by the
 * coordinator's merge: per key, numbers and bigints compare exactly with each other
 * (a long-typed missing substitute is the bigint Long.MAX/MIN even where values are numbers),
 * strings by code point (Lucene's BytesRef order), booleans false < true; the key's order
 * reverses that, except for `null` (a missing keyword), which goes last with `missing: _last`
 * and first with `_first` in either direction. Ties fall to the shard index, then the doc.
 */
import { type SortSpec, type SortValue, shortestFloatDecimal } from '@shoal/protocol';
import { compareTerms } from '../index/term-order.ts';

export const LONG_MAX = 9223372036854775807n;
export const LONG_MIN = -9223372036854775808n;

/** Natural ascending order of two non-null values of the same sort key. */
export function compareNatural(a: SortValue, b: SortValue): number {
  if (typeof a === 'string' && typeof b === 'string') return compareTerms(a, b);
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
  // number/bigint: JS relational operators compare mixed number and bigint exactly.
  const x = a as number | bigint;
  const y = b as number | bigint;
  return x < y ? -1 : x > y ? 1 : 0;
}

export function compareSortValues(a: SortValue, b: SortValue, spec: SortSpec): number {
  if (a === null || b === null) {
    if (a === b) return 0;
    const nullsFirst = spec.kind === 'field' && spec.missing === '_first';
    return (a === null) === nullsFirst ? -1 : 1;
  }
  const c = compareNatural(a, b);
  return spec.order === 'desc' ? -c : c;
}

/** Compares two hits' sort-value arrays key by key (no tiebreak). */
export function compareSortTuples(
  a: readonly SortValue[],
  b: readonly SortValue[],
  specs: readonly SortSpec[],
): number {
  for (let i = 0; i < specs.length; i++) {
    const c = compareSortValues(a[i] ?? null, b[i] ?? null, specs[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

/**
 * Shortest decimal that rounds to the same float32: how Java prints a float (`0.13076457`,
 * not the double `0.1307645738124847`). Order-preserving, so safe on comparable values.
 */
export function floatValue(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const target = Math.fround(x);
  // Whole floats (match_all's and constant scores, counts) print as themselves.
  if (Number.isInteger(target) && Math.abs(target) <= FLOAT_EXACT_INTEGER) return target;
  const known = shortestFloats.get(target);
  if (known !== undefined) return known;
  const v = shortestFloatDecimal(target);
  if (shortestFloats.size >= SHORTEST_FLOATS_MAX) shortestFloats.clear();
  shortestFloats.set(target, v);
  return v;
}

/** Every integer up to 2^24 is a float32 and its shortest decimal is itself. */
const FLOAT_EXACT_INTEGER = 2 ** 24;
/**
 * The same scores come back page after page and query after query (a document's score for a
 * term does not change between refreshes): their shortest decimals are remembered.
 */
const shortestFloats = new Map<number, number>();
const SHORTEST_FLOATS_MAX = 4096;
