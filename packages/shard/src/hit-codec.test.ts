import type { ShardFetchResult, ShardQueryResult } from '@shoal/engine';
import { describe, expect, it } from 'vitest';
import { packedHeader, packHits, unpackHits } from './hit-codec.ts';

const enc = new TextEncoder();

describe('packed hits', () => {
  it('round-trip every kind of sort column, and the fetched documents', () => {
    const result: ShardQueryResult = {
      totalHits: 42,
      totalRelation: 'gte',
      maxScore: 1.5,
      hits: [5, 9, 17].map((doc, i) => ({
        doc,
        score: i === 1 ? Number.NaN : i / 3,
        sort: [
          doc,
          (3n << 32n) | BigInt(doc),
          i - 0.5,
          [9223372036854775807n, -5n, 12n][i]!,
          ['a', null, 'b'][i]!,
          [1, 2n, 'x'][i]!,
        ],
      })),
    };
    result.hits[2]!.display = ['2024-01-01'];
    const sources = ['{"a":1}', '{"b":"é"}', '{}'];
    const bytes = enc.encode(sources.join(''));
    const fetched: ShardFetchResult = {
      ids: ['x', '', 'ünïcode'],
      routing: [null, 'r', null],
      versions: [1, 2, 3],
      seqNos: [10, 11, 2 ** 40],
      primaryTerms: [1, 1, 2],
      sourceBytes: bytes,
      sourceOffsets: Uint32Array.from([0, 7, 7 + enc.encode(sources[1]!).length, bytes.length]),
    };
    const packed = packHits(result, 3, fetched);
    expect(packedHeader(packed).columns.map((c) => c.kind)).toEqual([
      'doc',
      'shard_doc',
      'f64',
      'i64',
      'values',
      'values',
    ]);
    const copy = structuredClone(packed, { transfer: [packed.bytes.buffer as ArrayBuffer] });
    const back = unpackHits(copy);
    expect(back.result.totalHits).toBe(42);
    expect(back.result.totalRelation).toBe('gte');
    expect(back.result.hits.map((h) => ({ ...h, display: h.display }))).toEqual(
      result.hits.map((h, i) => ({ ...h, shardIndex: 3, display: i === 2 ? ['2024-01-01'] : h.sort })),
    );
    expect(back.fetched).toEqual({
      ...fetched,
      sourceBytes: expect.any(Uint8Array),
      sourceOffsets: expect.any(Uint32Array),
    });
    expect(new TextDecoder().decode(back.fetched!.sourceBytes)).toBe(sources.join(''));
    expect([...back.fetched!.sourceOffsets]).toEqual([...fetched.sourceOffsets]);
    // The same documents given one by one (as the shard thread fetches a small page) pack alike.
    const { sourceBytes: _b, sourceOffsets: _o, ...rest } = fetched;
    const pieces = sources.map((x) => enc.encode(x));
    const byPiece = packHits(result, 3, { ...rest, sources: pieces, sourceLength: bytes.length });
    expect([...byPiece.bytes]).toEqual([...copy.bytes]);
    const noSource = unpackHits(packHits(result, 3, { ...rest, sources: [], sourceLength: 0 }));
    expect([...noSource.fetched!.sourceOffsets]).toEqual([0, 0, 0, 0]);
  });

  it('packs no hits', () => {
    const back = unpackHits(
      packHits({ totalHits: 0, totalRelation: 'eq', maxScore: Number.NaN, hits: [] }, 0),
    );
    expect(back.result.hits).toEqual([]);
    expect(back.fetched).toBeUndefined();
  });

  it('round-trips rendered hits, alone or with fetched documents', () => {
    const result: ShardQueryResult = {
      totalHits: 3,
      totalRelation: 'eq',
      maxScore: Number.NaN,
      hits: [4, 8, 15].map((doc) => ({ doc, score: Number.NaN, sort: [doc] })),
    };
    const hits = ['"_id":"a","_score":null,"sort":[4]}', '"_id":"é","_score":null,"sort":[8]}', '"_id":"c"}'];
    const bytes = enc.encode(hits.join(''));
    const ends = new Uint32Array(hits.length + 1);
    for (let i = 0; i < hits.length; i++) ends[i + 1] = ends[i]! + enc.encode(hits[i]!).length;
    const packed = packHits(result, 1, undefined, { bytes, ends });
    const copy = structuredClone(packed, { transfer: [packed.bytes.buffer as ArrayBuffer] });
    const back = unpackHits(copy);
    expect(back.fetched).toBeUndefined();
    expect(back.result.hits.map((h) => h.doc)).toEqual([4, 8, 15]);
    const r = back.rendered!;
    expect([...r.ends]).toEqual([...ends]);
    const dec = new TextDecoder();
    expect(hits.map((_, i) => dec.decode(r.bytes.subarray(r.ends[i], r.ends[i + 1])))).toEqual(hits);
    expect(unpackHits(packHits(result, 1)).rendered).toBeUndefined();
  });
});
