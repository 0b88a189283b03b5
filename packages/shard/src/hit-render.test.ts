import { jsonString } from '@shoal/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HitSink, renderPage } from './hit-render.ts';

/** A sink that starts tiny, so every write makes it grow. */
class GrowingSink extends HitSink {
  constructor() {
    super(1);
  }
  protected room(n: number): void {
    if (this.end + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(this.end + n);
    this.buf.copy(next, 0, 0, this.end);
    this.buf = next;
  }
  get written(): string {
    return this.buf.toString('utf8', 0, this.end);
  }
}

describe('hit sink', () => {
  it('writes a JSON string as jsonString does, whatever it holds', () => {
    const samples = [
      '',
      'abc',
      'AaIYnLsDAADxm-5RFSAX',
      'a"b',
      'a\\b',
      'tab\there',
      '\u0000\u001f',
      'é',
      '日本',
      '😀',
      'x\ud800y',
      'end\u007f',
    ];
    for (const s of samples) {
      const sink = new GrowingSink();
      sink.shortBytes(Buffer.from('['));
      sink.jsonString(s);
      sink.shortBytes(Buffer.from(']'));
      expect(sink.written).toBe(`[${jsonString(s)}]`);
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string(), (a, b) => {
        const sink = new GrowingSink();
        sink.jsonString(a);
        sink.text(b);
        sink.jsonString(b);
        expect(sink.written).toBe(jsonString(a) + Buffer.from(b).toString() + jsonString(b));
      }),
    );
  });

  it('renders a page of hits as the JSON of each hit, after a comma', () => {
    const ids = ['1', 'q"uote', 'ünï'];
    const sources = ids.map((_, i) => Buffer.from(JSON.stringify({ n: i, t: 'x' })));
    const docs = {
      ids,
      versions: [1, 2, 3],
      seqNos: [0, 1, 2],
      primaryTerms: [1, 1, 1],
      routing: [null, 'r1', null],
      sources,
      sourceLength: 0,
    };
    const hits = ids.map((_, i) => ({ doc: i, score: 1.5 - i, sort: [10 - i] }));
    const fetch = { source: { enabled: true }, version: true, seqNoPrimaryTerm: true };
    const page = renderPage('idx', hits, docs as never, fetch as never, true, 0);
    const text = Buffer.from(page.bytes).toString();
    expect(page.ends).toHaveLength(4);
    expect(JSON.parse(`[${text.slice(1)}]`)).toEqual(
      ids.map((id, i) => ({
        _index: 'idx',
        _id: id,
        _version: i + 1,
        _seq_no: i,
        _primary_term: 1,
        _score: 1.5 - i,
        ...(i === 1 ? { _routing: 'r1' } : {}),
        _source: { n: i, t: 'x' },
        sort: [10 - i],
      })),
    );
  });
});
