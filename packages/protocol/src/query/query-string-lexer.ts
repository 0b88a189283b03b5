/**
 * The token manager of Lucene's classic QueryParser (QueryParser.jj), which Elasticsearch's
 * `query_string` and the URL `q=` parameter use: three lexical states (default, `^` boost, range),
 * longest match with ties going to the earlier declaration, and its lexical-error message.
 * Tokens are produced on demand, as the JavaCC parser asks for them, so that a syntax error early
 * in the string is reported before a lexical error later in it.
 */

export const Kind = {
  EOF: 0,
  AND: 8,
  OR: 9,
  NOT: 10,
  PLUS: 11,
  MINUS: 12,
  BAREOPER: 13,
  LPAREN: 14,
  RPAREN: 15,
  COLON: 16,
  STAR: 17,
  CARAT: 18,
  QUOTED: 19,
  TERM: 20,
  FUZZY_SLOP: 21,
  PREFIXTERM: 22,
  WILDTERM: 23,
  REGEXPTERM: 24,
  RANGEIN_START: 25,
  RANGEEX_START: 26,
  NUMBER: 27,
  RANGE_TO: 28,
  RANGEIN_END: 29,
  RANGEEX_END: 30,
  RANGE_QUOTED: 31,
  RANGE_GOOP: 32,
} as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/** QueryParserConstants.tokenImage, as ParseException messages print kinds. */
export const TOKEN_IMAGE: readonly string[] = [
  '<EOF>',
  '<_NUM_CHAR>',
  '<_ESCAPED_CHAR>',
  '<_TERM_START_CHAR>',
  '<_TERM_CHAR>',
  '<_WHITESPACE>',
  '<_QUOTED_CHAR>',
  '<token of kind 7>',
  '<AND>',
  '<OR>',
  '<NOT>',
  '"+"',
  '"-"',
  '<BAREOPER>',
  '"("',
  '")"',
  '":"',
  '"*"',
  '"^"',
  '<QUOTED>',
  '<TERM>',
  '<FUZZY_SLOP>',
  '<PREFIXTERM>',
  '<WILDTERM>',
  '<REGEXPTERM>',
  '"["',
  '"{"',
  '<NUMBER>',
  '"TO"',
  '"]"',
  '"}"',
  '<RANGE_QUOTED>',
  '<RANGE_GOOP>',
];

export interface Tok {
  kind: Kind;
  image: string;
  /** FastCharStream's begin column: the 0-based offset of the token's first char. */
  col: number;
}

/** A TokenMgrError: the message JavaCC builds, before QueryParser prefixes "Cannot parse". */
export class LexicalError extends Error {}

const State = { DEFAULT: 0, BOOST: 1, RANGE: 2 } as const;
type State = (typeof State)[keyof typeof State];

const WHITESPACE = ' \t\n\r\u3000';
/** Chars that cannot start a term (besides whitespace). */
const NON_TERM_START = '+-!():^[]"{}~*?\\/';

