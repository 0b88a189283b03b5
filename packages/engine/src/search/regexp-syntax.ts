/**
 * Lucene 9's RegExp syntax: a port of its recursive-descent grammar (same precedence, same
 * positions in its IllegalArgumentException messages) into a tree of `Rx` nodes. The optional
 * operators (`&`, `~`, `#`, `@`, `<n-m>`) are on only with their flags.
 */
import { illegalArgument, numberFormat } from '@shoal/protocol';

// Lucene 9 RegExp syntax flags; Elasticsearch keeps `flags & ALL`.
const INTERSECTION = 0x01;
const COMPLEMENT = 0x02;
const EMPTY = 0x04;
const ANYSTRING = 0x08;
const AUTOMATON = 0x10;
const INTERVAL = 0x20;
const ALL = 0xff;

export const MAX_CODE_POINT = 0x10ffff;
const INT_MAX = 2 ** 31 - 1;

/** A parsed pattern. Ranges are flat pairs of inclusive code point bounds. */
export type Rx =
  | { k: 'chars'; ranges: number[]; negate: boolean }
  | { k: 'string'; cps: number[]; ci: boolean }
  | { k: 'anystring' }
  | { k: 'nothing' }
  | { k: 'interval'; min: number; max: number; digits: number }
  | { k: 'cat'; items: Rx[] }
  | { k: 'alt'; items: Rx[] }
  | { k: 'and'; a: Rx; b: Rx }
  | { k: 'not'; a: Rx }
  | { k: 'repeat'; a: Rx; min: number; max: number };

const ANY_CHAR: Rx = { k: 'chars', ranges: [0, MAX_CODE_POINT], negate: false };

/** RegExp's predefined classes (`\d` and friends), never case-folded. */
const PREDEFINED: Record<string, Rx> = {
  d: { k: 'chars', ranges: [0x30, 0x39], negate: false },
  D: { k: 'chars', ranges: [0x30, 0x39], negate: true },
  s: { k: 'chars', ranges: [0x20, 0x20, 0x09, 0x0a, 0x0d, 0x0d], negate: false },
  S: { k: 'chars', ranges: [0x20, 0x20, 0x09, 0x0a, 0x0d, 0x0d], negate: true },
  w: { k: 'chars', ranges: [0x61, 0x7a, 0x41, 0x5a, 0x5f, 0x5f, 0x30, 0x39], negate: false },
  W: { k: 'chars', ranges: [0x61, 0x7a, 0x41, 0x5a, 0x5f, 0x5f, 0x30, 0x39], negate: true },
};

/** Escaped letters that Lucene refuses, as java.util.regex.Pattern does. */
const INVALID_ESCAPES = 'abcefghijklmnopqrtuvxyzABCEFGHIJKLMNOPQRTUVXYZ';

/**
 * RegExp's ASCII_CASE_INSENSITIVE: a code point up to 128 also matches its other case; nothing
 * beyond ASCII is folded.
 */
export function otherCase(cp: number): number {
  if (cp >= 0x61 && cp <= 0x7a) return cp - 32;
  if (cp >= 0x41 && cp <= 0x5a) return cp + 32;
  return cp;
}

/**
 * Lucene 9's RegExp parser. `pos` counts UTF-16 units, as the Java string index does, so the
 * positions in its messages are Lucene's.
 */
class RegExpParser {
  private pos = 0;
  /** Named automata (`<name>`), which Elasticsearch's RegexpQuery has none of. */
  readonly automata: string[] = [];

  constructor(
    private readonly s: string,
    private readonly flags: number,
    private readonly ci: boolean,
  ) {}

  parse(): Rx {
    if (this.s.length === 0) return { k: 'string', cps: [], ci: false };
    const e = this.parseUnion();
    if (this.pos < this.s.length) throw illegalArgument(`end-of-string expected at position ${this.pos}`);
    return e;
  }

  private more(): boolean {
    return this.pos < this.s.length;
  }

  private peek(chars: string): boolean {
    return this.more() && chars.includes(String.fromCodePoint(this.s.codePointAt(this.pos)!));
  }

  private match(c: string): boolean {
    if (this.pos >= this.s.length || this.s.codePointAt(this.pos) !== c.codePointAt(0)) return false;
    this.pos += c.length;
    return true;
  }

