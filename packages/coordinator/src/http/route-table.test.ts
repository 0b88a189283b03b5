import { TrieRouter } from 'hono/router/trie-router';
import { describe, expect, it } from 'vitest';
import { allRoutes } from '../routes.ts';
import { FirstMatchRouter, orderRoutes } from './route-table.ts';

/** Concrete paths for a route path: each `:param` filled with awkward values. */
function pathsFor(path: string): string[] {
  const values = ['flights', '_search', '_all', 'a%2Fb', 'a,b', '*', ''];
  let out = [''];
  for (const seg of path.split('/').slice(1)) {
    const options = seg.startsWith(':') ? values : [seg, 'other'];
    out = out.flatMap((prefix) => options.map((o) => `${prefix}/${o}`)).slice(0, 200);
  }
  return out.flatMap((p) => [p, `${p}/`]);
}

describe('FirstMatchRouter', () => {
  it("finds the route Hono's TrieRouter would run first, with the same parameters", () => {
    const routes = orderRoutes(allRoutes());
    const trie = new TrieRouter<number>();
    const first = new FirstMatchRouter<number>();
    routes.forEach((r, i) => {
      trie.add(r.method, r.path, i);
      first.add(r.method, r.path, i);
    });
    const paths = new Set(['/', '//', '/flights//_search', ...routes.flatMap((r) => pathsFor(r.path))]);
    for (const method of ['GET', 'HEAD', 'PUT', 'POST', 'DELETE']) {
      for (const path of paths) {
        const expected = trie.match(method, path)[0][0];
        const actual = first.match(method, path)[0][0];
        expect(actual && [actual[0], { ...actual[1] }], `${method} ${path}`).toEqual(
          expected && [expected[0], { ...expected[1] }],
        );
      }
    }
  });

  it('answers a repeated path as the first time, and a route added later is found', () => {
    const router = new FirstMatchRouter<number>();
    router.add('POST', '/:index/_search', 1);
    const first = router.match('POST', '/flights/_search');
    expect(router.match('POST', '/flights/_search')).toEqual(first);
    expect(first[0][0]?.[1]).toEqual({ index: 'flights' });
    expect(router.match('POST', '/flights/_count')[0]).toEqual([]);
    router.add('POST', '/:index/_count', 2);
    expect(router.match('POST', '/flights/_count')[0][0]?.[0]).toBe(2);
    // The same path by another method, right after: a different answer.
    router.add('GET', '/:index/_search', 3);
    expect(router.match('POST', '/flights/_search')[0][0]?.[0]).toBe(1);
    expect(router.match('GET', '/flights/_search')[0][0]?.[0]).toBe(3);
    expect(router.match('GET', '/other/_search')[0][0]?.[1]).toEqual({ index: 'other' });
    // Past its bound the router forgets its answers, never gives a wrong one.
    for (let i = 0; i < 3000; i++) {
      expect(router.match('POST', `/i${i}/_search`)[0][0]?.[1]).toEqual({ index: `i${i}` });
    }
  });

  it('refuses route paths it cannot match exactly', () => {
    const router = new FirstMatchRouter<number>();
    expect(() => router.add('GET', '/files/*', 1)).toThrow('unsupported route path');
    expect(() => router.add('GET', '/:id{[0-9]+}', 1)).toThrow('unsupported route path');
  });
});
