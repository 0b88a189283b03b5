import type { ShardQueryRequest } from '@shoal/engine';
import { describe, expect, it } from 'vitest';
import {
  fromWirePrefetch,
  fromWireQueryTask,
  type QueryTask,
  toWireFetch,
  toWireQueryTask,
} from './query-task-wire.ts';

/** A request through the wire and back, as the worker gets it. */
const roundTrip = (task: QueryTask): QueryTask => fromWireQueryTask(structuredClone(toWireQueryTask(task)));
const plain = (req: ShardQueryRequest): QueryTask => ({ key: 'u/0', req, cancel: 65537 });

const base: ShardQueryRequest = {
  query: { type: 'match_all', boost: 1 },
  sort: [{ kind: 'score', order: 'desc' }],
  k: 10,
  trackTotalHitsUpTo: 10_000,
  trackScores: false,
  shardIndex: 1,
};

describe('query task wire form', () => {
  it('sends a plain task as its key, its query and six numbers, and rebuilds it', () => {
    const wire = toWireQueryTask(plain(base));
    expect(wire).toEqual({ t: 'query', key: 'u/0', query: base.query, n: [10, 10_000, 1, 65537, -1, 0] });
    expect(roundTrip(plain(base))).toEqual(plain(base));
  });

  it('carries the flags, the prefetch, a PIT and fetch options that are not the defaults', () => {
    const rendered: QueryTask = {
      ...plain({ ...base, trackScores: true }),
      prefetch: { count: 10, render: true, withSort: true, fetch: {} },
    };
    expect(toWireQueryTask(rendered).x).toBeUndefined();
    expect(roundTrip(rendered)).toEqual(rendered);
    const kept: QueryTask = {
      ...plain(base),
      keepContext: true,
      pit: { context: { session: 's', id: 3 }, keepAliveMs: 60_000 } as unknown as QueryTask['pit'],
    };
    expect(roundTrip(kept)).toEqual(kept);
    const fetched: QueryTask = {
      ...plain(base),
      prefetch: {
        count: 3,
        fetch: { version: true, source: { enabled: false, includes: [], excludes: [] } },
      },
    };
    expect(toWireQueryTask(fetched).x).toEqual({ fetch: fetched.prefetch!.fetch });
    expect(roundTrip(fetched)).toEqual(fetched);
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
      runtimeMappings: { day: { type: 'keyword' } },
      collapse: { field: 'group' },
      documentFilter: { type: 'match_none' },
      fieldVisibility: [[{ include: ['a*'], exclude: ['ab'] }]],
    };
    expect(roundTrip(plain(full))).toEqual(plain(full));
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
    expect(roundTrip(plain(req))).toEqual(plain(req));
    for (const sort of [[{ kind: 'score', order: 'asc' }], [{ kind: 'doc', order: 'desc' }], []] as const) {
      const r = { ...base, sort: [...sort] };
      expect(toWireQueryTask(plain(r)).x?.sort).toEqual(sort);
      expect(roundTrip(plain(r))).toEqual(plain(r));
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
