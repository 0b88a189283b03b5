import { parseSearchRequest } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { ParsedSearchCache, type SearchRequestText } from './parsed-search-cache.ts';

const text = (
  body: string | undefined,
  query: Record<string, string> = {},
  path = '/i/_search',
): SearchRequestText => ({
  path,
  query,
  body: body === undefined ? undefined : Buffer.from(body),
});

const parsed = (t: SearchRequestText) => ({
  search: parseSearchRequest(t.body ? JSON.parse(t.body.toString()) : undefined, t.query, { path: t.path }),
  pit: false,
});

describe('parsed search cache', () => {
  it('gives a request sent again the same parse, and a different request its own', () => {
    const cache = new ParsedSearchCache(8);
    const a = text('{"query":{"match_all":{}},"size":10}');
    const key = cache.keyOf(a)!;
    expect(cache.get(key)).toBeUndefined();
    const p = parsed(a);
    cache.set(key, p);
    expect(cache.get(cache.keyOf(text('{"query":{"match_all":{}},"size":10}'))!)).toBe(p);
    // Any difference in the path, a parameter or the body is another request.
    const others = [
      text('{"query":{"match_all":{}},"size":11}'),
      text('{"query":{"match_all":{}},"size":10} '),
      text('{"query":{"match_all":{}},"size":10}', { size: '3' }),
      text('{"query":{"match_all":{}},"size":10}', {}, '/j/_search'),
      text(undefined),
    ];
    for (const o of others) expect(cache.get(cache.keyOf(o)!)).toBeUndefined();
    expect(new Set(others.map((o) => cache.keyOf(o))).size).toBe(others.length);
  });

  it('cannot be fooled by a parameter that spells another split of the text', () => {
    const cache = new ParsedSearchCache(8);
    const keys = [
      cache.keyOf(text(undefined, { a: 'b1:c' })),
      cache.keyOf(text(undefined, { a: 'b', c: '' })),
      cache.keyOf(text(undefined, { 'a1:b': '' })),
      cache.keyOf(text(undefined, {}, '/x1:a1:b')),
      cache.keyOf(text('', {})),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('freezes what it keeps, deep, so that no search can change what another reads', () => {
    const cache = new ParsedSearchCache(8);
    const t = text('{"query":{"bool":{"must":[{"term":{"a":"x"}}]}},"sort":[{"n":"desc"}],"size":3}');
    const p = parsed(t);
    cache.set(cache.keyOf(t)!, p);
    const kept = cache.get(cache.keyOf(t)!)!;
    expect(Object.isFrozen(kept)).toBe(true);
    expect(Object.isFrozen(kept.search)).toBe(true);
    expect(Object.isFrozen(kept.search.sort)).toBe(true);
    expect(Object.isFrozen(kept.search.query)).toBe(true);
    expect(() => {
      (kept.search as { size: number }).size = 99;
    }).toThrow(TypeError);
  });

  it('keeps at most its capacity, dropping the oldest first; 0 keeps nothing; large bodies are not kept', () => {
    const cache = new ParsedSearchCache(3, 64);
    const ts = [1, 2, 3, 4].map((n) => text(`{"size":${n}}`));
    for (const t of ts) cache.set(cache.keyOf(t)!, parsed(t));
    expect(cache.size).toBe(3);
    expect(cache.get(cache.keyOf(ts[0]!)!)).toBeUndefined();
    expect(cache.get(cache.keyOf(ts[3]!)!)!.search.size).toBe(4);
    expect(
      cache.keyOf(text(`{"query":{"match_all":{}},"size":10,"from":0,"track_scores":false}`)),
    ).toBeUndefined();
    expect(new ParsedSearchCache(0).keyOf(ts[0]!)).toBeUndefined();
  });

  it('answers requests that alternate, with and without parameters, each with its own parse', () => {
    const cache = new ParsedSearchCache(8);
    const ts = [
      text('{"size":1}'),
      text('{"size":2}'),
      text('{"size":1}', { size: '3' }),
      text(undefined),
      text('{"size":1}', {}, '/j/_search'),
    ];
    for (const t of ts) cache.set(cache.keyOf(t)!, parsed(t));
    for (let round = 0; round < 3; round++) {
      for (const t of [...ts, ...ts.slice().reverse()]) {
        const kept = cache.get(cache.keyOf(t)!)!;
        expect(kept.search).toEqual(parsed(t).search);
        // The same request twice in a row gives the very same key.
        expect(cache.keyOf(t)).toBe(cache.keyOf({ ...t, body: t.body && Buffer.from(t.body) }));
      }
    }
  });
});
