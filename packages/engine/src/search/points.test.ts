import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NumericValues } from '../index/segment.ts';
import { buildPoints, pointRange, pointSetRuns, runCount, runDocs } from './points.ts';

/** Doc values of `perDoc` (each doc's values ascending), as a segment stores them. */
function numeric(perDoc: number[][], long: boolean): NumericValues {
  const starts = new Uint32Array(perDoc.length + 1);
  const flat: number[] = [];
  perDoc.forEach((vs, d) => {
    flat.push(...[...vs].sort((a, b) => a - b));
    starts[d + 1] = flat.length;
  });
  const singleValued = perDoc.every((vs) => vs.length <= 1);
  return long
    ? { kind: 'long', starts, values: BigInt64Array.from(flat, (v) => BigInt(v)), singleValued }
    : { kind: 'double', starts, values: Float64Array.from(flat), singleValued };
}

describe('the points index', () => {
  it('finds the docs of a range or a set of values, and counts single-valued ones, as a scan does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: -20, max: 20 }), { maxLength: 3 }), { maxLength: 300 }),
        fc.boolean(),
        fc.option(fc.integer({ min: -25, max: 25 }), { nil: undefined }),
        fc.option(fc.integer({ min: -25, max: 25 }), { nil: undefined }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.integer({ min: -25, max: 25 }), { maxLength: 6 }),
        (perDoc, long, lo, hi, loInc, hiInc, set) => {
          const p = buildPoints(numeric(perDoc, long), perDoc.length);
          const bound = (v: number | undefined) => (v === undefined ? undefined : long ? BigInt(v) : v);
          const inRange = (v: number) =>
            (lo === undefined || (loInc ? v >= lo : v > lo)) &&
            (hi === undefined || (hiInc ? v <= hi : v < hi));
          const expected = perDoc.flatMap((vs, d) => (vs.some(inRange) ? [d] : []));
          const run = pointRange(p, bound(lo), loInc, bound(hi), hiInc);
          expect([...runDocs(p, [run])]).toEqual(expected);
          expect(runCount(p, [run])).toBe(p.singleValued ? expected.length : -1);
          const inSet = perDoc.flatMap((vs, d) => (vs.some((v) => set.includes(v)) ? [d] : []));
          const runs = pointSetRuns(
            p,
            set.map((v) => (long ? BigInt(v) : v)),
          );
          expect([...runDocs(p, runs)]).toEqual(inSet);
        },
      ),
      { numRuns: 500 },
    );
  });
});
