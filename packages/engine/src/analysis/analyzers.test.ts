import { describe, expect, it } from 'vitest';
import { getAnalyzer, hasAnalyzer } from './registry.ts';

const SENTENCE = "The 2 QUICK Brown-Foxes jumped over the lazy dog's bone.";
const terms = (name: string, text: string) =>
  getAnalyzer(name)!
    .analyze(text)
    .map((t) => t.term);

describe('standard analyzer', () => {
  it('matches the Elasticsearch reference example', () => {
    expect(terms('standard', SENTENCE)).toEqual([
      'the',
      '2',
      'quick',
      'brown',
      'foxes',
      'jumped',
      'over',
      'the',
      'lazy',
      "dog's",
      'bone',
    ]);
  });

  it('keeps UAX#29 word joiners', () => {
    expect(terms('standard', 'http://example.com/a_b')).toEqual(['http', 'example.com', 'a_b']);
    expect(terms('standard', 'pi is 3.14 and 1,000,000 or v1.2')).toEqual([
      'pi',
      'is',
      '3.14',
      'and',
      '1,000,000',
      'or',
      'v1.2',
    ]);
    expect(terms('standard', 'wi-fi e-mail')).toEqual(['wi', 'fi', 'e', 'mail']);
    expect(terms('standard', "end. 'quoted' rock'n'roll")).toEqual(['end', 'quoted', "rock'n'roll"]);
    expect(terms('standard', '___ _id')).toEqual(['_id']);
  });

  it('splits ideographs into single characters and keeps Unicode letters', () => {
    expect(terms('standard', '我爱北京 Café Über')).toEqual(['我', '爱', '北', '京', 'café', 'über']);
    expect(terms('standard', 'カタカナ')).toEqual(['カタカナ']);
    expect(terms('standard', 'naïve résumé')).toEqual(['naïve', 'résumé']);
  });

  it('lowercases code point by code point like Lucene', () => {
    expect(terms('standard', 'İSTANBUL')).toEqual(['istanbul']);
  });

  it('gives positions and offsets', () => {
    expect(getAnalyzer('standard')!.analyze('Hello, World')).toEqual([
      { term: 'hello', position: 0, startOffset: 0, endOffset: 5 },
      { term: 'world', position: 1, startOffset: 7, endOffset: 12 },
    ]);
  });

  it('splits tokens longer than 255 characters', () => {
    const long = 'a'.repeat(600);
    const tokens = getAnalyzer('standard')!.analyze(long);
    expect(tokens.map((t) => t.term.length)).toEqual([255, 255, 90]);
    expect(tokens.map((t) => t.position)).toEqual([0, 1, 2]);
    expect(tokens[1]!.startOffset).toBe(255);
  });

  it('emits emoji as tokens', () => {
    expect(terms('standard', 'I 😀 cats')).toEqual(['i', '😀', 'cats']);
  });

  it('returns nothing for punctuation only', () => {
    expect(terms('standard', ' ,.;!? ')).toEqual([]);
    expect(terms('standard', '')).toEqual([]);
  });
});

describe('simple, whitespace, keyword and stop analyzers', () => {
  it('simple keeps letters only', () => {
    expect(terms('simple', SENTENCE)).toEqual([
      'the',
      'quick',
      'brown',
      'foxes',
      'jumped',
      'over',
      'the',
      'lazy',
      'dog',
      's',
      'bone',
    ]);
  });

  it('whitespace splits on whitespace and keeps case', () => {
    expect(terms('whitespace', SENTENCE)).toEqual([
      'The',
      '2',
      'QUICK',
      'Brown-Foxes',
      'jumped',
      'over',
      'the',
      'lazy',
      "dog's",
      'bone.',
    ]);
    expect(terms('whitespace', 'a\u00a0b\tc')).toEqual(['a\u00a0b', 'c']);
  });

  it('keyword emits the whole input', () => {
    expect(getAnalyzer('keyword')!.analyze('New York')).toEqual([
      { term: 'New York', position: 0, startOffset: 0, endOffset: 8 },
    ]);
  });

  it('stop removes English stop words and leaves position gaps', () => {
    const tokens = getAnalyzer('stop')!.analyze(SENTENCE);
    expect(tokens.map((t) => t.term)).toEqual([
      'quick',
      'brown',
      'foxes',
      'jumped',
      'over',
      'lazy',
      'dog',
      's',
      'bone',
    ]);
    expect(tokens.map((t) => t.position)).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 10]);
  });

  it('knows which analyzers exist', () => {
    expect(hasAnalyzer('default')).toBe(true);
    expect(getAnalyzer('default')!.name).toBe('standard');
    expect(hasAnalyzer('english')).toBe(false);
  });
});