function isWhitespace(c: string): boolean {
  return WHITESPACE.includes(c);
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

export class Lexer {
  private readonly toks: Tok[] = [];
  private pos = 0;
  private state: State = State.DEFAULT;
  private readonly s: string;

  constructor(s: string) {
    this.s = s;
  }

  /** The i-th token (0-based), lexing as far as needed. */
  at(i: number): Tok {
    while (this.toks.length <= i) {
      const last = this.toks[this.toks.length - 1];
      if (last?.kind === Kind.EOF) return last;
      this.toks.push(this.next());
    }
    return this.toks[i]!;
  }

  private next(): Tok {
    const s = this.s;
    if (this.state !== State.BOOST) {
      while (this.pos < s.length && this.skippable(this.pos)) this.pos++;
    }
    if (this.pos >= s.length) return { kind: Kind.EOF, image: '', col: s.length };
    const start = this.pos;
    const tok =
      this.state === State.BOOST
        ? this.boost(start)
        : this.state === State.RANGE
          ? this.range(start)
          : this.main(start);
    this.pos = start + tok.image.length;
    if (tok.kind === Kind.CARAT) this.state = State.BOOST;
    else if (tok.kind === Kind.RANGEIN_START || tok.kind === Kind.RANGEEX_START) this.state = State.RANGE;
    else if (tok.kind === Kind.NUMBER || tok.kind === Kind.RANGEIN_END || tok.kind === Kind.RANGEEX_END) {
      this.state = State.DEFAULT;
    }
    return tok;
  }

  /** In the range state a lone tab or newline may also start a RANGE_GOOP (the longer match). */
  private skippable(i: number): boolean {
    const c = this.s[i]!;
    if (!isWhitespace(c)) return false;
    if (this.state !== State.RANGE || c === ' ') return true;
    const n = this.s[i + 1];
    return n === undefined || n === ' ' || n === ']' || n === '}';
  }

  private tok(kind: Kind, start: number, end: number): Tok {
    return { kind, image: this.s.slice(start, end), col: start };
  }

  private main(start: number): Tok {
    const s = this.s;
    const c = s[start]!;
    const n = s[start + 1];
    switch (c) {
      case '+':
      case '-':
      case '!':
        if (n !== undefined && isWhitespace(n)) return this.tok(Kind.BAREOPER, start, start + 2);
        return this.tok(c === '+' ? Kind.PLUS : c === '-' ? Kind.MINUS : Kind.NOT, start, start + 1);
      case '(':
        return this.tok(Kind.LPAREN, start, start + 1);
      case ')':
        return this.tok(Kind.RPAREN, start, start + 1);
      case ':':
        return this.tok(Kind.COLON, start, start + 1);
      case '^':
        return this.tok(Kind.CARAT, start, start + 1);
      case '[':
        return this.tok(Kind.RANGEIN_START, start, start + 1);
      case '{':
        return this.tok(Kind.RANGEEX_START, start, start + 1);
      case '"':
        return this.quoted(start, Kind.QUOTED);
      case '/':
        return this.regexp(start);
      case '~':
        return this.tok(Kind.FUZZY_SLOP, start, this.fuzzySlopEnd(start + 1));
      default:
        return this.termLike(start);
    }
  }

  /** TERM, PREFIXTERM, WILDTERM, STAR and the word operators share their first chars. */
  private termLike(start: number): Tok {
    const s = this.s;
    const c = s[start]!;
    const termStart = this.termStartLen(start);
    if (termStart === 0 && c !== '*' && c !== '?') throw this.lexicalError(start, start + 1, 0);
    // Longest WILDTERM run: term chars plus * and ?.
    let wild = start;
    let termEnd = -1;
    while (wild < s.length) {
      const w = s[wild]!;
      if (w === '*' || w === '?') {
        if (termEnd === -1) termEnd = wild;
        wild++;
        continue;
      }
      const len = this.termCharLen(wild);
      if (len === 0) break;
      wild += len;
    }
    if (termEnd === -1) termEnd = wild;
    if (termStart === 0) {
      // Starts with * or ?: STAR beats PREFIXTERM and WILDTERM for a lone `*`.
      if (wild === start + 1 && c === '*') return this.tok(Kind.STAR, start, start + 1);
      return this.tok(Kind.WILDTERM, start, wild);
    }
    if (wild === termEnd) {
      const image = s.slice(start, termEnd);
      if (image === 'AND' || image === '&&') return this.tok(Kind.AND, start, termEnd);
      if (image === 'OR' || image === '||') return this.tok(Kind.OR, start, termEnd);
      if (image === 'NOT') return this.tok(Kind.NOT, start, termEnd);
      return this.tok(Kind.TERM, start, termEnd);
    }
    if (wild === termEnd + 1 && s[termEnd] === '*') return this.tok(Kind.PREFIXTERM, start, wild);
    return this.tok(Kind.WILDTERM, start, wild);
  }

  /** Length of a _TERM_START_CHAR at i (2 for an escaped char), 0 if none. */
  private termStartLen(i: number): number {
    const c = this.s[i];
    if (c === undefined) return 0;
    if (c === '\\') return i + 1 < this.s.length ? 2 : 0;
    return isWhitespace(c) || NON_TERM_START.includes(c) ? 0 : 1;
  }

  private termCharLen(i: number): number {
    const c = this.s[i];
    return c === '-' || c === '+' ? 1 : this.termStartLen(i);
  }

  /** FUZZY_SLOP after `~`: digits with an optional fraction, then term chars; or term chars only. */
  private fuzzySlopEnd(i: number): number {
    const s = this.s;
    if (isDigit(s[i])) {
      while (isDigit(s[i])) i++;
      if (s[i] === '.' && isDigit(s[i + 1])) {
        i++;
        while (isDigit(s[i])) i++;
      }
    }
    for (let len = this.termCharLen(i); len > 0; len = this.termCharLen(i)) i += len;
    return i;
  }

  private quoted(start: number, kind: typeof Kind.QUOTED | typeof Kind.RANGE_QUOTED): Tok {
    const s = this.s;
    let i = start + 1;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '"') {
        if (kind === Kind.RANGE_QUOTED && i === start + 1) break;
        return this.tok(kind, start, i + 1);
      }
      if (c === '\\') {
        if (kind === Kind.QUOTED && i + 1 >= s.length) break;
        i += kind === Kind.RANGE_QUOTED && s[i + 1] !== '"' ? 1 : 2;
        continue;
      }
      i++;
    }
    if (kind === Kind.RANGE_QUOTED) return this.goop(start);
    throw this.lexicalError(start, s.length, s.length - start);
  }

  private regexp(start: number): Tok {
    const s = this.s;
    let i = start + 1;
    while (i < s.length) {
      if (s[i] === '\\' && s[i + 1] === '/') i += 2;
      else if (s[i] === '/') return this.tok(Kind.REGEXPTERM, start, i + 1);
      else i++;
    }
    throw this.lexicalError(start, s.length, s.length - start);
  }

  private boost(start: number): Tok {
    const s = this.s;
    if (!isDigit(s[start])) throw this.lexicalError(start, start + 1, 0);
    let i = start;
    while (isDigit(s[i])) i++;
    if (s[i] === '.' && isDigit(s[i + 1])) {
      i++;
      while (isDigit(s[i])) i++;
    }
    return this.tok(Kind.NUMBER, start, i);
  }

  private range(start: number): Tok {
    const c = this.s[start]!;
    if (c === ']') return this.tok(Kind.RANGEIN_END, start, start + 1);
    if (c === '}') return this.tok(Kind.RANGEEX_END, start, start + 1);
    if (c === '"') return this.quoted(start, Kind.RANGE_QUOTED);
    const goop = this.goop(start);
    if (goop.image === 'TO') return { ...goop, kind: Kind.RANGE_TO };
    return goop;
  }

  private goop(start: number): Tok {
    const s = this.s;
    let i = start;
    while (i < s.length && s[i] !== ' ' && s[i] !== ']' && s[i] !== '}') i++;
    return this.tok(Kind.RANGE_GOOP, start, i);
  }

  /**
   * JavaCC's TokenMgrError.LexicalErr. `end` is one past the last char read (the offending one),
   * `matched` how many chars the failed attempt had consumed. At the end of input JavaCC reports
   * `<EOF>` one column further; otherwise it reports the offending char.
   */
  private lexicalError(start: number, end: number, matched: number): LexicalError {
    const s = this.s;
    if (end >= s.length) {
      const after = matched <= 1 ? '' : s.slice(start, end);
      return new LexicalError(
        `Lexical error at line 1, column ${end + 1}.  Encountered: <EOF> after : "${javaccEscape(after)}"`,
      );
    }
    const cur = s[end - 1]!;
    const after = matched <= 1 ? '' : s.slice(start, end - 1);
    return new LexicalError(
      `Lexical error at line 1, column ${end}.  Encountered: "${javaccEscape(cur)}" (${cur.charCodeAt(0)}), after : "${javaccEscape(after)}"`,
    );
  }
}

/** JavaCC's addEscapes. */
export function javaccEscape(str: string): string {
  let out = '';
  for (let i = 0; i < str.length; i++) {
    const ch = str[i]!;
    switch (ch) {
      case '\b':
        out += '\\b';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\f':
        out += '\\f';
        break;
      case '\r':
        out += '\\r';
        break;
      case '"':
        out += '\\"';
        break;
      case "'":
        out += "\\'";
        break;
      case '\\':
        out += '\\\\';
        break;
      default: {
        const code = ch.charCodeAt(0);
        out += code < 0x20 || code > 0x7e ? `\\u${code.toString(16).padStart(4, '0')}` : ch;
      }
    }
  }
  return out;
}
