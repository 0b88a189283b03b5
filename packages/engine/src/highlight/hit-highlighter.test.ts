import type { HighlightSpec, QueryNode } from '@shoal/protocol';
import { describe, expect, it } from 'vitest';
import { createIndexMapping } from '../mapping/index.ts';
import { docHighlighter } from './hit-highlighter.ts';

const mapping = createIndexMapping(
  {
    properties: {
      body: { type: 'text' },
      title: { type: 'text', fields: { raw: { type: 'keyword' } } },
      tag: { type: 'keyword' },
    },
  },
  { indexName: 'idx' },
);

const enc = new TextEncoder();
const match = (field: string, query: string): QueryNode => ({
  type: 'match',
  field,
  query,
  operator: 'or',
  zeroTermsQuery: 'none',
  lenient: false,
  boost: 1,
});
const phrase = (field: string, query: string): QueryNode => ({
  type: 'match_phrase',
  field,
  query,
  slop: 0,
  zeroTermsQuery: 'none',
  boost: 1,
});

function hl(
  source: unknown,
  query: QueryNode,
  spec: Partial<HighlightSpec> & { fields?: HighlightSpec['fields'] },
) {
  const full: HighlightSpec = {
    global: spec.global ?? {},
    fields: spec.fields ?? [{ name: 'body', options: {} }],
  };
  const out = docHighlighter(mapping, { spec: full, query }, 'idx')(enc.encode(JSON.stringify(source)), 0);
  return out === null ? null : JSON.parse(out);
}

