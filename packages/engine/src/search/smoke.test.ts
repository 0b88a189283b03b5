import { expect, it } from 'vitest';
import { corpus, q } from './test-corpus.test-support.ts';

it('smoke', () => {
  const c = corpus({ title: { type: 'text' }, n: { type: 'long' } }, [
    ['1', { title: 'the quick brown fox', n: 1 }],
    ['2', { title: 'the lazy dog', n: 2 }],
  ]);
  console.log(JSON.stringify(c.search(q.match('title', 'quick dog')), (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
  expect(c.ids(q.match('title', 'quick'))).toEqual(['1']);
});
