import { parseQuery, type QueryNode, shortestFloatDecimal } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { type Explanation, explainQuery } from './explain.ts';
import { type Corpus, corpus, ctx, q } from './test-corpus.test-support.ts';

const docs: [string, Record<string, unknown>][] = [
  ['1', { title: 'quick brown fox', tag: 'a', n: 1 }],
  ['2', { title: 'quick quick dog', tag: 'b', n: 2 }],
  ['3', { title: 'lazy dog sleeps all day', tag: 'b', n: 3 }],
];
const props = { title: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' } } as const;

function explain(c: Corpus, query: QueryNode, id: string) {
  return explainQuery(c.reader, c.mapping, query, id, ctx);
}

/** The `_score` the query phase gives the doc. */
function scoreOf(c: Corpus, query: QueryNode, id: string): number | undefined {
  const r = c.search(query);
  const ids = c.ids(query);
  const i = ids.indexOf(id);
  return i < 0 ? undefined : r.hits[i]!.score;
}

function find(e: Explanation, description: string): Explanation | undefined {
  if (e.description.startsWith(description)) return e;
  for (const d of e.details) {
    const hit = find(d, description);
    if (hit) return hit;
  }
  return undefined;
}

describe('explainQuery', () => {
  // Two segments: statistics span the whole reader.
  const c = corpus(props, docs, 2);

  it('explains a text term with BM25 as Lucene words it, valued at the hit score', () => {
    const query = q.match('title', 'quick');
    const r = explain(c, query, '2');
    expect(r.found).toBe(true);
    expect(r.matched).toBe(true);
    const e = r.explanation!;
    expect(e.description).toMatch(/^weight\(title:quick in \d+\) \[PerFieldSimilarity\], result of:$/);
    expect(e.value).toBe(scoreOf(c, query, '2'));
    const score = e.details[0]!;
    expect(score.description).toBe('score(freq=2.0), computed as boost * idf * tf from:');
    expect(score.details.map((d) => d.description)).toEqual([
      'boost',
      'idf, computed as log(1 + (N - n + 0.5) / (n + 0.5)) from:',
      'tf, computed as freq / (freq + k1 * (1 - b + b * dl / avgdl)) from:',
    ]);
    const idf = score.details[1]!;
    expect(idf.details.map((d) => [d.description, d.value])).toEqual([
      ['n, number of documents containing term', 2],
      ['N, total number of documents with field', 3],
    ]);
    expect(idf.value).toBe(shortestFloatDecimal(Math.log(1 + 1.5 / 2.5)));
    const tf = score.details[2]!;
    expect(tf.details.map((d) => [d.description, d.value])).toEqual([
      ['freq, occurrences of term within document', 2],
      ['k1, term saturation parameter', 1.2],
      ['b, length normalization parameter', 0.75],
      ['dl, length of field', 3],
      ['avgdl, average length of field', shortestFloatDecimal(11 / 3)],
    ]);
    // boost · idf · tf is the score, to float precision.
    expect(idf.value * tf.value).toBeCloseTo(e.value, 6);
  });

  it('explains a keyword term and a boosted one', () => {
    const query = q.term('tag', 'a', { boost: 2 });
    const e = explain(c, query, '1').explanation!;
    expect(e.value).toBe(scoreOf(c, query, '1'));
    expect(find(e, 'boost')!.value).toBe(2);
    expect(find(e, 'dl, length of field')!.value).toBe(1);
  });

  it('sums the matching clauses of a bool and shows filters with 0', () => {
    const query = q.bool({
      should: [q.match('title', 'quick dog')],
      filter: [q.term('tag', 'b')],
      mustNot: [q.term('title', 'fox')],
    });
    for (const id of ['2', '3']) {
      const r = explain(c, query, id);
      expect(r.matched).toBe(true);
      expect(r.explanation!.description).toBe('sum of:');
      expect(r.explanation!.value).toBe(scoreOf(c, query, id));
      expect(find(r.explanation!, 'match on required clause, product of:')!.value).toBe(0);
    }
    const miss = explain(c, query, '1');
    expect(miss.matched).toBe(false);
    expect(miss.explanation!.value).toBe(0);
    expect(miss.explanation!.description).toBe(
      'Failure to meet condition(s) of required/prohibited clause(s)',
    );
    const reasons = miss.explanation!.details.map((d) => d.description);
    expect(reasons).toContain('match on prohibited clause (title:fox)');
    expect(reasons).toContain('no match on required clause (tag:b)');
  });

  it('explains a bool of one clause as the clause Lucene rewrites it to', () => {
    const one = q.bool({ must: [q.match('title', 'dog')] });
    const e = explain(c, one, '2').explanation!;
    expect(e.description).toMatch(/^weight\(title:dog in \d+\)/);
    expect(e.value).toBe(scoreOf(c, one, '2'));
    const filter = q.bool({ filter: [q.term('tag', 'b')] });
    expect(explain(c, filter, '2').explanation).toEqual({
      value: 0,
      description: 'ConstantScore(tag:b)^0.0',
      details: [],
    });
    const msm = q.bool({ should: [q.term('tag', 'a'), q.term('tag', 'b')], msm: '2' });
    expect(explain(c, msm, '1').explanation!.description).toBe(
      'Failure to match minimum number of optional clauses: 2',
    );
  });

  it('explains match_all and constant_score', () => {
    expect(explain(c, q.all(), '3').explanation).toEqual({ value: 1, description: '*:*', details: [] });
    const cs = q.constant(q.term('tag', 'b'), 1.5);
    const e = explain(c, cs, '2').explanation!;
    expect(e).toEqual({ value: 1.5, description: 'ConstantScore(tag:b)^1.5', details: [] });
    expect(e.value).toBe(scoreOf(c, cs, '2'));
  });

  it('answers matched false with no matching term, and not found for an unknown id', () => {
    const r = explain(c, q.term('title', 'fox'), '3');
    expect(r).toMatchObject({ found: true, matched: false });
    expect(r.explanation).toEqual({ value: 0, description: 'no matching term', details: [] });
    expect(explain(c, q.all(), 'nope')).toEqual({ found: false, matched: false });
  });

  it('explains every query type valued at the _score of each hit', () => {
    const queries: unknown[] = [
      { range: { n: { gte: 2 } } },
      { terms: { tag: ['a', 'b'] } },
      { exists: { field: 'title' } },
      { prefix: { title: 'qu' } },
      { wildcard: { title: 'qu*k' } },
      { regexp: { title: 'qu.*' } },
      { ids: { values: ['1', '3'] } },
      { match_phrase: { title: 'quick dog' } },
      { match_phrase: { title: { query: 'quick dog', slop: 2 } } },
      { multi_match: { query: 'quick a', fields: ['title', 'tag'] } },
      { multi_match: { query: 'quick dog', fields: ['title', 'tag'], type: 'most_fields' } },
      { multi_match: { query: 'quick dog', fields: ['title', 'tag'], type: 'cross_fields' } },
      { dis_max: { queries: [{ match: { title: 'dog' } }, { term: { tag: 'b' } }], tie_breaker: 0.3 } },
      {
        function_score: {
          query: { match: { title: 'dog' } },
          field_value_factor: { field: 'n', modifier: 'log1p', factor: 2 },
        },
      },
      {
        function_score: {
          query: { match: { title: 'quick' } },
          functions: [
            { filter: { term: { tag: 'a' } }, weight: 3 },
            { gauss: { n: { origin: 1, scale: 2 } } },
            { random_score: { seed: 7, field: '_seq_no' }, weight: 2 },
          ],
          score_mode: 'sum',
          boost_mode: 'avg',
        },
      },
      {
        function_score: {
          query: { match_all: {} },
          exp: { n: { origin: 0, scale: 1 } },
          boost_mode: 'replace',
        },
      },
      {
        boosting: {
          positive: { match: { title: 'quick' } },
          negative: { term: { tag: 'a' } },
          negative_boost: 0.5,
        },
      },
      { query_string: { query: 'title:quick OR tag:b' } },
      { simple_query_string: { query: 'quick +dog', fields: ['title'] } },
      { simple_query_string: { query: 'qu* | "quick dog"~1 | dgo~1', fields: ['title'] } },
      { match_bool_prefix: { title: 'quick br' } },
      { match_phrase_prefix: { title: 'quick br' } },
      { fuzzy: { title: 'quikc' } },
    ];
    for (const json of queries) {
      const query = parseQuery(json);
      const hits = c.search(query).hits;
      expect(hits.length, JSON.stringify(json)).toBeGreaterThan(0);
      for (const id of c.ids(query)) {
        const r = explain(c, query, id);
        expect(r.matched, JSON.stringify(json)).toBe(true);
        expect(r.explanation!.value, `${JSON.stringify(json)} ${id}`).toBe(scoreOf(c, query, id));
      }
    }
  });

  it('names constant-score sets as Lucene prints them', () => {
    const text = (json: unknown, id: string) => explain(c, parseQuery(json), id).explanation!.description;
    expect(text({ range: { n: { gte: 2 } } }, '2')).toBe('n:[2 TO 9223372036854775807]');
    expect(text({ range: { n: { gt: 1, lt: 3, boost: 2 } } }, '2')).toBe('n:[2 TO 2]^2.0');
    expect(text({ terms: { tag: ['b', 'a'] } }, '1')).toBe('tag:(a b)');
    expect(text({ exists: { field: 'tag' } }, '1')).toBe('FieldExistsQuery [field=tag]');
    expect(text({ prefix: { title: 'qu' } }, '1')).toBe('title:qu*');
    expect(text({ ids: { values: ['1'] } }, '1')).toBe('_id:([fe 1f])');
    const miss = explain(c, parseQuery({ range: { n: { gte: 2 } } }), '1');
    expect(miss.matched).toBe(false);
    expect(miss.explanation!.description).toMatch(/^n:\[2 TO 9223372036854775807\] doesn't match id \d+$/);
  });

  it('shows the blended document frequency of a cross_fields term', () => {
    const two = corpus({ title: { type: 'text' }, body: { type: 'text' } }, [
      ['1', { title: 'fox', body: 'fox fox' }],
      ['2', { title: 'dog', body: 'fox' }],
      ['3', { title: 'cat', body: 'fox' }],
    ]);
    const query = parseQuery({
      multi_match: { query: 'fox', fields: ['title', 'body'], type: 'cross_fields' },
    });
    const e = explain(two, query, '1').explanation!;
    expect(e.value).toBe(scoreOf(two, query, '1'));
    const title = find(e, 'weight(title:fox')!;
    const n = find(title, 'n, number of documents containing term')!;
    // The title's own document frequency is 1; blending gives it the body's 3.
    expect(n.value).toBe(3);
    const idf = find(e, 'idf, computed as')!;
    const N = find(e, 'N, total number of documents with field')!.value;
    expect(idf.value).toBe(shortestFloatDecimal(Math.log(1 + (N - n.value + 0.5) / (n.value + 0.5))));
  });

  it('names a geo_distance query as Lucene prints it', () => {
    const geo = corpus({ loc: { type: 'geo_point' } }, [['1', { loc: { lat: 1, lon: 2 } }]]);
    const query = parseQuery({ geo_distance: { distance: '10km', loc: { lat: 1, lon: 2 } } });
    const e = explain(geo, query, '1').explanation!;
    expect(e).toEqual({ value: 1, description: 'loc:1.0,2.0 +/- 10000.0 meters', details: [] });
  });

  it('explains a phrase with its phrase frequency and summed idf', () => {
    const e = explain(c, parseQuery({ match_phrase: { title: 'quick dog' } }), '2').explanation!;
    expect(e.description).toMatch(/^weight\(title:"quick dog" in \d+\) \[PerFieldSimilarity\], result of:$/);
    expect(find(e, 'idf, sum of:')!.details).toHaveLength(2);
    expect(find(e, 'phraseFreq=1.0')!.value).toBe(1);
  });

  it('words function_score as Elasticsearch does', () => {
    const e = explain(
      c,
      parseQuery({
        function_score: {
          query: { match: { title: 'dog' } },
          field_value_factor: { field: 'n', modifier: 'log1p', factor: 2 },
        },
      }),
      '3',
    ).explanation!;
    expect(e.description).toBe('function score, product of:');
    const [query, min] = e.details;
    expect(query!.description).toMatch(/^weight\(title:dog/);
    expect(min!.description).toBe('min of:');
    expect(min!.details.map((d) => d.description)).toEqual([
      "field value function: log1p(doc['n'].value * factor=2.0)",
      'maxBoost',
    ]);
    expect(min!.details[0]!.value).toBe(shortestFloatDecimal(Math.log10(7)));
    const boosted = explain(
      c,
      parseQuery({
        boosting: {
          positive: { match: { title: 'quick' } },
          negative: { term: { tag: 'a' } },
          negative_boost: 0.5,
        },
      }),
      '1',
    ).explanation!;
    expect(boosted.description).toBe('product of:');
    expect(boosted.details[1]).toEqual({
      value: 0.5,
      description: 'Matched boosting query tag:a',
      details: [],
    });
  });

  it('names a script query by its script, and refuses queries it does not explain with 501', () => {
    const e = explain(c, parseQuery({ script: { script: "doc['n'].value > 1" } }), '2').explanation!;
    expect(e.description).toBe(
      "ScriptQuery(Script{type=inline, lang='painless', idOrCode='doc['n'].value > 1', options={}, params={}})",
    );
    const set = parseQuery({ terms_set: { tag: { terms: ['a'], minimum_should_match_field: 'n' } } });
    expect(() => explain(c, set, '1')).toThrow(/explaining a \[terms_set\] query/);
  });
});
