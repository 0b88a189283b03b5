import { describe, expect, it } from 'vitest';
import { LiveDocs } from './live-docs.ts';
import { decodeNorm, encodeNorm } from './norms.ts';
import { SegmentBuilder } from './segment-builder.ts';
import { mergeSegments } from './segment-merge.ts';
import { compareTerms } from './term-order.ts';
import { testMapping } from './test-mapping.test-support.ts';

const enc = new TextEncoder();
const mapping = testMapping({
  title: { type: 'text', fields: { raw: { type: 'keyword' } } },
  tag: { type: 'keyword' },
  n: { type: 'integer' },
  big: { type: 'long' },
  ok: { type: 'boolean' },
});

function build(docs: Record<string, unknown>[]) {
  const b = new SegmentBuilder();
  docs.forEach((d, i) => {
    b.addDocument(mapping.parseDocument(String(i), enc.encode(JSON.stringify(d))).doc, {
      seqNo: i,
      version: 1,
      primaryTerm: 1,
    });
  });
  return b.build();
}

describe('segment', () => {
  const seg = build([
    { title: 'the quick brown fox', tag: ['b', 'a', 'b'], n: 5, big: '9007199254740993' },
    { title: 'quick quick', n: [3, 1], ok: true },
    { tag: 'c', ok: false },
  ]);

  it('stores ids, source bytes and metadata per doc', () => {
    expect(seg.maxDoc).toBe(3);
    expect(seg.stored.ids).toEqual(['0', '1', '2']);
    expect(JSON.parse(new TextDecoder().decode(seg.source(2)))).toEqual({ tag: 'c', ok: false });
    expect([...seg.stored.seqNos]).toEqual([0, 1, 2]);
    expect(seg.docOfId('1')).toBe(1);
    expect(seg.docOfId('nope')).toBe(-1);
  });

  it('builds text postings with freqs, positions and norms', () => {
    const p = seg.field('title')!.postings!;
    expect(p.terms).toEqual(['brown', 'fox', 'quick', 'the']);
    const q = p.terms.indexOf('quick');
    const from = p.starts[q]!;
    expect([...p.docs.subarray(from, p.starts[q + 1]!)]).toEqual([0, 1]);
    expect([...p.freqs!.subarray(from, from + 2)]).toEqual([1, 2]);
    const ps = p.positionStarts!;
    expect([...p.positions!.subarray(ps[from + 1]!, ps[from + 2]!)]).toEqual([0, 1]);
    expect([...p.norms!]).toEqual([4, 2, 0]);
    expect(p.sumTotalTermFreq).toBe(6);
    expect([...seg.field('title')!.docsWithField]).toEqual([0, 1]);
  });

  it('builds keyword postings and sorted-set doc values', () => {
    const f = seg.field('tag')!;
    expect(f.postings!.terms).toEqual(['a', 'b', 'c']);
    const ss = f.sortedSet!;
    expect([...ss.ords.subarray(ss.starts[0]!, ss.starts[1]!)]).toEqual([0, 1]);
    expect(ss.starts[1]).toBe(ss.starts[2]);
    expect(ss.singleValued).toBe(false);
    expect(seg.field('title.raw')!.sortedSet!.terms).toEqual(['quick quick', 'the quick brown fox']);
  });

  it('builds numeric doc values, sorted within a doc, longs as bigint', () => {
    const n = seg.field('n')!.numeric!;
    expect(n.kind).toBe('double');
    expect([...n.values]).toEqual([5, 1, 3]);
    expect([...n.starts]).toEqual([0, 1, 3, 3]);
    const big = seg.field('big')!.numeric!;
    expect(big.kind).toBe('long');
    expect(big.values[0]).toBe(9007199254740993n);
  });

  it('merges segments, dropping deleted docs and remapping everything', () => {
    const other = build([{ title: 'lazy dog', tag: 'a', n: 7 }]);
    const live = LiveDocs.allLive(3).delete(1);
    const merged = mergeSegments([
      { segment: seg, liveDocs: live },
      { segment: other, liveDocs: LiveDocs.allLive(1) },
    ]);
    expect(merged.stored.ids).toEqual(['0', '2', '0']);
    const p = merged.field('title')!.postings!;
    expect(p.terms).toEqual(['brown', 'dog', 'fox', 'lazy', 'quick', 'the']);
    expect([...p.norms!]).toEqual([4, 0, 2]);
    const n = merged.field('n')!.numeric!;
    expect([...n.values]).toEqual([5, 7]);
    expect([...n.starts]).toEqual([0, 1, 1, 2]);
    const tag = merged.field('tag')!;
    expect(tag.postings!.terms).toEqual(['a', 'b', 'c']);
    expect([...tag.docsWithField]).toEqual([0, 1, 2]);
    expect(new TextDecoder().decode(merged.source(1))).toBe(new TextDecoder().decode(seg.source(2)));
  });
});

describe('live docs', () => {
  it('is copy-on-write once frozen', () => {
    const a = LiveDocs.allLive(40);
    const b = a.delete(3);
    expect(b).toBe(a);
    a.freeze();
    const c = a.delete(35);
    expect(c).not.toBe(a);
    expect(a.isLive(35)).toBe(true);
    expect(c.isLive(35)).toBe(false);
    expect(c.isLive(3)).toBe(false);
    expect(c.numLive).toBe(38);
    expect(a.numLive).toBe(39);
  });
});

describe('norms and term order', () => {
  it('encodes lengths as Lucene SmallFloat.intToByte4', () => {
    for (let i = 0; i < 24; i++) expect(decodeNorm(encodeNorm(i))).toBe(i);
    expect(encodeNorm(24)).toBe(24);
    expect(decodeNorm(encodeNorm(100))).toBe(96);
    expect(decodeNorm(encodeNorm(1000))).toBe(984);
    expect(encodeNorm(0x7fffffff)).toBe(255);
  });

  it('orders terms by code point', () => {
    expect(compareTerms('\uffff', '\u{10000}')).toBeLessThan(0);
    expect(compareTerms('a', 'ab')).toBeLessThan(0);
    expect(compareTerms('b', 'a')).toBeGreaterThan(0);
  });
});
