import type { ShardQueryRequest } from '@shoal/engine';
import { describe, expect, it } from 'vitest';
import { fromWirePrefetch, fromWireQuery, toWireFetch, toWireQuery } from './query-task-wire.ts';

const base: ShardQueryRequest = {
  query: { type: 'match_all', boost: 1 },
  sort: [{ kind: 'score', order: 'desc' }],
  k: 10,
  trackTotalHitsUpTo: 10_000,
  trackScores: false,
  shardIndex: 1,
};

describe('query task wire form', () => {
  it('leaves out the score sort and track_scores false, and puts them back', () => {
    const wire = toWireQuery(base);
    expect(wire).toEqual({ query: base.query, k: 10, trackTotalHitsUpTo: 10_000, shardIndex: 1 });
    expect('sort' in wire || 'trackScores' in wire).toBe(false);
    expect(fromWireQuery(structuredClone(wire))).toEqual(base);
  });

  it('carries every optional part of a request', () => {
    const full: Required<ShardQueryRequest> = {
      ...base,
      trackScores: true,
      searchAfter: [1],
      slice: {
        id: 0,
        max: 2,
        field: '_id',
        context: 'scroll',
      } as unknown as Required<ShardQueryRequest>['slice'],
      resumeAfter: { after: [1], doc: 2 } as unknown as Required<ShardQueryRequest>['resumeAfter'],
      aggs: { a: {} } as unknown as Required<ShardQueryRequest>['aggs'],
      postFilter: { type: 'match_none' },
      minScore: 0.5,
      limits: { maxTermsCount: 10, maxRegexLength: 20 },
      rescore: [
        {
          windowSize: 5,
          query: { type: 'match_all', boost: 2 },
          queryWeight: 1,
          rescoreQueryWeight: 2,
          scoreMode: 'max',
        },
      ],
      terminateAfter: 7,
      collapse: { field: 'group' },
    };
    expect(fromWireQuery(structuredClone(toWireQuery(full)))).toEqual(full);
  });

  it('keeps every other sort, track_scores and the optional parts', () => {
    const req: ShardQueryRequest = {
      ...base,
      sort: [
        { kind: 'field', field: 'n', order: 'desc', missing: '_last' },
        { kind: 'score', order: 'desc' },
      ],
      trackScores: true,
      searchAfter: [3, 1.5],
    };
    expect(fromWireQuery(structuredClone(toWireQuery(req)))).toEqual(req);
    for (const sort of [[{ kind: 'score', order: 'asc' }], [{ kind: 'doc', order: 'desc' }], []] as const) {
      const r = { ...base, sort: [...sort] };
      expect(toWireQuery(r).sort).toEqual(sort);
      expect(fromWireQuery(structuredClone(toWireQuery(r)))).toEqual(r);
    }
  });

  it('leaves out fetch options at their defaults', () => {
    const whole = {
      source: { enabled: true, includes: [], excludes: [] },
      version: false,
      seqNoPrimaryTerm: false,
    };
    expect(toWireFetch(whole)).toEqual({});
    expect(fromWirePrefetch({}, [3])).toEqual({ ...whole, docs: [3] });
    const some = {
      source: { enabled: true, includes: ['a*'], excludes: [] },
      version: true,
      seqNoPrimaryTerm: true,
    };
    expect(fromWirePrefetch(structuredClone(toWireFetch(some)), [])).toEqual({ ...some, docs: [] });
    const fields = { ...some, fields: { storedNone: true as const } };
    expect(fromWirePrefetch(structuredClone(toWireFetch(fields)), [1])).toEqual({ ...fields, docs: [1] });
    const none = {
      source: { enabled: false, includes: [], excludes: [] },
      version: false,
      seqNoPrimaryTerm: true,
    };
    expect(fromWirePrefetch(toWireFetch(none), [])).toEqual({ ...none, docs: [] });
  });
});