describe('unified highlighting', () => {
  it('marks each matching term of a match query', () => {
    expect(hl({ body: 'The quick brown fox jumps over the lazy dog' }, match('body', 'fox dog'), {})).toEqual(
      {
        body: ['The quick brown <em>fox</em> jumps over the lazy <em>dog</em>'],
      },
    );
  });

  it('marks a whole phrase once, and only where the phrase matches', () => {
    expect(hl({ body: 'quick fox. The quick brown fox' }, phrase('body', 'quick brown'), {})).toEqual({
      body: ['The <em>quick brown</em> fox'],
    });
  });

  it('marks phrase terms one by one when require_field_match is false', () => {
    expect(
      hl({ body: 'The quick brown fox' }, phrase('title', 'quick brown'), {
        global: { requireFieldMatch: false },
      }),
    ).toEqual({ body: ['The <em>quick</em> <em>brown</em> fox'] });
  });

  it('takes only the field of the query with require_field_match', () => {
    expect(hl({ body: 'The quick brown fox' }, match('title', 'fox'), {})).toBeNull();
  });

  it('packs whole sentences up to fragment_size', () => {
    const body = 'First sentence is here. Second has the fox. Third is plain. Fourth has a fox too.';
    expect(hl({ body }, match('body', 'fox'), {})).toEqual({
      body: ['Second has the <em>fox</em>. Third is plain. Fourth has a <em>fox</em> too.'],
    });
  });

  it('cuts sentences and keeps them in document order', () => {
    const body = 'First sentence is here. Second has the fox. Third is plain. Fourth has a fox too.';
    expect(hl({ body }, match('body', 'fox'), { global: { fragmentSize: 30 } })).toEqual({
      body: ['Second has the <em>fox</em>.', 'Fourth has a <em>fox</em> too.'],
    });
  });

  it('keeps at most number_of_fragments passages, the best scored', () => {
    const body = 'A fox. The fox and the fox again. Another fox here.';
    expect(
      hl({ body }, match('body', 'fox'), { global: { numberOfFragments: 1, fragmentSize: 30 } }),
    ).toEqual({
      body: ['The <em>fox</em> and the <em>fox</em> again.'],
    });
  });

  it('orders by score with order: score', () => {
    const body = 'A fox. The fox and the fox again.';
    expect(hl({ body }, match('body', 'fox'), { global: { scoreOrdered: true, fragmentSize: 30 } })).toEqual({
      body: ['The <em>fox</em> and the <em>fox</em> again.', 'A <em>fox</em>.'],
    });
  });

  it('returns whole values with number_of_fragments 0', () => {
    const body = 'First sentence is here. Second has the fox. Third is plain.';
    expect(
      hl({ body: [body, 'no match', 'fox'] }, match('body', 'fox'), { global: { numberOfFragments: 0 } }),
    ).toEqual({
      body: ['First sentence is here. Second has the <em>fox</em>. Third is plain.', '<em>fox</em>'],
    });
  });

  it('bounds a long sentence by fragment_size on word boundaries', () => {
    const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
    words[20] = 'fox';
    const out = hl({ body: words.join(' ') }, match('body', 'fox'), { global: { fragmentSize: 20 } });
    expect(out.body).toHaveLength(1);
    expect(out.body[0]).toContain('<em>fox</em>');
    expect(out.body[0].length).toBeLessThan(60);
  });

  it('encodes html and uses the given tags', () => {
    expect(
      hl({ body: 'a <b> fox & co' }, match('body', 'fox'), {
        global: { encoder: 'html', preTags: ['<mark>'], postTags: ['</mark>'] },
      }),
    ).toEqual({ body: ['a &lt;b&gt; <mark>fox</mark> &amp; co'] });
  });

  it('gives the start of the field with no_match_size when nothing matches', () => {
    expect(
      hl({ body: 'The quick brown fox jumps' }, match('body', 'cat'), { global: { noMatchSize: 8 } }),
    ).toEqual({
      body: ['The quick'],
    });
  });

  it('highlights prefix, wildcard and fuzzy terms', () => {
    const q: QueryNode = { type: 'prefix', field: 'body', value: 'jum', boost: 1, caseInsensitive: false };
    expect(hl({ body: 'The fox jumps and jumped' }, q, {})).toEqual({
      body: ['The fox <em>jumps</em> and <em>jumped</em>'],
    });
  });

  it('highlights a keyword field as a whole value, and a term range on it', () => {
    const q: QueryNode = { type: 'range', field: 'tag', gte: 'b', lt: 'c', boost: 1 };
    expect(hl({ tag: ['apple', 'banana', 'cherry'] }, q, { fields: [{ name: 'tag', options: {} }] })).toEqual(
      {
        tag: ['<em>banana</em>'],
      },
    );
  });

  it('resolves field patterns to text and keyword fields', () => {
    expect(
      hl({ body: 'a fox', title: 'fox' }, match('title', 'fox'), { fields: [{ name: '*', options: {} }] }),
    ).toEqual({ title: ['<em>fox</em>'] });
  });

  it('uses highlight_query instead of the query', () => {
    expect(
      hl({ body: 'fox and dog' }, match('body', 'fox'), { global: { highlightQuery: match('body', 'dog') } }),
    ).toEqual({ body: ['fox and <em>dog</em>'] });
  });

  it('refuses a field longer than index.highlight.max_analyzed_offset, or truncates with max_analyzed_offset', () => {
    const body = `fox ${'x '.repeat(20)}fox`;
    const spec: HighlightSpec = { global: {}, fields: [{ name: 'body', options: {} }] };
    const f = docHighlighter(
      mapping,
      { spec, query: match('body', 'fox'), maxAnalyzedOffset: { idx: 10 } },
      'idx',
    );
    expect(() => f(enc.encode(JSON.stringify({ body })), 3)).toThrow(
      `The length [${body.length}] of field [body] in doc[3]/index[idx] exceeds the [index.highlight.max_analyzed_offset] limit [10]. To avoid this error, set the query parameter [max_analyzed_offset] to a value less than index setting [10] and this will tolerate long field values by truncating them.`,
    );
    const limited: HighlightSpec = {
      global: { maxAnalyzedOffset: 5 },
      fields: [{ name: 'body', options: {} }],
    };
    const g = docHighlighter(
      mapping,
      { spec: limited, query: match('body', 'fox'), maxAnalyzedOffset: { idx: 10 } },
      'idx',
    );
    expect(JSON.parse(g(enc.encode(JSON.stringify({ body })), 3)!).body[0]).toMatch(/^<em>fox<\/em> x/);
  });
});
