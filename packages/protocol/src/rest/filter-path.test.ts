import { describe, expect, it } from 'vitest';
import { RawJson } from '../json/raw-json.ts';
import { filterPath } from './filter-path.ts';

const search = {
  took: 3,
  timed_out: false,
  _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
  hits: {
    total: { value: 2, relation: 'eq' },
    max_score: 1,
    hits: [
      { _index: 'twitter', _id: '1', _score: 1, _source: { user: 'kimchy', likes: 0, meta: { a: 1 } } },
      { _index: 'twitter', _id: '2', _score: 1, _source: { user: 'bob', likes: 5, meta: {} } },
    ],
  },
};

describe('filterPath', () => {
  it('keeps named paths through arrays (the docs example)', () => {
    expect(filterPath(search, 'took,hits.hits._id,hits.hits._score')).toEqual({
      took: 3,
      hits: {
        hits: [
          { _id: '1', _score: 1 },
          { _id: '2', _score: 1 },
        ],
      },
    });
  });

  it('supports * inside names and ** across levels', () => {
    expect(filterPath(search, 'hits.hits._sour*.user')).toEqual({
      hits: { hits: [{ _source: { user: 'kimchy' } }, { _source: { user: 'bob' } }] },
    });
    expect(filterPath(search, '**._id')).toEqual({ hits: { hits: [{ _id: '1' }, { _id: '2' }] } });
    expect(filterPath(search, '_shards.*')).toEqual({ _shards: search._shards });
    expect(filterPath({ a: { b: { c: 1, d: 2 } } }, 'a.**')).toEqual({ a: { b: { c: 1, d: 2 } } });
    expect(filterPath({ took: 1 }, '**.took')).toEqual({ took: 1 });
  });

  it('excludes with a leading -', () => {
    expect(filterPath(search, '-hits.hits._source,-_shards,-took,-timed_out')).toEqual({
      hits: {
        total: { value: 2, relation: 'eq' },
        max_score: 1,
        hits: [
          { _index: 'twitter', _id: '1', _score: 1 },
          { _index: 'twitter', _id: '2', _score: 1 },
        ],
      },
    });
  });

  it('applies includes, then excludes', () => {
    expect(filterPath(search, 'hits.hits._source,-hits.hits._source.meta')).toEqual({
      hits: { hits: [{ _source: { user: 'kimchy', likes: 0 } }, { _source: { user: 'bob', likes: 5 } }] },
    });
  });

  it('drops containers emptied by filtering, keeps ones that were empty', () => {
    expect(filterPath({ a: { b: 1 }, c: {} }, '-a.b')).toEqual({ c: {} });
    expect(filterPath({ a: {}, b: [] }, 'a,b')).toEqual({ a: {}, b: [] });
  });

  it('answers {} when nothing matches', () => {
    expect(filterPath(search, 'nope')).toEqual({});
    expect(filterPath(search, '-*')).toEqual({});
  });

  it('leaves the value alone without a filter', () => {
    expect(filterPath(search, undefined)).toBe(search);
    expect(filterPath(search, '')).toBe(search);
  });

  it('reads into raw _source only when it must', () => {
    const raw = new RawJson('{"user":"kimchy","likes":3}');
    const v = { hits: { hits: [{ _id: '1', _source: raw }] } };
    const whole = filterPath(v, 'hits.hits._source') as typeof v;
    expect(whole.hits.hits[0]!._source).toBe(raw);
    expect(filterPath(v, 'hits.hits._source.likes')).toEqual({ hits: { hits: [{ _source: { likes: 3 } }] } });
  });
});
