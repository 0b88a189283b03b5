import { describe, expect, it } from 'vitest';
import { minimumShouldMatch } from './minimum-should-match.ts';
import { corpus, q } from './test-corpus.test-support.ts';

const shard = { index: 'idx', indexUuid: 'uuid' };

/** The error a call throws, as type, reason and cause. */
function failure(run: () => unknown) {
  try {
    run();
  } catch (e) {
    const err = e as {
      type: string;
      reason: string;
      metadata: object;
      causedBy?: { type: string; reason: string };
    };
    return {
      type: err.type,
      reason: err.reason,
      metadata: err.metadata,
      cause: err.causedBy && { type: err.causedBy.type, reason: err.causedBy.reason },
    };
  }
  throw new Error('no error');
}

describe('minimum_should_match read as Queries.calculateMinShouldMatch reads it', () => {
  it.each([
    // Integer.parseInt: an optional sign, then digits (other Unicode decimal digits too).
    ['+3', 5, 3],
    // Java's int has no negative zero: `-0` is 0, not "all but 0".
    ['-0', 5, 0],
    ['٣', 5, 3],
    ['３', 5, 3],
    // String.trim drops control characters and spaces at either end.
    ['\t3\n', 5, 3],
    // Spaces next to `<` are removed, however many.
    ['2 <  -25%', 8, 6],
    ['2<\t-25%', 8, 6],
    // Once the count is within a bound, the rest of the spec is not read.
    ['2<-25%  9<-3', 2, 2],
    ['2<', 2, 2],
    // The int product of the percentage wraps before the float arithmetic.
    ['2147483647%', 3, 21474836],
    ['-2147483648', 3, 0],
    // Never clamped to the number of optional clauses; never below 0.
    ['5', 2, 5],
    ['1', 0, 1],
    ['100%', 0, 0],
    ['-1', 0, 0],
  ])('%j of %i optional clauses is %i', (spec, n, want) => {
    expect(minimumShouldMatch(n, spec)).toBe(want);
  });

  it.each([
    ['75 %', 4, 'For input string: "75 "'],
    ['%', 4, 'For input string: ""'],
    ['1.5', 4, 'For input string: "1.5"'],
    ['\u00a03', 4, 'For input string: "\u00a03"'],
    ['2147483648', 4, 'For input string: "2147483648"'],
    ['+', 4, 'For input string: "+"'],
    ['', 4, 'For input string: ""'],
    // Two spaces between conditions leave an empty condition.
    ['2<-25%  9<-3', 5, 'For input string: ""'],
  ])('%j fails with number_format_exception %j', (spec, n, reason) => {
    expect(failure(() => minimumShouldMatch(n, spec))).toEqual({
      type: 'number_format_exception',
      reason,
      metadata: {},
      cause: undefined,
    });
  });

  it('fails a condition without a value past its bound as Java indexes the array', () => {
    expect(failure(() => minimumShouldMatch(3, '2<'))).toMatchObject({
      type: 'array_index_out_of_bounds_exception',
      reason: 'Index 1 out of bounds for length 1',
    });
    expect(failure(() => minimumShouldMatch(3, '<'))).toMatchObject({
      type: 'array_index_out_of_bounds_exception',
      reason: 'Index 0 out of bounds for length 0',
    });
  });

  it("is the shard's query_shard_exception around the Java exception when the shard is known", () => {
    expect(failure(() => minimumShouldMatch(3, 'abc', shard))).toEqual({
      type: 'query_shard_exception',
      reason: 'failed to create query: For input string: "abc"',
      metadata: { index_uuid: 'uuid', index: 'idx' },
      cause: { type: 'number_format_exception', reason: 'For input string: "abc"' },
    });
  });
});

describe('minimum_should_match in queries', () => {
  const c = corpus({ title: { type: 'text' }, tag: { type: 'keyword' } }, [
    ['1', { title: 'quick brown fox', tag: 'a' }],
    ['2', { title: 'quick dog', tag: 'b' }],
    ['3', { title: 'lazy fox', tag: 'a' }],
  ]);
  const ids = (query: Parameters<typeof c.ids>[0]) => c.ids(query).sort();

  it('makes a bool without should clauses match nothing when it comes to 1 or more', () => {
    const must = [q.term('tag', 'a')];
    expect(ids(q.bool({ must }))).toEqual(['1', '3']);
    expect(ids(q.bool({ must, msm: '1' }))).toEqual([]);
    expect(c.search(q.bool({ must, msm: '1' })).totalHits).toBe(0);
    expect(ids(q.bool({ filter: must, msm: '2' }))).toEqual([]);
    expect(ids(q.bool({ must, msm: '100%' }))).toEqual(['1', '3']);
    expect(ids(q.bool({ must, msm: '-1' }))).toEqual(['1', '3']);
    // A filter context does not change it.
    expect(ids(q.constant(q.bool({ must, msm: '1' })))).toEqual([]);
    expect(ids(q.bool({ must: [q.all()], mustNot: [q.term('tag', 'b')], msm: '1' }))).toEqual([]);
  });

  it('makes a bool that needs more should clauses than it has match nothing', () => {
    const should = [q.term('tag', 'a'), q.term('tag', 'b')];
    expect(ids(q.bool({ should, msm: '2' }))).toEqual([]);
    expect(ids(q.bool({ must: [q.all()], should, msm: '3' }))).toEqual([]);
  });

  it('applies to a match with operator and: a positive integer leaves nothing to match', () => {
    const and = (msm?: string) =>
      ids(q.match('title', 'quick fox', { operator: 'and', minimumShouldMatch: msm }));
    expect(and()).toEqual(['1']);
    expect(and('1')).toEqual([]);
    expect(and('2')).toEqual([]);
    expect(and('100%')).toEqual(['1']);
    expect(and('-1')).toEqual(['1']);
    expect(and('3<1')).toEqual(['1']);
    // One term is a term query: minimum_should_match is not read at all.
    expect(ids(q.match('title', 'quick', { operator: 'and', minimumShouldMatch: '2' }))).toEqual(['1', '2']);
    expect(ids(q.match('title', 'quick', { minimumShouldMatch: 'abc' }))).toEqual(['1', '2']);
  });

  it('fails a bool with a spec that does not parse as a query_shard_exception', () => {
    const err = failure(() => c.search(q.bool({ must: [q.all()], msm: '75 %' })));
    expect(err).toEqual({
      type: 'query_shard_exception',
      reason: 'failed to create query: For input string: "75 "',
      metadata: { index_uuid: 'uuid', index: 'idx' },
      cause: { type: 'number_format_exception', reason: 'For input string: "75 "' },
    });
    // A bool without clauses is match_all before the spec is read.
    expect(ids(q.bool({ msm: 'abc' }))).toEqual(['1', '2', '3']);
  });
});
