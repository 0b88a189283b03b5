import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { mergeStreams, SegmentStream, type StreamShape } from './segment-merge.ts';
import type { SortedPermutation } from './sorted-permutation.ts';
import type { Candidate } from './top-k.ts';

/** A segment's permutation of `values` (null: missing), descending, ties by doc ascending. */
function permutation(values: (number | null)[]): SortedPermutation {
  const withValue = values.flatMap((v, d) => (v === null ? [] : [d]));
  withValue.sort((a, b) => (values[b] as number) - (values[a] as number) || a - b);
  const order = Int32Array.from(withValue);
  return {
    order,
    missing: Int32Array.from(values.flatMap((v, d) => (v === null ? [d] : []))),
    value: (i) => values[order[i]!]!,
  };
}

const cmp = (a: Candidate, b: Candidate): number => {
  const va = a.values[0] as number | null;
  const vb = b.values[0] as number | null;
  if (va !== vb) {
    if (va === null) return 1;
    if (vb === null) return -1;
    return vb - va;
  }
  return a.doc - b.doc;
};

describe('merging segments walked in sort order', () => {
  it('gives the first k of all segments, as sorting every passing doc would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }), { maxLength: 12 }), {
          maxLength: 5,
        }),
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 4 }),
        (segments, k, everyNth) => {
          const shape: StreamShape = {
            missingFirst: false,
            missing: null,
            score: 1,
            tiebreak: false,
            cancel: { step() {} },
          };
          let docBase = 0;
          const all: Candidate[] = [];
          const streams = segments.map((values) => {
            const rs = { docBase } as ReaderSegment;
            // Every `everyNth` doc of a segment is excluded (a deleted doc, or one the query missed).
            const accept = Uint8Array.from(values, (_, d) => (d % everyNth === everyNth - 1 ? 0 : 1));
            values.forEach((v, d) => {
              if (accept[d] === 1) all.push({ doc: docBase + d, score: 1, values: [v] });
            });
            const stream = new SegmentStream(rs, permutation(values), 0, accept, null, shape);
            docBase += values.length;
            return stream;
          });
          expect(mergeStreams(streams, cmp, k)).toEqual(all.sort(cmp).slice(0, k));
        },
      ),
    );
  });
});
