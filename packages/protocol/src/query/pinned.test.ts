import { describe, expect, it } from 'vitest';
import { isShoalError } from '../errors/shoal-error.ts';
import { parseQuery } from './parse-query.ts';

function err(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (isShoalError(e)) return { type: e.type, reason: e.reason, status: e.status };
    throw e;
  }
  throw new Error('expected an error');
}

const organic = { match_all: {} };

describe('pinned', () => {
  it('reads ids as docs without an index, and docs with their index', () => {
    expect(parseQuery({ pinned: { ids: ['a', 'b'], organic, boost: 2 } })).toEqual({
      type: 'pinned',
      organic: { type: 'match_all', boost: 1 },
      docs: [{ id: 'a' }, { id: 'b' }],
      boost: 2,
    });
    expect(
      parseQuery({ pinned: { docs: [{ _index: 'i', _id: 'a' }, { _id: 'a' }], organic } }),
    ).toMatchObject({
      docs: [{ index: 'i', id: 'a' }, { id: 'a' }],
    });
  });

  it("refuses what PinnedQueryBuilder's constructor refuses, as parsing exceptions", () => {
    expect(err(() => parseQuery({ pinned: { organic } }))).toMatchObject({
      type: 'parsing_exception',
      reason: '[pinned] ids and docs cannot both be null',
    });
    expect(err(() => parseQuery({ pinned: { ids: ['a'] } })).reason).toBe('Required [organic]');
    const many = Array.from({ length: 101 }, (_, i) => String(i));
    expect(err(() => parseQuery({ pinned: { ids: many, organic } })).reason).toBe(
      '[pinned] Max of 100 ids exceeded: 101 provided.',
    );
    expect(err(() => parseQuery({ pinned: { docs: [{ _id: 'a' }, { _id: 'a' }], organic } })).reason).toBe(
      '[pinned] duplicate doc found in list: {_index=null, _id=a}',
    );
    expect(err(() => parseQuery({ pinned: { ids: ['a'], organic, colour: 1 } }))).toMatchObject({
      type: 'x_content_parse_exception',
    });
  });
});
