import { describe, expect, it } from 'vitest';
import { Kind, Lexer, LexicalError, type Tok } from './query-string-lexer.ts';

function lex(s: string): [number, string][] {
  const l = new Lexer(s);
  const out: [number, string][] = [];
  for (let i = 0; ; i++) {
    const t: Tok = l.at(i);
    out.push([t.kind, t.image]);
    if (t.kind === Kind.EOF) return out;
  }
}

describe('query-string lexer', () => {
  it('splits terms, operators and modifiers', () => {
    expect(lex('a AND b || !c -d +e')).toEqual([
      [Kind.TERM, 'a'],
      [Kind.AND, 'AND'],
      [Kind.TERM, 'b'],
      [Kind.OR, '||'],
      [Kind.NOT, '!'],
      [Kind.TERM, 'c'],
      [Kind.MINUS, '-'],
      [Kind.TERM, 'd'],
      [Kind.PLUS, '+'],
      [Kind.TERM, 'e'],
      [Kind.EOF, ''],
    ]);
  });

  it('tells terms, prefixes, wildcards and stars apart by longest match', () => {
    expect(lex('ANDY foo* f*o ?x * a-b')).toEqual([
      [Kind.TERM, 'ANDY'],
      [Kind.PREFIXTERM, 'foo*'],
      [Kind.WILDTERM, 'f*o'],
      [Kind.WILDTERM, '?x'],
      [Kind.STAR, '*'],
      [Kind.TERM, 'a-b'],
      [Kind.EOF, ''],
    ]);
  });

  it('reads fields, phrases, slops, boosts and escapes', () => {
    expect(lex('f\\:x:"a b"~2^3 - z~')).toEqual([
      [Kind.TERM, 'f\\:x'],
      [Kind.COLON, ':'],
      [Kind.QUOTED, '"a b"'],
      [Kind.FUZZY_SLOP, '~2'],
      [Kind.CARAT, '^'],
      [Kind.NUMBER, '3'],
      [Kind.BAREOPER, '- '],
      [Kind.TERM, 'z'],
      [Kind.FUZZY_SLOP, '~'],
      [Kind.EOF, ''],
    ]);
  });

  it('has a range state', () => {
    expect(lex('[1 TO "x y"} {* TO 5]')).toEqual([
      [Kind.RANGEIN_START, '['],
      [Kind.RANGE_GOOP, '1'],
      [Kind.RANGE_TO, 'TO'],
      [Kind.RANGE_QUOTED, '"x y"'],
      [Kind.RANGEEX_END, '}'],
      [Kind.RANGEEX_START, '{'],
      [Kind.RANGE_GOOP, '*'],
      [Kind.RANGE_TO, 'TO'],
      [Kind.RANGE_GOOP, '5'],
      [Kind.RANGEIN_END, ']'],
      [Kind.EOF, ''],
    ]);
  });

  it('reports lexical errors as JavaCC does', () => {
    expect(() => lex('"abc')).toThrow(
      new LexicalError('Lexical error at line 1, column 5.  Encountered: <EOF> after : "\\"abc"'),
    );
    expect(() => lex('a ] b')).toThrow(
      new LexicalError('Lexical error at line 1, column 3.  Encountered: "]" (93), after : ""'),
    );
    expect(() => lex('a^x y')).toThrow(
      new LexicalError('Lexical error at line 1, column 3.  Encountered: "x" (120), after : ""'),
    );
  });
});
