import type { ShardFetchResult } from '@shoal/engine';
import { parseSearchRequest, stringifyJson } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import type { FetchedHit } from './fetch-phase.ts';
import type { ShardQueryOutcome } from './query-phase.ts';
import { searchResponse } from './search-response.ts';

const enc = new TextEncoder();

function fetched(ascii: boolean): ShardFetchResult {
  const sources = [ascii ? '{"a":1,"s":"e\\"x"}' : '{"a":1,"s":"é\\"x"}', '', '{"b":[1,2]}'];
  const offsets = [0];
  for (const s of sources) offsets.push(offsets[offsets.length - 1]! + enc.encode(s).length);
  return {
    ids: ['1', 'wéird "id"', '\ud800'],
    routing: [null, 'r1', null],
    versions: [1, 7, 2],
    seqNos: [0, 12, 3],
    primaryTerms: [1, 1, 2],
    sourceBytes: enc.encode(sources.join('')),
    sourceOffsets: Uint32Array.from(offsets),
  };
}

describe('hits written straight to bytes', () => {
  it.each([true, false])('are the same JSON as the object form (ASCII sources: %s)', (ascii) => {
    const f = fetched(ascii);
    const outcome = {
      target: { meta: { name: 'idx' } },
      result: { totalHits: 3, totalRelation: 'eq' },
    } as never as ShardQueryOutcome;
    const sorts = [
      [1.5, 'k', 9223372036854775807n],
      [Number.POSITIVE_INFINITY, null, -3n],
      [Number.NaN, true, 0n],
    ];
    const hits: FetchedHit[] = sorts.map((sort, i) => ({
      hit: {
        doc: i,
        score: i === 1 ? 0.25 : Number.NaN,
        sort,
        shardIndex: 0,
        ...(i === 2 ? { display: ['x'] } : {}),
      },
      outcome,
      fetched: f,
      i,
    }));
    for (const body of [{}, { version: true, seq_no_primary_term: true }, { _source: false }]) {
      const req = parseSearchRequest(body, {});
      const parts = {
        took: 1,
        req,
        totalShards: 1,
        skipped: 0,
        outcomes: [outcome],
        failures: [],
        hits,
        hasSort: true,
        maxScore: 1,
      };
      const objects = stringifyJson(searchResponse(parts));
      const raw = stringifyJson(searchResponse({ ...parts, rawHits: true }));
      expect(raw).toBe(objects);
      expect(() => JSON.parse(raw)).not.toThrow();
    }
  });
});
