import { describe, expect, it } from 'vitest';
import { parseJson } from './parse.ts';
import { RawJson } from './raw-json.ts';
import { stringifyJson, stringifyJsonBytes } from './stringify.ts';

describe('stringifyJson', () => {
  it('is JSON.stringify for plain values', () => {
    const v = { a: [1, 'x', null, true], b: { c: 1.5 }, u: undefined };
    expect(stringifyJson(v)).toBe(JSON.stringify(v));
  });

  it('writes bigint exactly', () => {
    expect(stringifyJson({ sort: [9223372036854775807n, -9223372036854775808n, 1] })).toBe(
      '{"sort":[9223372036854775807,-9223372036854775808,1]}',
    );
    expect(stringifyJson(12345678901234567890n)).toBe('12345678901234567890');
  });

  it('round-trips with parseJson', () => {
    const text = '{"a":9007199254740993,"b":[18446744073709551615,-1],"c":"x"}';
    expect(stringifyJson(parseJson(text))).toBe(text);
  });

  it('writes NaN and Infinity as Jackson does (quoted)', () => {
    expect(stringifyJson({ a: Number.NaN, b: Number.POSITIVE_INFINITY, c: Number.NEGATIVE_INFINITY })).toBe(
      '{"a":"NaN","b":"Infinity","c":"-Infinity"}',
    );
  });

  it('splices RawJson verbatim, from text or bytes', () => {
    const src = new RawJson(new TextEncoder().encode('{ "title" : "héllo", "n": 12345678901234567890 }'));
    expect(stringifyJson({ _id: '1', _source: src, n: 1n })).toBe(
      '{"_id":"1","_source":{ "title" : "héllo", "n": 12345678901234567890 },"n":1}',
    );
    expect(stringifyJson([new RawJson('[1,2]'), new RawJson('"s"')])).toBe('[[1,2],"s"]');
  });

  it('falls back to the exact writer when caller data looks like a placeholder', () => {
    const v = { s: '\u0000R0', t: '\u0000B12', raw: new RawJson('{"x":1}'), big: 5n };
    const out = stringifyJson(v);
    expect(JSON.parse(out.replace(',"big":5', ''))).toEqual({ s: '\u0000R0', t: '\u0000B12', raw: { x: 1 } });
    expect(out).toContain('"big":5}');
  });

  it('writes a small value with raw parts as JSON.stringify writes the rest', () => {
    const tricky = {
      'k"ey': 'v\\al',
      ctl: '\u0001\n',
      lone: '\ud800',
      pair: '😀',
      date: new Date(0),
      arr: [undefined, () => 1, 1, -0],
      nested: { u: undefined, n: null, b: true, e: {}, a: [] },
      boxed: [Object(1), Object('s'), Object(false)],
    };
    expect(stringifyJson({ ...tricky, raw: new RawJson('{"x":1}') })).toBe(
      JSON.stringify({ ...tricky, raw: { x: 1 } }),
    );
  });

  it('lets RawJson survive a plain JSON.stringify', () => {
    expect(JSON.stringify({ a: new RawJson('{"b":[1]}') })).toBe('{"a":{"b":[1]}}');
  });

  it('pretty-prints as Elasticsearch ?pretty', () => {
    const v = {
      took: 3,
      timed_out: false,
      _shards: { total: 1, failures: [] },
      hits: { hits: [{ _id: '1', _source: new RawJson('{"a":1,"b":{}}'), sort: [12345678901234567890n] }] },
      aggs: {},
    };
    expect(stringifyJson(v, true)).toBe(
      [
        '{',
        '  "took" : 3,',
        '  "timed_out" : false,',
        '  "_shards" : {',
        '    "total" : 1,',
        '    "failures" : [ ]',
        '  },',
        '  "hits" : {',
        '    "hits" : [',
        '      {',
        '        "_id" : "1",',
        '        "_source" : {',
        '          "a" : 1,',
        '          "b" : { }',
        '        },',
        '        "sort" : [',
        '          12345678901234567890',
        '        ]',
        '      }',
        '    ]',
        '  },',
        '  "aggs" : { }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('is fast for big responses', () => {
    const hits = Array.from({ length: 20000 }, (_, i) => ({
      _id: String(i),
      _score: 1.5,
      _source: new RawJson(`{"id":${i},"title":"title ${i}","tags":["a","b"]}`),
      sort: [BigInt(i) * 1000000000000n, 'k'],
    }));
    const start = performance.now();
    const out = stringifyJson({ hits: { hits } });
    const ms = performance.now() - start;
    expect(out.length).toBeGreaterThan(1_000_000);
    expect(out).toContain('"sort":[19999000000000000,"k"]');
    expect(ms).toBeLessThan(1000);
  });
});

/** A raw JSON writer of `source` that counts how often it is asked to write. */
function countingWriter(source: Uint8Array) {
  return {
    writes: 0,
    byteLength: source.byteLength,
    writeTo(out: Uint8Array, at: number) {
      this.writes++;
      out.set(source, at);
    },
  };
}

describe('stringifyJsonBytes', () => {
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const bigHits = `[${Array.from({ length: 200 }, (_, i) => `{"_id":"${i}","_source":{"t":"é ${'x'.repeat(20)}"}}`).join(',')}]`;

  it('copies large raw bytes into the output and writes the same JSON as stringifyJson', () => {
    const value = () => ({
      took: 3,
      _scroll_id: 'abc\u0000def',
      hits: { total: { value: 7n, relation: 'eq' }, max_score: null, hits: new RawJson(enc.encode(bigHits)) },
      tail: [new RawJson(enc.encode(bigHits)), new RawJson('{"small":true}'), Number.NaN],
    });
    const bytes = stringifyJsonBytes(value());
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(dec.decode(bytes as Uint8Array)).toBe(stringifyJson(value()));
    expect(JSON.parse(dec.decode(bytes as Uint8Array)).tail[0][199]._id).toBe('199');
  });

  it('has a raw writer write its bytes in place, and still gives them to every other reader', () => {
    const source = enc.encode(bigHits);
    const writer = countingWriter(source);
    const bytes = stringifyJsonBytes({ took: 1, hits: new RawJson(writer) });
    expect(writer.writes).toBe(1);
    expect(dec.decode(bytes as Uint8Array)).toBe(`{"took":1,"hits":${bigHits}}`);
    // Pretty printing and filter_path need the text: the writer then fills a buffer of its own.
    expect(stringifyJson({ hits: new RawJson(writer) })).toBe(`{"hits":${bigHits}}`);
    expect(writer.writes).toBe(2);
  });

  it('answers text when nothing is large raw bytes, or the value is not small', () => {
    const small = { hits: new RawJson(enc.encode('[{"a":1}]')), n: 1 };
    expect(stringifyJsonBytes(small)).toBe('{"hits":[{"a":1}],"n":1}');
    const large = {
      list: Array.from({ length: 100 }, (_, i) => ({ i })),
      raw: new RawJson(enc.encode(bigHits)),
    };
    expect(stringifyJsonBytes(large)).toBe(stringifyJson(large));
    expect(stringifyJsonBytes({ a: 1 })).toBe('{"a":1}');
  });

  it('answers a whole body in raw bytes with those bytes, and one in text with its text', () => {
    const source = enc.encode('{"took":1,"hits":[]}');
    expect(stringifyJsonBytes(new RawJson(source))).toBe(source);
    const writer = countingWriter(source);
    const body = new RawJson(writer);
    expect(dec.decode(stringifyJsonBytes(body) as Uint8Array)).toBe('{"took":1,"hits":[]}');
    expect(writer.writes).toBe(1);
    expect(stringifyJsonBytes(new RawJson('{"a":1}'))).toBe('{"a":1}');
  });
});
