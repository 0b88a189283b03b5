import { describe, expect, it } from 'vitest';
import { illegalArgument, mapperParsing, searchContextMissing, xContentParse } from './catalogue.ts';
import { groupShardFailures, guessRootCauses } from './root-cause.ts';
import { ShoalError } from './shoal-error.ts';

describe('guessRootCauses', () => {
  it('stops at the first Java exception', () => {
    const e = mapperParsing('failed to parse', illegalArgument('For input string'));
    expect(guessRootCauses(e)).toEqual([{ error: e, wrapped: false }]);
  });

  it('stops above a Java exception whose wire type names an Elasticsearch one', () => {
    const lucene = new ShoalError('parse_exception', "Cannot parse 'a:('", 400, {}, undefined, {
      foreign: true,
    });
    const shard = new ShoalError('query_shard_exception', 'Failed to parse query [a:(]', 400, {}, lucene);
    expect(guessRootCauses(shard)).toEqual([{ error: shard, wrapped: false }]);
    // The mark survives the trip across a thread.
    const back = ShoalError.fromWire(shard.toWire());
    expect(guessRootCauses(back)[0]!.error.type).toBe('query_shard_exception');
    expect(back.causedBy!.extra.foreign).toBe(true);
  });

  it('goes through x_content_parse_exception to an Elasticsearch cause', () => {
    const inner = mapperParsing('inner');
    expect(guessRootCauses(xContentParse(1, 2, 'outer', inner))[0]!.error).toBe(inner);
    const iae = xContentParse(
      1,
      2,
      '[slice] failed to parse field [max]',
      illegalArgument('max must be greater than 1'),
    );
    expect(guessRootCauses(iae)).toEqual([{ error: iae, wrapped: true }]);
  });
});

describe('groupShardFailures', () => {
  it('groups by index, reason and type', () => {
    const a = { shard: 0, index: 'i', reason: searchContextMissing(1) };
    const b = { shard: 1, index: 'i', reason: searchContextMissing(1) };
    const c = { shard: 0, index: 'j', reason: searchContextMissing(1) };
    expect(groupShardFailures([a, b, c])).toEqual([a, c]);
  });
});
