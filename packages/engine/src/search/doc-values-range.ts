/**
 * Numeric ranges checked doc by doc on doc values (the doc-values half of Elasticsearch's
 * IndexOrDocValuesQuery): instead of collecting every doc of the range up front, a range that
 * follows a more selective clause only looks at the docs that clause proposes. The docs with a
 * value are the approximation, the value test confirms (Lucene's two-phase iteration).
 */
import type { ReaderSegment } from '../index/shard-reader.ts';

export interface DocVerifier {
  /** Ascending docs that may match (a superset of the matches). */
  approximation: Int32Array;
  /** Whether a doc matches; any doc of the segment may be asked. */
  matches(doc: number): boolean;
  /** Sets the bits of the matches. */
  mark(bits: Uint32Array): void;
  /** Clears the bits of the docs that do not match: only the docs already set are checked. */
  retain(bits: Uint32Array, words: number): void;
}

/** Docs with at least one value v in the range; bounds may mix number and bigint. */
export function numericRangeVerifier(
  rs: ReaderSegment,
  field: string,
  lo: number | bigint | undefined,
  loInc: boolean,
  hi: number | bigint | undefined,
  hiInc: boolean,
): DocVerifier | null {
  const f = rs.segment.field(field);
  const n = f?.numeric;
  if (!f || !n) return null;
  const starts = n.starts;
  const approximation = f.docsWithField;
  if (n.kind === 'double' && typeof (lo ?? 0) === 'number' && typeof (hi ?? 0) === 'number') {
    // Inclusive bounds on doubles: an exclusive bound is the next double inward.
    const low = lo === undefined ? Number.NEGATIVE_INFINITY : loInc ? (lo as number) : nextUp(lo as number);
    const high =
      hi === undefined ? Number.POSITIVE_INFINITY : hiInc ? (hi as number) : nextDown(hi as number);
    if (n.singleValued) return singleValuedRange(approximation, starts, n.values, low, high);
    const values = n.values;
    return verifier(approximation, (doc) => {
      for (let j = starts[doc]!, e = starts[doc + 1]!; j < e; j++) {
        const v = values[j]!;
        if (v >= low && v <= high) return true;
      }
      return false;
    });
  }
  const values = n.values as ArrayLike<number | bigint>;
  const low = lo ?? Number.NEGATIVE_INFINITY;
  const high = hi ?? Number.POSITIVE_INFINITY;
  return verifier(approximation, (doc) => {
    for (let j = starts[doc]!, e = starts[doc + 1]!; j < e; j++) {
      const v = values[j]!;
      if ((loInc ? v >= low : v > low) && (hiInc ? v <= high : v < high)) return true;
    }
    return false;
  });
}

/** The common numeric field (one value per doc), with the value test inlined in the loops. */
function singleValuedRange(
  approximation: Int32Array,
  starts: Uint32Array,
  values: Float64Array,
  low: number,
  high: number,
): DocVerifier {
  return {
    approximation,
    matches(doc) {
      // Any doc may be asked (not only the approximation's): one without a value does not match.
      const s = starts[doc]!;
      if (s === starts[doc + 1]) return false;
      const v = values[s]!;
      return v >= low && v <= high;
    },
    mark(bits) {
      for (let i = 0; i < approximation.length; i++) {
        const d = approximation[i]!;
        const v = values[starts[d]!]!;
        if (v >= low && v <= high) bits[d >>> 5]! |= 1 << (d & 31);
      }
    },
    retain(bits, words) {
      for (let w = 0; w < words; w++) {
        let x = bits[w]!;
        if (x === 0) continue;
        let keep = x;
        const base = w << 5;
        while (x !== 0) {
          const bit = x & -x;
          x ^= bit;
          const d = base + 31 - Math.clz32(bit);
          // A doc without a value (its start is the next doc's) does not match.
          const s = starts[d]!;
          const v = s < starts[d + 1]! ? values[s]! : Number.NaN;
          if (!(v >= low && v <= high)) keep ^= bit;
        }
        bits[w] = keep;
      }
    },
  };
}

export function verifier(approximation: Int32Array, matches: (doc: number) => boolean): DocVerifier {
  return {
    approximation,
    matches,
    mark(bits) {
      for (let i = 0; i < approximation.length; i++) {
        const d = approximation[i]!;
        if (matches(d)) bits[d >>> 5]! |= 1 << (d & 31);
      }
    },
    retain(bits, words) {
      for (let w = 0; w < words; w++) {
        let x = bits[w]!;
        if (x === 0) continue;
        let keep = x;
        const base = w << 5;
        while (x !== 0) {
          const bit = x & -x;
          x ^= bit;
          if (!matches(base + 31 - Math.clz32(bit))) keep ^= bit;
        }
        bits[w] = keep;
      }
    },
  };
}

const scratch = new Float64Array(1);
const bits = new BigInt64Array(scratch.buffer);

/** The smallest double above x (x finite or infinite, not NaN). */
function nextUp(x: number): number {
  if (x === Number.POSITIVE_INFINITY) return x;
  if (x === 0) return Number.MIN_VALUE;
  scratch[0] = x;
  bits[0]! += x > 0 ? 1n : -1n;
  return scratch[0]!;
}

function nextDown(x: number): number {
  return -nextUp(-x);
}
