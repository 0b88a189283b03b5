import { describe, expect, it } from 'vitest';
import { buildChain, type ChainSpec } from './custom-chain.ts';

const run = (spec: Partial<ChainSpec>, ...texts: string[]) =>
  buildChain({ filters: [], charFilters: [], ...spec }).run(texts);
const terms = (spec: Partial<ChainSpec>, text: string) => {
  const r = run(spec, text);
  const last = r.tokenFilters.at(-1)?.tokens ?? r.tokenizer.tokens;
  return last.map((t) => t.term);
};

describe('custom analysis chains', () => {
  it('tokenizers: standard keeps case and types, whitespace, letter, keyword, pattern', () => {
    const std = run({ tokenizer: 'standard' }, 'Foo 42 bar').tokenizer.tokens;
    expect(std.map((t) => [t.term, t.type, t.position, t.startOffset, t.endOffset])).toEqual([
      ['Foo', '<ALPHANUM>', 0, 0, 3],
      ['42', '<NUM>', 1, 4, 6],
      ['bar', '<ALPHANUM>', 2, 7, 10],
    ]);
    expect(terms({ tokenizer: 'whitespace' }, 'a-b c')).toEqual(['a-b', 'c']);
    expect(terms({ tokenizer: 'letter' }, 'a-b c1d')).toEqual(['a', 'b', 'c', 'd']);
    expect(terms({ tokenizer: 'keyword' }, 'New York')).toEqual(['New York']);
    expect(terms({ tokenizer: { type: 'pattern', pattern: ',' } }, 'a,b,,c')).toEqual(['a', 'b', 'c']);
    expect(terms({ tokenizer: { type: 'pattern', pattern: '"(.*?)"', group: 1 } }, '"x" and "yz"')).toEqual([
      'x',
      'yz',
    ]);
  });

  it('ngram and edge_ngram tokenizers', () => {
    expect(terms({ tokenizer: 'ngram' }, 'abc')).toEqual(['a', 'ab', 'b', 'bc', 'c']);
    expect(
      terms(
        { tokenizer: { type: 'edge_ngram', min_gram: 1, max_gram: 3, token_chars: ['letter'] } },
        'ab cde',
      ),
    ).toEqual(['a', 'ab', 'c', 'cd', 'cde']);
    expect(() => run({ tokenizer: { type: 'ngram', min_gram: 1, max_gram: 4 } }, 'x')).toThrow(
      /must be less than or equal to: \[1\] but was \[3\]/,
    );
  });

  it('filters: lowercase, uppercase, asciifolding, trim, length, unique, stop, reverse, truncate', () => {
    expect(terms({ tokenizer: 'whitespace', filters: ['lowercase'] }, 'ABc Déf')).toEqual(['abc', 'déf']);
    expect(terms({ tokenizer: 'whitespace', filters: ['uppercase'] }, 'abc')).toEqual(['ABC']);
    expect(terms({ tokenizer: 'whitespace', filters: ['asciifolding'] }, 'café Ærø straße')).toEqual([
      'cafe',
      'AEro',
      'strasse',
    ]);
    expect(terms({ tokenizer: 'keyword', filters: ['trim'] }, '  x  ')).toEqual(['x']);
    expect(
      terms({ tokenizer: 'whitespace', filters: [{ type: 'length', min: 2, max: 3 }] }, 'a bb ccc dddd'),
    ).toEqual(['bb', 'ccc']);
    expect(terms({ tokenizer: 'whitespace', filters: ['unique'] }, 'a b a c b')).toEqual(['a', 'b', 'c']);
    const stop = run(
      { tokenizer: 'standard', filters: [{ type: 'stop', stopwords: ['foo', 'buzz'] }] },
      'foo bar buzz',
    );
    expect(stop.tokenFilters[0]).toMatchObject({ name: '__anonymous__stop' });
    expect(stop.tokenFilters[0]!.tokens.map((t) => [t.term, t.position])).toEqual([['bar', 1]]);
    expect(terms({ tokenizer: 'standard', filters: ['lowercase', 'stop'] }, 'The fox')).toEqual(['fox']);
    expect(terms({ tokenizer: 'whitespace', filters: ['reverse'] }, 'abc')).toEqual(['cba']);
    expect(terms({ tokenizer: 'whitespace', filters: [{ type: 'truncate', length: 3 }] }, 'abcdef')).toEqual([
      'abc',
    ]);
  });

  it('shingles and stemmers', () => {
    const sh = run({ tokenizer: 'whitespace', filters: ['shingle'] }, 'a b c').tokenFilters[0]!.tokens;
    expect(sh.map((t) => [t.term, t.type, t.position, t.positionLength])).toEqual([
      ['a', 'word', 0, 1],
      ['a b', 'shingle', 0, 2],
      ['b', 'word', 1, 1],
      ['b c', 'shingle', 1, 2],
      ['c', 'word', 2, 1],
    ]);
    expect(terms({ tokenizer: 'standard', filters: ['snowball'] }, 'This is troubled')).toEqual([
      'This',
      'is',
      'troubl',
    ]);
    expect(terms({ tokenizer: 'whitespace', filters: ['porter_stem'] }, 'running ponies')).toEqual([
      'run',
      'poni',
    ]);
    const marked = run({ tokenizer: 'whitespace', filters: ['stemmer'] }, 'jumping').tokenFilters[0]!
      .tokens[0]!;
    expect(marked).toMatchObject({ term: 'jump', keyword: false });
  });

  it('synonyms: explicit, equivalent with position lengths, analysed with the chain', () => {
    const syn = { type: 'synonym', synonyms: ['kimchy => shay'] };
    expect(
      terms({ tokenizer: { type: 'ngram', min_gram: 3, max_gram: 3 }, filters: [syn] }, 'kimchy'),
    ).toEqual(['sha', 'hay']);
    const r = run(
      {
        tokenizer: 'standard',
        filters: ['lowercase', { type: 'synonym', synonyms: ['wtf,what the fudge'] }],
      },
      'say what the fudge dude',
    ).tokenFilters[1]!.tokens;
    expect(r.map((t) => [t.term, t.position, t.positionLength])).toEqual([
      ['say', 0, 1],
      ['what', 1, 1],
      ['wtf', 1, 3],
      ['the', 2, 1],
      ['fudge', 3, 1],
      ['dude', 4, 1],
    ]);
    const html = run(
      {
        tokenizer: 'whitespace',
        charFilters: ['html_strip'],
        filters: [
          {
            type: 'synonym',
            synonyms: [
              '<p>kimchy</p> => shay',
              'dude => <html>elasticsearch</html>',
              '<font>abides</font> => man!',
            ],
          },
        ],
      },
      'kimchy is the dude <html>abides</html>',
    ).tokenFilters[0]!.tokens;
    expect(html.map((t) => t.term)).toEqual(['shay', 'is', 'the', 'elasticsearch', 'man!']);
  });

  it('char filters rewrite the text and keep offsets into the original', () => {
    const r = run({ tokenizer: 'standard', charFilters: ['html_strip'] }, '<p>I&apos;m so <b>happy</b>!</p>');
    expect(r.charFilters[0]!.filteredText).toEqual(["\nI'm so happy!\n"]);
    expect(r.tokenizer.tokens.map((t) => [t.term, t.startOffset, t.endOffset])).toEqual([
      ["I'm", 3, 11],
      ['so', 12, 14],
      ['happy', 18, 27],
    ]);
    const m = run(
      { tokenizer: 'keyword', charFilters: [{ type: 'mapping', mappings: ['ph => f', 'qu => q'] }] },
      'phish quick',
    );
    expect(m.tokenizer.tokens[0]).toMatchObject({ term: 'fish qick', startOffset: 0, endOffset: 11 });
    const p = run(
      {
        tokenizer: 'keyword',
        charFilters: [{ type: 'pattern_replace', pattern: '(\\d+)-(\\d+)', replacement: '$1_$2' }],
      },
      'a 12-34',
    );
    expect(p.tokenizer.tokens[0]!.term).toBe('a 12_34');
  });

  it('without a tokenizer it is a normalizer, and refuses filters that are not normalizing', () => {
    const r = run({ filters: ['lowercase'] }, 'ABc');
    expect(r.tokenizer).toMatchObject({ name: 'keyword', tokens: [{ term: 'ABc' }] });
    expect(r.tokenFilters[0]!.tokens[0]!.term).toBe('abc');
    expect(() => run({ filters: ['word_delimiter'] }, 'x')).toThrow(
      'Custom normalizer may not use filter [word_delimiter]',
    );
  });

  it('unknown components are refused, Elasticsearch ones Shoal lacks answer 501', () => {
    expect(() => run({ tokenizer: 'nope' }, 'x')).toThrow('failed to find global tokenizer under [nope]');
    expect(() => run({ tokenizer: 'standard', filters: ['nope'] }, 'x')).toThrow(
      'failed to find global token filter under [nope]',
    );
    expect(() => run({ tokenizer: 'standard', filters: ['kstem'] }, 'x')).toThrow(/\[kstem\] token filter/);
  });

  it('positions and offsets continue over several texts', () => {
    const r = run({ tokenizer: 'whitespace' }, 'a b', 'c');
    expect(r.tokenizer.tokens.map((t) => [t.term, t.position, t.startOffset])).toEqual([
      ['a', 0, 0],
      ['b', 1, 2],
      ['c', 2, 4],
    ]);
  });
});