  private next(): number {
    if (!this.more()) throw illegalArgument('unexpected end-of-string');
    const cp = this.s.codePointAt(this.pos)!;
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private check(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }

  private parseUnion(): Rx {
    const items = [this.parseInter()];
    while (this.match('|')) items.push(this.parseInter());
    return items.length === 1 ? items[0]! : { k: 'alt', items };
  }

  private parseInter(): Rx {
    const e = this.parseConcat();
    if (this.check(INTERSECTION) && this.match('&')) return { k: 'and', a: e, b: this.parseInter() };
    return e;
  }

  private parseConcat(): Rx {
    const items = [this.parseRepeat()];
    while (this.more() && !this.peek(')|') && (!this.check(INTERSECTION) || !this.peek('&'))) {
      items.push(this.parseRepeat());
    }
    return items.length === 1 ? items[0]! : { k: 'cat', items };
  }

  private parseRepeat(): Rx {
    let e = this.parseCompl();
    while (this.peek('?*+{')) {
      if (this.match('?')) e = { k: 'repeat', a: e, min: 0, max: 1 };
      else if (this.match('*')) e = { k: 'repeat', a: e, min: 0, max: Number.POSITIVE_INFINITY };
      else if (this.match('+')) e = { k: 'repeat', a: e, min: 1, max: Number.POSITIVE_INFINITY };
      else if (this.match('{')) {
        let start = this.pos;
        while (this.peek('0123456789')) this.next();
        if (start === this.pos) throw illegalArgument(`integer expected at position ${this.pos}`);
        const n = parseInt32(this.s.slice(start, this.pos));
        let m = -1;
        if (this.match(',')) {
          start = this.pos;
          while (this.peek('0123456789')) this.next();
          if (start !== this.pos) m = parseInt32(this.s.slice(start, this.pos));
        } else m = n;
        if (!this.match('}')) throw illegalArgument(`expected '}' at position ${this.pos}`);
        // Lucene 9's Operations.repeat gives the empty language for {n,m} with n > m.
        e = { k: 'repeat', a: e, min: n, max: m === -1 ? Number.POSITIVE_INFINITY : m };
      }
    }
    return e;
  }

  private parseCompl(): Rx {
    if (this.check(COMPLEMENT) && this.match('~')) return { k: 'not', a: this.parseCompl() };
    return this.parseCharClassExp();
  }

  private parseCharClassExp(): Rx {
    if (this.match('[')) {
      const negate = this.match('^');
      const ranges = this.parseCharClasses();
      if (!this.match(']')) throw illegalArgument(`expected ']' at position ${this.pos}`);
      return { k: 'chars', ranges, negate };
    }
    return this.parseSimple();
  }

  private parseCharClasses(): number[] {
    const ranges: number[] = [];
    do this.parseCharClass(ranges);
    while (this.more() && !this.peek(']'));
    return ranges;
  }

  private parseCharClass(ranges: number[]): void {
    const predefined = this.matchPredefined();
    if (predefined) {
      ranges.push(...complementIfNegated(predefined));
      return;
    }
    const c = this.parseCharExp();
    if (this.match('-')) {
      const to = this.parseCharExp();
      if (c > to) throw illegalArgument(`invalid range: from (${c}) cannot be > to (${to})`);
      ranges.push(c, to);
    } else {
      ranges.push(c, c);
      // A single character of a class is a REGEXP_CHAR, folded like any other; ranges are not.
      if (this.ci && otherCase(c) !== c) ranges.push(otherCase(c), otherCase(c));
    }
  }

  /** RegExp.matchPredefinedCharacterClass: consumes a backslash even when it returns nothing. */
  private matchPredefined(): Extract<Rx, { k: 'chars' }> | undefined {
    if (!this.match('\\')) return undefined;
    if (this.peek('dDwWsS'))
      return PREDEFINED[String.fromCodePoint(this.next())] as Extract<Rx, { k: 'chars' }>;
    if (this.peek('\\')) {
      const c = this.next();
      return { k: 'chars', ranges: [c, c], negate: false };
    }
    // Java concatenates the code point as a number: `\a` is "invalid character class \97".
    if (this.peek(INVALID_ESCAPES)) throw illegalArgument(`invalid character class \\${this.next()}`);
    return undefined;
  }

  private parseSimple(): Rx {
    if (this.match('.')) return ANY_CHAR;
    if (this.check(EMPTY) && this.match('#')) return { k: 'nothing' };
    if (this.check(ANYSTRING) && this.match('@')) return { k: 'anystring' };
    if (this.match('"')) {
      const start = this.pos;
      while (this.more() && !this.peek('"')) this.next();
      if (!this.match('"')) throw illegalArgument(`expected '"' at position ${this.pos}`);
      return this.literal(this.s.slice(start, this.pos - 1));
    }
    if (this.match('(')) {
      if (this.match(')')) return { k: 'string', cps: [], ci: false };
      const e = this.parseUnion();
      if (!this.match(')')) throw illegalArgument(`expected ')' at position ${this.pos}`);
      return e;
    }
    if ((this.check(AUTOMATON) || this.check(INTERVAL)) && this.match('<')) return this.parseAngle();
    const predefined = this.matchPredefined();
    if (predefined) return predefined;
    return this.literal(String.fromCodePoint(this.parseCharExp()));
  }

  /** `<n-m>`, a numeric interval, or `<name>`, a named automaton. */
  private parseAngle(): Rx {
    const start = this.pos;
    while (this.more() && !this.peek('>')) this.next();
    if (!this.match('>')) throw illegalArgument(`expected '>' at position ${this.pos}`);
    const body = this.s.slice(start, this.pos - 1);
    const at = this.pos - 1;
    const i = body.indexOf('-');
    if (i === -1) {
      if (!this.check(AUTOMATON)) throw illegalArgument(`interval syntax error at position ${at}`);
      this.automata.push(body);
      return { k: 'nothing' };
    }
    if (!this.check(INTERVAL)) throw illegalArgument(`illegal identifier at position ${at}`);
    const smin = body.slice(0, i);
    const smax = body.slice(i + 1);
    const javaInt = /^[+-]?\d+$/;
    if (
      i === 0 ||
      i === body.length - 1 ||
      i !== body.lastIndexOf('-') ||
      !javaInt.test(smin) ||
      !javaInt.test(smax)
    ) {
      throw illegalArgument(`interval syntax error at position ${at}`);
    }
    let min = Number(smin);
    let max = Number(smax);
    if (min > INT_MAX || max > INT_MAX) throw illegalArgument(`interval syntax error at position ${at}`);
    const digits = smin.length === smax.length ? smin.length : 0;
    if (min > max) [min, max] = [max, min];
    return { k: 'interval', min, max, digits };
  }

  private parseCharExp(): number {
    this.match('\\');
    return this.next();
  }

  private literal(text: string): Rx {
    return { k: 'string', cps: Array.from(text, (c) => c.codePointAt(0)!), ci: this.ci };
  }
}

/** Integer.parseInt of a run of digits: a NumberFormatException beyond int. */
function parseInt32(digits: string): number {
  const n = Number(digits);
  if (n > INT_MAX) throw numberFormat(digits);
  return n;
}

/** The ranges of a class item; a negated predefined class (`\D`) as the ranges it leaves. */
function complementIfNegated(c: Extract<Rx, { k: 'chars' }>): number[] {
  if (!c.negate) return c.ranges;
  const pairs: [number, number][] = [];
  for (let i = 0; i < c.ranges.length; i += 2) pairs.push([c.ranges[i]!, c.ranges[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  let from = 0;
  for (const [lo, hi] of pairs) {
    if (lo > from) out.push(from, lo - 1);
    from = Math.max(from, hi + 1);
  }
  if (from <= MAX_CODE_POINT) out.push(from, MAX_CODE_POINT);
  return out;
}

/** The tree of a Lucene pattern, with the errors `new RegexpQuery(…)` raises. */
export function parseRegExp(pattern: string, flags: number, caseInsensitive: boolean): Rx {
  const parser = new RegExpParser(pattern, flags & ALL, caseInsensitive);
  const root = parser.parse();
  // RegexpQuery's default AutomatonProvider knows no names.
  const missing = parser.automata[0];
  if (missing !== undefined) throw illegalArgument(`'${missing}' not found`);
  return root;
}
