import { describe, expect, it } from 'vitest';
import type { ShardSlice } from '../contract.ts';
import { passes } from './doc-filter.ts';
import { mix, sliceFilter, sliceFilterBytes } from './slice.ts';
import { corpus } from './test-corpus.test-support.ts';
import { encodeId } from './uid.ts';

const enc = new TextEncoder();

describe('the indexed _id bytes (Uid.encodeId)', () => {
  it('packs numeric ids, decodes url-safe base64 ones, prefixes the rest', () => {
    expect([...encodeId('42')]).toEqual([0xfe, 0x42]);
    expect([...encodeId('1')]).toEqual([0xfe, 0x1f]);
    expect([...encodeId('12345')]).toEqual([0xfe, 0x12, 0x34, 0x5f]);
    // "abc" is base64 for 0x69 0xb7; "_w" decodes to 0xff, which needs the 0xfd escape.
    expect([...encodeId('abc')]).toEqual([0x69, 0xb7]);
    expect([...encodeId('_w')]).toEqual([0xfd, 0xff]);
    // "ab" is not canonical base64 (its unused bits are not zero), "a b" not base64 at all.
    expect([...encodeId('ab')]).toEqual([0xff, 0x61, 0x62]);
    expect([...encodeId('a b')]).toEqual([0xff, 0x61, 0x20, 0x62]);
    expect(() => encodeId('')).toThrow("Ids can't be empty");
  });
});

describe("hppc's BitMixer.mix", () => {
  it('matches mix64 truncated to an int', () => {
    expect(mix(0n)).toBe(0);
    // Computed independently with Python's unbounded integers.
    expect(mix(1n)).toBe(1939593575);
    expect(mix(7919n)).toBe(493531340);
    expect(mix(-1n)).toBe(850083617);
  });
});

const docs: [string, Record<string, unknown>][] = Array.from({ length: 60 }, (_, i) => [
  i % 3 === 0 ? String(i) : `doc-${i}`,
  i % 7 === 0 ? { k: 'x' } : { n: i * 13 - 200, d: i / 4, k: `k${i}` },
]);
const props = {
  n: { type: 'long' as const },
  d: { type: 'double' as const },
  k: { type: 'keyword' as const },
  t: { type: 'text' as const },
};

function withDeletes() {
  const c = corpus(props, docs, 17);
  c.engine.write([
    { op: 'delete', id: 'doc-1' },
    { op: 'delete', id: '9' },
    { op: 'index', id: 'doc-2', source: enc.encode('{"n":5}'), create: false },
  ]);
  c.engine.refresh();
  return { ...c, reader: c.engine.acquireReader() };
}

function passing(
  reader: ReturnType<typeof withDeletes>['reader'],
  f: ReturnType<typeof sliceFilter>,
): number[] {
  const out: number[] = [];
  for (const rs of reader.segments) {
    const ex = f.excluded(rs);
    for (let d = 0; d < rs.segment.maxDoc; d++) if (passes(ex, d)) out.push(rs.docBase + d);
  }
  return out;
}

describe('slices inside a shard', () => {
  const c = withDeletes();
  const live = passing(c.reader, sliceFilter(c.reader, c.mapping, { id: 0, max: 1, context: 'scroll' }));

  it('partition the live docs: disjoint, and together every live doc', () => {
    expect(live).toHaveLength(c.reader.numDocs);
    const modes: Omit<ShardSlice, 'id' | 'max'>[] = [
      { context: 'scroll' },
      { context: 'scroll', field: '_id' },
      { context: 'pit' },
      { context: 'scroll', field: 'n' },
      { context: 'pit', field: 'd' },
    ];
    for (const mode of modes) {
      for (const max of [2, 3, 5]) {
        const all: number[] = [];
        for (let id = 0; id < max; id++) {
          const f = sliceFilter(c.reader, c.mapping, { ...mode, id, max });
          const got = passing(c.reader, f);
          expect(f.total).toBe(got.length);
          all.push(...got);
        }
        expect(new Set(all).size).toBe(all.length);
        expect([...all].sort((a, b) => a - b)).toEqual(live);
      }
    }
  });

  it('a PIT without field splits the reader into contiguous doc-id ranges', () => {
    const ranges = [0, 1, 2].map((id) => {
      const f = sliceFilter(c.reader, c.mapping, { id, max: 3, context: 'pit' });
      return passing(c.reader, f);
    });
    const q = Math.floor(c.reader.maxDoc / 3);
    const r = c.reader.maxDoc % 3;
    ranges.forEach((docs, id) => {
      const start = id < r ? (q + 1) * id : r * (q + 1) + (id - r) * q;
      const size = id < r ? q + 1 : q;
      const liveInRange = live.filter((d) => d >= start && d < start + size);
      expect(docs).toEqual(liveInRange);
    });
  });

  it('max 0 is none of the shard; the filters are cached and counted', () => {
    expect(sliceFilter(c.reader, c.mapping, { id: 0, max: 0, context: 'scroll' }).empty).toBe(true);
    const before = sliceFilterBytes(c.reader);
    const a = sliceFilter(c.reader, c.mapping, { id: 1, max: 7, context: 'scroll', field: 'n' });
    const after = sliceFilterBytes(c.reader);
    expect(after).toBeGreaterThan(before);
    expect(sliceFilter(c.reader, c.mapping, { id: 1, max: 7, context: 'scroll', field: 'n' })).toBe(a);
    expect(sliceFilterBytes(c.reader)).toBe(after);
  });

  it('refuses fields Elasticsearch refuses', () => {
    const f =
      (field: string, context: ShardSlice['context'] = 'scroll') =>
      () =>
        sliceFilter(c.reader, c.mapping, { id: 0, max: 2, field, context });
    expect(f('nope')).toThrow('field nope not found');
    expect(f('k')).toThrow('cannot load numeric doc values on k');
    expect(f('t')).toThrow('cannot load numeric doc values on t');
    expect(f('_id', 'pit')).toThrow('cannot slice on [_id] when using [point-in-time]');
    expect(f('_id')).not.toThrow();
  });
});
