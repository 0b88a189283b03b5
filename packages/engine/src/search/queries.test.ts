import { describe, expect, it } from 'vitest';
import { corpus, q } from './test-corpus.test-support.ts';

const c = corpus(
  {
    title: { type: 'text', fields: { raw: { type: 'keyword' } } },
    tag: { type: 'keyword' },
    n: { type: 'integer' },
    big: { type: 'long' },
    price: { type: 'float' },
    ok: { type: 'boolean' },
    at: { type: 'date' },
    ns: { type: 'date_nanos' },
    ip: { type: 'ip' },
    'user.name': { type: 'keyword' },
    'user.age': { type: 'integer' },
  },
  [
    [
      '1',
      {
        title: 'The quick brown fox',
        tag: ['animal', 'Fast'],
        n: 1,
        big: '9007199254740993',
        price: 1.5,
        ok: true,
        at: '2024-01-01T10:00:00Z',
        ip: '10.0.0.1',
        user: { name: 'ann', age: 30 },
      },
    ],
    [
      '2',
      {
        title: 'The lazy brown dog',
        tag: 'animal',
        n: 2,
        big: 5,
        price: 0.1,
        ok: false,
        at: '2024-01-02',
        ns: '2024-01-02T00:00:00.123456789Z',
        ip: '10.0.1.7',
      },
    ],
    ['3', { title: 'Quick quick quick', tag: 'speed', n: 3, at: 1704067200000, ip: '::1' }],
    ['4', { title: 'A fox jumps over the lazy dog', n: [4, 10], user: { name: 'bob' } }],
    ['5', { tag: 'zzz', ok: true }],
  ],
  2,
);
const ids = (...args: Parameters<typeof c.ids>) => c.ids(...args).sort();

