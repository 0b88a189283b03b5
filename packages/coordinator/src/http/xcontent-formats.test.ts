import { RawJson } from '@shoal/protocol';
import { decode, encode } from 'cborg';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { bodyAsJson, encodeAs } from './xcontent-formats.ts';

describe('YAML and CBOR bodies', () => {
  it('reads YAML and CBOR request bodies as JSON, keeping long integers exact', () => {
    const yaml = Buffer.from('query:\n  term:\n    n: 12345678901234567890\nsize: 2\n');
    expect(bodyAsJson(yaml, 'yaml').toString()).toBe(
      '{"query":{"term":{"n":12345678901234567890}},"size":2}',
    );
    const cbor = Buffer.from(
      encode({ query: { match_all: {} }, size: 1, big: 2n ** 63n - 1n }, { mapSorter: null as never }),
    );
    expect(bodyAsJson(cbor, 'cbor').toString()).toBe(
      '{"query":{"match_all":{}},"size":1,"big":9223372036854775807}',
    );
  });

  it('answers 501 for the streamed APIs (_bulk, _msearch) in YAML or CBOR', () => {
    expect(() => bodyAsJson(Buffer.from('a: 1'), 'yaml', '/_bulk')).toThrow(/is not implemented/);
    expect(() => bodyAsJson(Buffer.from('a: 1'), 'yaml', '/:index/_msearch/template')).toThrow(
      /is not implemented/,
    );
  });

  it('refuses malformed YAML with its position, and duplicate keys', () => {
    expect(() => bodyAsJson(Buffer.from('a: [1,'), 'yaml')).toThrow(/\[1:7\]/);
    expect(() => bodyAsJson(Buffer.from('a: 1\na: 2\n'), 'yaml')).toThrow();
    expect(() => bodyAsJson(Buffer.from([0xff, 0x00]), 'cbor')).toThrow(/Failed to parse CBOR/);
  });

  it('writes a response (raw JSON parts included) as YAML or CBOR', () => {
    const value = {
      took: 1,
      hits: { max_score: new RawJson('1.5'), hits: [{ _id: '1', _source: new RawJson('{"a":1}') }] },
    };
    const yaml = encodeAs(value, 'yaml') as string;
    expect(yaml.startsWith('---\n')).toBe(true);
    expect(parse(yaml)).toEqual({
      took: 1,
      hits: { max_score: 1.5, hits: [{ _id: '1', _source: { a: 1 } }] },
    });
    const cbor = decode(encodeAs(value, 'cbor') as Uint8Array);
    expect(cbor).toEqual(parse(yaml));
    expect(Object.keys(cbor)).toEqual(['took', 'hits']);
  });
});
