/**
 * cardinality by ordinal: past the threshold, the sketch a shard builds — from each segment's
 * whole sketch when every doc matches, from the hashes of the ordinals the matching docs hold
 * otherwise — holds exactly the registers that adding every distinct value one by one gives.
 */
import { addValue, type CardinalityPartial, newRegisters, precisionFromThreshold } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { corpus } from '../search/test-corpus.test-support.ts';
import { readerDocs } from './aggregate-shard.ts';
import { partialsOf, specsOf } from './aggs.test-support.ts';

const docs: [string, Record<string, unknown>][] = [];
for (let i = 0; i < 3000; i++) {
  docs.push([String(i), { k: `v${(i * 7) % 2600}`, n: (i * 13) % 2700, d: ((i * 11) % 2800) / 4 }]);
}
const shard = corpus({ k: { type: 'keyword' }, n: { type: 'long' }, d: { type: 'double' } }, docs, 700);

function expected(values: Iterable<string | number>, threshold: number): Uint8Array {
  const p = precisionFromThreshold(threshold);
  const registers = newRegisters(p);
  for (const v of new Set(values)) addValue(registers, p, v);
  return registers;
}

describe('cardinality by ordinal', () => {
  it.each([
    ['k', (s: Record<string, unknown>) => s.k as string],
    ['n', (s: Record<string, unknown>) => s.n as number],
    ['d', (s: Record<string, unknown>) => s.d as number],
  ])('the sketch of field %s is the sketch of its distinct values', (field, value) => {
    const specs = specsOf({ c: { cardinality: { field, precision_threshold: 200 } } });
    const all = partialsOf(shard, specs)[0] as CardinalityPartial;
    expect(all.registers).toEqual(
      expected(
        docs.map(([, s]) => value(s)),
        200,
      ),
    );
    // Every third doc (docs are numbered in the order they were indexed): the ordinals they
    // hold, hashed one by one.
    const some = docs.filter((_, i) => i % 3 === 0);
    const readerIds = some.map(([id]) => Number(id));
    const part = partialsOf(shard, specs, readerDocs(shard.reader, readerIds))[0] as CardinalityPartial;
    expect(part.registers).toEqual(
      expected(
        some.map(([, s]) => value(s)),
        200,
      ),
    );
  });

  it('counts exactly below the threshold, whole segments included', () => {
    const specs = specsOf({ c: { cardinality: { field: 'n', precision_threshold: 40_000 } } });
    const all = partialsOf(shard, specs)[0] as CardinalityPartial;
    expect(all.registers).toBeUndefined();
    expect(new Set(all.values).size).toBe(2700);
  });

  it('counts the values of a script, alone or over a field', () => {
    const alone = specsOf({
      c: { cardinality: { script: { source: "doc['n'].value % 10", params: {} }, precision_threshold: 100 } },
    });
    const a = partialsOf(shard, alone)[0] as CardinalityPartial;
    expect(new Set(a.values)).toEqual(new Set(Array.from({ length: 10 }, (_, i) => String(i))));
    const over = specsOf({
      c: {
        cardinality: {
          field: 'n',
          script: { source: '_value * 2', params: {} },
          precision_threshold: 40_000,
        },
      },
    });
    const o = partialsOf(shard, over)[0] as CardinalityPartial;
    expect(new Set(o.values)).toEqual(new Set(Array.from({ length: 2700 }, (_, i) => i * 2)));
  });
});