describe('term-level queries', () => {
  it('match_all and match_none', () => {
    expect(c.search(q.all()).totalHits).toBe(5);
    expect(c.search(q.all(2)).hits[0]!.score).toBe(2);
    expect(c.search(q.none()).totalHits).toBe(0);
  });

  it('term per field type', () => {
    expect(ids(q.term('title', 'quick'))).toEqual(['1', '3']);
    expect(ids(q.term('title', 'Quick'))).toEqual([]);
    expect(ids(q.term('title.raw', 'Quick quick quick'))).toEqual(['3']);
    expect(ids(q.term('tag', 'fast'))).toEqual([]);
    expect(ids(q.term('tag', 'fast', { caseInsensitive: true }))).toEqual(['1']);
    expect(ids(q.term('n', 10))).toEqual(['4']);
    expect(ids(q.term('n', '2'))).toEqual(['2']);
    expect(ids(q.term('n', 2.5))).toEqual([]);
    expect(ids(q.term('big', 9007199254740993n))).toEqual(['1']);
    expect(ids(q.term('big', '9007199254740993'))).toEqual(['1']);
    expect(ids(q.term('big', 9007199254740992n))).toEqual([]);
    expect(ids(q.term('price', 0.1))).toEqual(['2']);
    expect(ids(q.term('ok', true))).toEqual(['1', '5']);
    expect(ids(q.term('ok', 'false'))).toEqual(['2']);
    expect(ids(q.term('at', '2024-01-02'))).toEqual(['2']);
    expect(ids(q.term('ip', '10.0.0.0/16'))).toEqual(['1', '2']);
    expect(ids(q.term('ip', '0:0::1'))).toEqual(['3']);
    expect(ids(q.term('nope', 'x'))).toEqual([]);
    expect(c.search(q.term('n', 2)).hits[0]!.score).toBe(1);
  });

  it('rejects values a field cannot parse', () => {
    expect(() => c.search(q.term('n', 'abc'))).toThrow(/failed to create query: For input string: "abc"/);
    expect(() => c.search(q.term('ok', 'yes'))).toThrow(/Can't parse boolean value \[yes\]/);
  });

  it('keeps the parse failure of the field as the cause of query_shard_exception', () => {
    const causeOf = (run: () => unknown) => {
      try {
        run();
      } catch (e) {
        const err = e as { type: string; causedBy?: { type: string; reason: string } };
        return [err.type, err.causedBy?.type, err.causedBy?.reason];
      }
      throw new Error('the query did not fail');
    };
    expect(causeOf(() => c.search(q.term('n', 'abc')))).toEqual([
      'query_shard_exception',
      'number_format_exception',
      'For input string: "abc"',
    ]);
    expect(causeOf(() => c.search(q.term('ip', 'nope')))).toEqual([
      'query_shard_exception',
      'illegal_argument_exception',
      "'nope' is not an IP string literal.",
    ]);
  });

  it('terms', () => {
    expect(ids(q.terms('tag', ['speed', 'zzz', 'none']))).toEqual(['3', '5']);
    expect(ids(q.terms('n', [1, 3, 10]))).toEqual(['1', '3', '4']);
    expect(ids(q.terms('at', ['2024-01-01']))).toEqual(['1', '3']);
    expect(c.search(q.terms('tag', ['speed'])).hits[0]!.score).toBe(1);
  });

  it('range on numbers, dates, keywords and ips', () => {
    expect(ids(q.range('n', { gte: 2, lt: 4 }))).toEqual(['2', '3']);
    expect(ids(q.range('n', { gt: 3 }))).toEqual(['4']);
    expect(ids(q.range('n', { gt: 1.5, lte: 2.5 }))).toEqual(['2']);
    expect(ids(q.range('big', { gt: 9007199254740992n }))).toEqual(['1']);
    expect(ids(q.range('price', { lte: 0.1 }))).toEqual(['2']);
    expect(ids(q.range('at', { gte: '2024-01-01', lte: '2024-01-01' }))).toEqual(['1', '3']);
    expect(ids(q.range('at', { gt: '2024-01-01' }))).toEqual(['2']);
    expect(ids(q.range('at', { gt: '2024-01-01||/d' }))).toEqual(['2']);
    expect(ids(q.range('at', { lt: '2024-01-01T10:00:00Z' }))).toEqual(['3']);
    expect(ids(q.range('at', { gte: 'now-14d/d' }))).toEqual(['1', '2', '3']);
    expect(ids(q.range('at', { gte: '01/01/2024', format: 'dd/MM/yyyy', lt: '02/01/2024' }))).toEqual([
      '1',
      '3',
    ]);
    expect(
      ids(q.range('at', { gte: '2024-01-01T11:00:00', timeZone: '+01:00', lte: '2024-01-01T11:00:00' })),
    ).toEqual(['1']);
    expect(ids(q.range('ns', { gt: '2024-01-02T00:00:00.123456788Z' }))).toEqual(['2']);
    expect(ids(q.range('ns', { gt: '2024-01-02T00:00:00.123456789Z' }))).toEqual([]);
    expect(ids(q.range('tag', { gte: 'animal', lt: 'speed' }))).toEqual(['1', '2']);
    // 'Fast' sorts before 'animal' (byte order), so doc 1 only matches through 'animal' itself.
    expect(ids(q.range('tag', { gt: 'animal' }))).toEqual(['3', '5']);
    expect(ids(q.range('ip', { gte: '10.0.0.0', lte: '10.0.0.255' }))).toEqual(['1']);
    expect(ids(q.range('n', {}))).toEqual(['1', '2', '3', '4']);
  });

  it('exists on leaves, objects and patterns', () => {
    expect(ids(q.exists('ns'))).toEqual(['2']);
    expect(ids(q.exists('user'))).toEqual(['1', '4']);
    expect(ids(q.exists('user.a*'))).toEqual(['1']);
    expect(ids(q.exists('missing'))).toEqual([]);
    expect(ids(q.exists('title'))).toEqual(['1', '2', '3', '4']);
  });

  it('ids, prefix and wildcard', () => {
    expect(ids(q.ids('2', '5', '9'))).toEqual(['2', '5']);
    expect(ids(q.term('_id', '3'))).toEqual(['3']);
    expect(ids(q.terms('_id', ['1', '4']))).toEqual(['1', '4']);
    expect(ids(q.term('_index', 'idx'))).toHaveLength(5);
    expect(ids(q.wildcard('_index', 'i*'))).toHaveLength(5);
    expect(ids(q.term('_index', 'other'))).toEqual([]);
    expect(ids(q.prefix('tag', 'an'))).toEqual(['1', '2']);
    expect(ids(q.prefix('tag', 'fa', true))).toEqual(['1']);
    expect(ids(q.prefix('title', 'qu'))).toEqual(['1', '3']);
    expect(ids(q.wildcard('tag', 'a*l'))).toEqual(['1', '2']);
    expect(ids(q.wildcard('tag', '?zz'))).toEqual(['5']);
    expect(ids(q.wildcard('title', 'Q*K'))).toEqual(['1', '3']);
    expect(ids(q.wildcard('tag', 'F*', true))).toEqual(['1']);
    expect(() => c.search(q.prefix('n', '1'))).toThrow(
      'Can only use prefix queries on keyword, text and wildcard fields - not on [n] which is of type [integer]',
    );
    expect(() => c.search(q.wildcard('ip', '10.*'))).toThrow(
      'Can only use wildcard queries on keyword, text and wildcard fields - not on [ip] which is of type [ip]',
    );
  });

  it('case_insensitive term: text, keyword and boolean fields only', () => {
    const refused = (field: string, type: string) =>
      `[${field}] field which is of type [${type}], does not support case insensitive term queries`;
    const ci = { caseInsensitive: true };
    expect(() => c.search(q.term('n', 1, ci))).toThrow(refused('n', 'integer'));
    expect(() => c.search(q.term('big', 5, ci))).toThrow(refused('big', 'long'));
    expect(() => c.search(q.term('price', 0.1, ci))).toThrow(refused('price', 'float'));
    expect(() => c.search(q.term('at', '2024-01-02', ci))).toThrow(refused('at', 'date'));
    expect(() => c.search(q.term('ns', '2024-01-02', ci))).toThrow(refused('ns', 'date_nanos'));
    expect(() => c.search(q.term('ip', '10.0.0.1', ci))).toThrow(refused('ip', 'ip'));
    // The refusal comes before the value is parsed.
    expect(() => c.search(q.term('n', 'abc', ci))).toThrow(refused('n', 'integer'));
    expect(ids(q.term('ok', 'true', ci))).toEqual(['1', '5']);
    expect(c.search(q.term('ok', true, { caseInsensitive: true, boost: 3 })).hits[0]!.score).toBe(3);
    expect(ids(q.term('nope', 1, ci))).toEqual([]);
  });
});

describe('full-text queries', () => {
  it('match: operator, minimum_should_match, zero terms, lenient', () => {
    expect(ids(q.match('title', 'quick dog'))).toEqual(['1', '2', '3', '4']);
    expect(ids(q.match('title', 'quick fox', { operator: 'and' }))).toEqual(['1']);
    expect(ids(q.match('title', 'quick fox lazy', { minimumShouldMatch: '2' }))).toEqual(['1', '4']);
    expect(ids(q.match('title', 'quick fox lazy', { minimumShouldMatch: '-1' }))).toEqual(['1', '4']);
    expect(ids(q.match('title', 'quick fox lazy', { minimumShouldMatch: '67%' }))).toEqual(['1', '4']);
    expect(ids(q.match('title', '', { zeroTermsQuery: 'all' }))).toHaveLength(5);
    expect(ids(q.match('title', '!!'))).toEqual([]);
    expect(ids(q.match('n', 'abc', { lenient: true }))).toEqual([]);
    expect(() => c.search(q.match('n', 'abc'))).toThrow(/For input string/);
    expect(ids(q.match('n', '3'))).toEqual(['3']);
    expect(ids(q.match('tag', 'animal'))).toEqual(['1', '2']);
  });

  it('ranks by BM25', () => {
    expect(c.ids(q.match('title', 'quick'))).toEqual(['3', '1']);
  });

  it('match_phrase with and without slop', () => {
    expect(ids(q.phrase('title', 'brown fox'))).toEqual(['1']);
    expect(ids(q.phrase('title', 'fox brown'))).toEqual([]);
    expect(ids(q.phrase('title', 'fox brown', 2))).toEqual(['1']);
    expect(ids(q.phrase('title', 'quick fox', 1))).toEqual(['1']);
    expect(ids(q.phrase('title', 'quick quick'))).toEqual(['3']);
    expect(ids(q.phrase('title', 'lazy dog'))).toEqual(['4']);
    expect(ids(q.phrase('title', 'lazy dog', 1))).toEqual(['2', '4']);
    expect(ids(q.phrase('title', 'fox'))).toEqual(['1', '4']);
  });

  it('multi_match types', () => {
    // A keyword field matches the whole query text as one term.
    expect(ids(q.multi(['title', 'tag'], 'animal quick'))).toEqual(['1', '3']);
    expect(ids(q.multi(['title', 'tag'], 'animal'))).toEqual(['1', '2']);
    expect(ids(q.multi(['title', 'tag'], 'brown fox', { matchType: 'phrase' }))).toEqual(['1']);
    expect(ids(q.multi(['title'], 'brown f', { matchType: 'phrase_prefix' }))).toEqual(['1']);
    expect(ids(q.multi(['title'], 'lazy d', { matchType: 'bool_prefix', operator: 'and' }))).toEqual([
      '2',
      '4',
    ]);
    // cross_fields groups fields by analyzer; the keyword field is a group of its own.
    expect(
      ids(q.multi(['title', 'tag'], 'fox animal', { matchType: 'cross_fields', operator: 'and' })),
    ).toEqual([]);
    expect(ids(q.multi(['ti*'], 'dog'))).toEqual(['2', '4']);
    const best = c.search(q.multi(['title', 'title.raw'], 'quick', { tieBreaker: 0 })).hits[0]!.score;
    const most = c.search(q.multi(['title', 'title.raw'], 'quick', { matchType: 'most_fields' })).hits[0]!
      .score;
    expect(most).toBe(best);
    const boosted = c.search(q.multi(['title^2'], 'quick')).hits[0]!.score;
    expect(boosted).toBeCloseTo(best * 2, 5);
  });

  it('multi_match cross_fields is term-centric over fields sharing an analyzer', () => {
    const people = corpus({ first: { type: 'text' }, last: { type: 'text' } }, [
      ['a', { first: 'Will', last: 'Smith' }],
      ['b', { first: 'Smith', last: 'Jones' }],
      ['c', { first: 'Will', last: 'Jones' }],
    ]);
    const cross = (extra = {}) =>
      people.ids(
        q.multi(['first', 'last'], 'will smith', { matchType: 'cross_fields', operator: 'and', ...extra }),
      );
    expect(cross()).toEqual(['a']);
    expect(people.ids(q.multi(['first', 'last'], 'will smith', { operator: 'and' }))).toEqual([]);
    const scores = people
      .search(q.multi(['first', 'last'], 'smith', { matchType: 'cross_fields' }))
      .hits.map((h) => h.score);
    // Blended document frequency: "smith" scores the same in either field.
    expect(scores[0]).toBe(scores[1]);
  });

  it('simple_query_string', () => {
    expect(ids(q.sqs('quick fox', { fields: [{ field: 'title', boost: 1 }] }))).toEqual(['1', '3', '4']);
    expect(ids(q.sqs('quick +fox', { fields: [{ field: 'title', boost: 1 }] }))).toEqual(['1']);
    expect(ids(q.sqs('fox | speed'))).toEqual(['1', '3', '4']);
    expect(ids(q.sqs('"lazy dog"', { fields: [{ field: 'title', boost: 1 }] }))).toEqual(['4']);
    expect(ids(q.sqs('"dog lazy"~2', { fields: [{ field: 'title', boost: 1 }] }))).toEqual(['4']);
    expect(ids(q.sqs('"dog lazy"~4', { fields: [{ field: 'title', boost: 1 }] }))).toEqual(['2', '4']);
    expect(ids(q.sqs('qui*', { fields: [{ field: 'title', boost: 1 }] }))).toEqual(['1', '3']);
    expect(ids(q.sqs('quikc~1', { fields: [{ field: 'title', boost: 1 }] }))).toEqual(['1', '3']);
    expect(
      ids(q.sqs('fox -lazy', { fields: [{ field: 'title', boost: 1 }], defaultOperator: 'and' })),
    ).toEqual(['1']);
    // With OR, `-lazy` is its own optional clause: everything without "lazy" matches too.
    expect(ids(q.sqs('fox -lazy', { fields: [{ field: 'title', boost: 1 }] }))).toEqual(['1', '3', '4', '5']);
    expect(ids(q.sqs('(quick | lazy) +dog', { fields: [{ field: 'title', boost: 1 }] }))).toEqual(['2', '4']);
    expect(
      ids(q.sqs('brown fox dog', { fields: [{ field: 'title', boost: 1 }], minimumShouldMatch: '2' })),
    ).toEqual(['1', '2', '4']);
    // With `and` every clause is required: a minimum_should_match above 0 matches nothing.
    const and = { fields: [{ field: 'title', boost: 1 }], defaultOperator: 'and' };
    expect(ids(q.sqs('brown fox', { ...and, minimumShouldMatch: '1' }))).toEqual([]);
    expect(ids(q.sqs('brown fox', { ...and, minimumShouldMatch: '100%' }))).toEqual(['1']);
    expect(ids(q.sqs('animal'))).toEqual(['1', '2']);
    expect(ids(q.sqs('abc', { fields: [{ field: 'n', boost: 1 }], lenient: true }))).toEqual([]);
  });
});

describe('compound queries', () => {
  it('bool clauses and their scoring', () => {
    const must = c.search(q.bool({ must: [q.match('title', 'quick')], filter: [q.range('n', { lte: 1 })] }));
    expect(must.hits.map((h) => h.doc)).toHaveLength(1);
    expect(must.hits[0]!.score).toBe(
      c.search(q.match('title', 'quick')).hits.find((h) => h.doc === must.hits[0]!.doc)!.score,
    );
    expect(ids(q.bool({ filter: [q.term('tag', 'animal')] }))).toEqual(['1', '2']);
    expect(c.search(q.bool({ filter: [q.term('tag', 'animal')] })).hits[0]!.score).toBe(0);
    expect(ids(q.bool({ mustNot: [q.exists('tag')] }))).toEqual(['4']);
    expect(c.search(q.bool({ mustNot: [q.exists('tag')] })).hits[0]!.score).toBe(0);
    expect(ids(q.bool({ should: [q.term('tag', 'speed'), q.term('tag', 'zzz')] }))).toEqual(['3', '5']);
    expect(ids(q.bool({ must: [q.exists('n')], should: [q.term('tag', 'speed')] }))).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(c.ids(q.bool({ must: [q.exists('n')], should: [q.term('tag', 'speed')] }))[0]).toBe('3');
    expect(
      ids(q.bool({ should: [q.term('tag', 'speed'), q.term('n', 3), q.term('n', 1)], msm: '2' })),
    ).toEqual(['3']);
    expect(ids(q.bool({}))).toHaveLength(5);
    // In filter context too, should clauses next to a must are optional (Elasticsearch 7+).
    expect(
      ids(q.bool({ filter: [q.bool({ must: [q.exists('n')], should: [q.term('tag', 'speed')] })] })),
    ).toEqual(['1', '2', '3', '4']);
    // A bool of only should clauses needs one of them, in either context.
    expect(ids(q.bool({ filter: [q.bool({ should: [q.term('tag', 'speed'), q.term('n', 1)] })] }))).toEqual([
      '1',
      '3',
    ]);
    expect(ids(q.bool({ must: [q.all()], mustNot: [q.ids('1', '2')] }))).toEqual(['3', '4', '5']);
  });

  it('constant_score and boosts', () => {
    const r = c.search(q.constant(q.match('title', 'quick'), 3));
    expect(r.hits.map((h) => h.score)).toEqual([3, 3]);
    const boosted = c.search(q.bool({ should: [q.match('title', 'quick')], boost: 2 })).hits[0]!.score;
    expect(boosted).toBeCloseTo(c.search(q.match('title', 'quick')).hits[0]!.score * 2, 5);
  });
});
