/**
 * The cardinality aggregation's per-segment tables, cached on the immutable segment: each doc's
 * values as ordinals into the segment's distinct values (a keyword's own term ordinals; for
 * numbers, ordinals given to the distinct values in order of first appearance), the sketch hash
 * of each distinct value, and — for a search that matches every doc of the segment — the
 * segment's whole sketch at a precision, which a collector merges register by register.
 *
 * Values are in the form the collector counts them (keyword and ip terms; numbers as doubles,
 * longs exact), so the exact sets and the sketches are what counting value by value gives.
 */
import { addHash, type DistinctValue, hashValue, newRegisters } from '@shoal/protocol';
import type { NumericValues, SortedSetValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { type DoubleView, normalizeLong } from './field-source.ts';

export interface SegmentDistinct {
  /** Names the table in the segment's cache. */
  readonly key: string;
  /** A doc's values are the ordinals ords[starts[d]] … ords[starts[d + 1] - 1]. */
  readonly starts: Uint32Array;
  readonly ords: Int32Array;
  /** The value of each ordinal. */
  readonly values: readonly DistinctValue[];
  /** Every ordinal is the value of some doc of the segment. */
  readonly allUsed: boolean;
  /** Some doc of the segment has no value. */
  readonly someWithout: boolean;
}

/** A keyword or ip field's term ordinals. */
export function keywordDistinct(rs: ReaderSegment, path: string, ss: SortedSetValues): SegmentDistinct {
  const key = `agg:card:${path}`;
  return rs.segment.cached(key, () => {
    const used = new Uint8Array(ss.terms.length);
    for (let i = 0; i < ss.ords.length; i++) used[ss.ords[i]!] = 1;
    return {
      key,
      starts: ss.starts,
      ords: ss.ords,
      values: ss.terms,
      allUsed: used.indexOf(0) < 0,
      someWithout: hasDocWithout(ss.starts),
    };
  });
}

/** A numeric field's distinct values: 64-bit longs exact, other numbers (and dates) as doubles. */
export function numberDistinct(
  rs: ReaderSegment,
  path: string,
  source: Extract<NumericValues, { kind: 'long' }> | DoubleView,
): SegmentDistinct {
  const long = source.values instanceof BigInt64Array;
  const key = `agg:card:${path}:${long ? 'long' : 'double'}`;
  return rs.segment.cached(key, () => {
    const n = source.values.length;
    const ords = new Int32Array(n);
    const ordOf = new Map<DistinctValue, number>();
    const values: DistinctValue[] = [];
    for (let i = 0; i < n; i++) {
      const raw = source.values[i]!;
      const v = typeof raw === 'bigint' ? normalizeLong(raw) : raw;
      let ord = ordOf.get(v);
      if (ord === undefined) {
        ord = values.length;
        values.push(v);
        ordOf.set(v, ord);
      }
      ords[i] = ord;
    }
    return {
      key,
      starts: source.starts,
      ords,
      values,
      allUsed: true,
      someWithout: hasDocWithout(source.starts),
    };
  });
}

function hasDocWithout(starts: Uint32Array): boolean {
  for (let d = 0; d + 1 < starts.length; d++) if (starts[d] === starts[d + 1]) return true;
  return false;
}

/** The sketch hash of each distinct value, [high, low] per ordinal. */
export function distinctHashes(rs: ReaderSegment, d: SegmentDistinct): Uint32Array {
  return rs.segment.cached(`${d.key}:hash`, () => {
    const out = new Uint32Array(d.values.length * 2);
    const one = new Uint32Array(2);
    for (let i = 0; i < d.values.length; i++) {
      hashValue(d.values[i]!, one);
      out[2 * i] = one[0]!;
      out[2 * i + 1] = one[1]!;
    }
    return out;
  });
}

/** The sketch of every distinct value of the segment at precision `p`. */
export function segmentRegisters(rs: ReaderSegment, d: SegmentDistinct, p: number): Uint8Array {
  return rs.segment.cached(`${d.key}:hll:${p}`, () => {
    const hashes = distinctHashes(rs, d);
    const registers = newRegisters(p);
    for (let i = 0; i < d.values.length; i++) addHash(registers, p, hashes[2 * i]!, hashes[2 * i + 1]!);
    return registers;
  });
}
