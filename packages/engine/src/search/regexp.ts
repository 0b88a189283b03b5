/**
 * The `regexp` query as Elasticsearch 8 builds it: RegexpQueryBuilder.doToQuery checks
 * `index.max_regex_length` and the rewrite method, StringFieldType.regexpQuery takes text and
 * keyword fields only, and Lucene 9's RegExp parses the pattern, which then matches whole terms
 * of the field (never analysed or normalised). Its syntax errors are Lucene's
 * IllegalArgumentException texts, wrapped as `failed to create query`.
 *
 * The pattern is parsed into a tree by a port of Lucene's recursive-descent grammar (same
 * precedence, same positions in its messages) and matched by computing, for each sub-expression
 * and start offset, the set of offsets where it can end. That handles complement (`~`) and
 * intersection (`&`) exactly, as Lucene's automata do, and never backtracks exponentially.
 */
import {
  illegalArgument,
  isShoalError,
  numberFormat,
  type QueryNode,
  queryShardException,
} from '@shoal/protocol';
import { BoolWeight } from './bool-weight.ts';
import type { CompileEnv } from './compile-env.ts';
import { checkSearchable, failedToCreateQuery } from './field-values.ts';
import { parseRewrite, type Rewrite, termClauses } from './fuzzy.ts';
import { dictionaryDocs, prefixRange } from './segment-scans.ts';
import { ConstantWeight, MatchNoneWeight, type Weight } from './weights.ts';

type RegexpNode = Extract<QueryNode, { type: 'regexp' }>;

/** IndexSettings.MAX_REGEX_LENGTH_SETTING's default. */
export const DEFAULT_MAX_REGEX_LENGTH = 1000;

// Lucene 9 RegExp syntax flags; Elasticsearch keeps `flags & ALL`.
const INTERSECTION = 0x01;
const COMPLEMENT = 0x02;
const EMPTY = 0x04;
const ANYSTRING = 0x08;
const AUTOMATON = 0x10;
const INTERVAL = 0x20;
const ALL = 0xff;

const MAX_CODE_POINT = 0x10ffff;
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
function otherCase(cp: number): number {
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

/** A compiled pattern: whether a whole term matches, and the literal every match starts with. */
export interface CompiledRegExp {
  matches(term: string): boolean;
  /** Empty when the pattern starts with anything but literal text. */
  prefix: string;
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

/**
 * Parses a Lucene pattern with Elasticsearch's flags (masked to Lucene's 0xff). Throws
 * Lucene's IllegalArgumentException texts as illegal_argument_exception.
 */
export function compileRegExp(pattern: string, flags: number, caseInsensitive: boolean): CompiledRegExp {
  const root = parseRegExp(pattern, flags, caseInsensitive);
  const nfa = new Nfa(root);
  return { matches: (term) => nfa.accepts(term), prefix: literalPrefix(root) };
}

function literalPrefix(root: Rx): string {
  const items = root.k === 'cat' ? root.items : [root];
  let prefix = '';
  for (const item of items) {
    if (item.k !== 'string') break;
    for (const cp of item.cps) {
      if (item.ci && otherCase(cp) !== cp) return prefix;
      prefix += String.fromCodePoint(cp);
    }
  }
  return prefix;
}

/** Whether `term` as a whole is in the language of `root`, by end sets alone. */
export function matchesWhole(root: Rx, term: string): boolean {
  const cps = Array.from(term, (c) => c.codePointAt(0)!);
  const m = new EndSets(cps);
  return m.ends(root, 0).includes(cps.length);
}

/** Beyond this many states a repetition is matched by end sets rather than unrolled. */
const MAX_NFA_STATES = 20000;

type NfaState =
  | { k: 'split'; out: number[] }
  | { k: 'chars'; ranges: number[]; negate: boolean; out: number }
  | { k: 'oracle'; node: Rx; out: number }
  | { k: 'accept' };

/**
 * A Thompson automaton of the pattern, simulated over a term's code points one offset at a
 * time: linear in the term for everything a classic automaton expresses. Complement,
 * intersection and numeric intervals are oracle transitions, jumping to every offset where
 * their end sets say they can end.
 */
class Nfa {
  private readonly states: NfaState[] = [];
  private readonly start: number;
  private readonly hasOracle: boolean;

  constructor(root: Rx) {
    const accept = this.add({ k: 'accept' });
    this.start = this.build(root, accept);
    this.hasOracle = this.states.some((s) => s.k === 'oracle');
  }

  private add(s: NfaState): number {
    this.states.push(s);
    return this.states.length - 1;
  }

  /** States for `node` that continue to `out`; returns the entry state. */
  private build(node: Rx, out: number): number {
    switch (node.k) {
      case 'chars':
        return this.add({ k: 'chars', ranges: node.ranges, negate: node.negate, out });
      case 'string': {
        let next = out;
        for (let i = node.cps.length - 1; i >= 0; i--) {
          const cp = node.cps[i]!;
          const alt = node.ci ? otherCase(cp) : cp;
          const ranges = alt === cp ? [cp, cp] : [cp, cp, alt, alt];
          next = this.add({ k: 'chars', ranges, negate: false, out: next });
        }
        return next === out ? this.add({ k: 'split', out: [out] }) : next;
      }
      case 'anystring': {
        const loop = this.add({ k: 'split', out: [] });
        const any = this.add({ k: 'chars', ranges: [0, MAX_CODE_POINT], negate: false, out: loop });
        (this.states[loop] as Extract<NfaState, { k: 'split' }>).out.push(any, out);
        return loop;
      }
      case 'nothing':
        return this.add({ k: 'split', out: [] });
      case 'cat': {
        let next = out;
        for (let i = node.items.length - 1; i >= 0; i--) next = this.build(node.items[i]!, next);
        return next;
      }
      case 'alt':
        return this.add({ k: 'split', out: node.items.map((item) => this.build(item, out)) });
      case 'repeat':
        return this.buildRepeat(node, out);
      default:
        return this.add({ k: 'oracle', node, out });
    }
  }

  private buildRepeat(node: Extract<Rx, { k: 'repeat' }>, out: number): number {
    if (node.min > node.max) return this.add({ k: 'split', out: [] });
    const copies = node.max === Number.POSITIVE_INFINITY ? node.min + 1 : node.max;
    if (copies * size(node.a) > MAX_NFA_STATES) return this.add({ k: 'oracle', node, out });
    let next = out;
    if (node.max === Number.POSITIVE_INFINITY) {
      const loop = this.add({ k: 'split', out: [] });
      const body = this.build(node.a, loop);
      (this.states[loop] as Extract<NfaState, { k: 'split' }>).out.push(body, out);
      next = loop;
    } else {
      for (let i = node.max; i > node.min; i--) {
        const body = this.build(node.a, next);
        next = this.add({ k: 'split', out: [body, out] });
        // Each optional copy may also stop the repetition: `out` is reachable from every one.
      }
    }
    for (let i = 0; i < node.min; i++) next = this.build(node.a, next);
    return next;
  }

  // Scratch reused across terms: the states live at the current and next offset, the
  // offset each state was last added at, and the depth-first stack of the epsilon closure.
  private cur = new Int32Array(0);
  private next = new Int32Array(0);
  private curStamp = new Int32Array(0);
  private nextStamp = new Int32Array(0);
  private stack = new Int32Array(0);
  private generation = 0;

  accepts(term: string): boolean {
    const count = this.states.length;
    if (this.curStamp.length !== count) {
      this.cur = new Int32Array(count);
      this.next = new Int32Array(count);
      this.curStamp = new Int32Array(count);
      this.nextStamp = new Int32Array(count);
      this.stack = new Int32Array(count);
    }
    if (this.generation > 2 ** 30) {
      this.curStamp.fill(0);
      this.nextStamp.fill(0);
      this.generation = 0;
    }
    const cps: number[] = [];
    for (let i = 0; i < term.length; i++) {
      const cp = term.codePointAt(i)!;
      cps.push(cp);
      if (cp > 0xffff) i++;
    }
    const n = cps.length;
    const ends = this.hasOracle ? new EndSets(cps) : undefined;
    // Oracle jumps past the next offset wait here, by offset.
    const later = this.hasOracle ? new Map<number, number[]>() : undefined;
    let cur = this.cur;
    let next = this.next;
    let curStamp = this.curStamp;
    let nextStamp = this.nextStamp;
    let gen = ++this.generation;
    let curLen = this.closure(this.start, cur, 0, curStamp, gen);
    for (let p = 0; p <= n; p++) {
      const nextGen = ++this.generation;
      let nextLen = 0;
      const waiting = later?.get(p);
      if (waiting) {
        for (const st of waiting) curLen = this.closure(st, cur, curLen, curStamp, gen);
        later!.delete(p);
      }
      for (let k = 0; k < curLen; k++) {
        const state = this.states[cur[k]!]!;
        if (state.k === 'chars') {
          if (p < n && inRanges(state.ranges, cps[p]!) !== state.negate)
            nextLen = this.closure(state.out, next, nextLen, nextStamp, nextGen);
        } else if (state.k === 'accept') {
          if (p === n) return true;
        } else if (state.k === 'oracle') {
          for (const e of ends!.ends(state.node, p)) {
            if (e === p) curLen = this.closure(state.out, cur, curLen, curStamp, gen);
            else if (e === p + 1) nextLen = this.closure(state.out, next, nextLen, nextStamp, nextGen);
            else {
              const list = later!.get(e);
              if (list) list.push(state.out);
              else later!.set(e, [state.out]);
            }
          }
        }
      }
      [cur, next] = [next, cur];
      [curStamp, nextStamp] = [nextStamp, curStamp];
      curLen = nextLen;
      gen = nextGen;
      if (curLen === 0 && (later === undefined || later.size === 0)) return false;
    }
    return false;
  }

  /**
   * Adds the non-split states reachable from `from` to `list`; `stamp` marks what the list
   * already holds in generation `gen`, so each state enters it once.
   */
  private closure(from: number, list: Int32Array, len: number, stamp: Int32Array, gen: number): number {
    const stack = this.stack;
    let top = 0;
    if (stamp[from] === gen) return len;
    stamp[from] = gen;
    stack[top++] = from;
    while (top > 0) {
      const s = stack[--top]!;
      const state = this.states[s]!;
      if (state.k !== 'split') {
        list[len++] = s;
        continue;
      }
      for (const o of state.out) {
        if (stamp[o] !== gen) {
          stamp[o] = gen;
          stack[top++] = o;
        }
      }
    }
    return len;
  }
}

/** How many automaton states a node unrolls to, at most (saturating). */
function size(node: Rx): number {
  switch (node.k) {
    case 'string':
      return node.cps.length + 1;
    case 'cat':
    case 'alt':
      return node.items.reduce((sum, item) => Math.min(MAX_NFA_STATES + 1, sum + size(item)), 1);
    case 'repeat': {
      const copies = node.max === Number.POSITIVE_INFINITY ? node.min + 1 : node.max;
      return Math.min(MAX_NFA_STATES + 1, copies * size(node.a) + copies + 1);
    }
    default:
      return 2;
  }
}

/**
 * For each node and start offset, the sorted offsets at which the node's language can end;
 * composite nodes are memoised, so a term costs at most nodes × length² steps.
 */
class EndSets {
  private readonly n: number;
  private readonly memo = new Map<Rx, (number[] | undefined)[]>();
  private readonly mark: Uint8Array;

  constructor(private readonly cps: number[]) {
    this.n = cps.length;
    this.mark = new Uint8Array(cps.length + 1);
  }

  ends(node: Rx, start: number): number[] {
    switch (node.k) {
      case 'chars': {
        if (start >= this.n) return [];
        return inRanges(node.ranges, this.cps[start]!) !== node.negate ? [start + 1] : [];
      }
      case 'string':
        return this.stringAt(node, start) ? [start + node.cps.length] : [];
      case 'anystring':
        return this.span(start);
      case 'nothing':
        return [];
      case 'interval':
        return this.interval(node, start);
      default: {
        let byStart = this.memo.get(node);
        if (!byStart) {
          byStart = [];
          this.memo.set(node, byStart);
        }
        let out = byStart[start];
        if (!out) {
          out = this.composite(node, start);
          byStart[start] = out;
        }
        return out;
      }
    }
  }

  private composite(node: Rx, start: number): number[] {
    switch (node.k) {
      case 'cat': {
        let cur = [start];
        for (const item of node.items) {
          cur = this.union(cur.map((p) => this.ends(item, p)));
          if (cur.length === 0) return cur;
        }
        return cur;
      }
      case 'alt':
        return this.union(node.items.map((item) => this.ends(item, start)));
      case 'and': {
        const b = new Set(this.ends(node.b, start));
        return this.ends(node.a, start).filter((e) => b.has(e));
      }
      case 'not': {
        const inner = new Set(this.ends(node.a, start));
        return this.span(start).filter((e) => !inner.has(e));
      }
      case 'repeat':
        return this.repeat(node, start);
      default:
        return [];
    }
  }

  private repeat(node: Extract<Rx, { k: 'repeat' }>, start: number): number[] {
    if (node.min > node.max) return [];
    const found: number[][] = [];
    let cur = [start];
    let count = 0;
    while (cur.length > 0) {
      if (count >= node.min) found.push(cur);
      if (count >= node.max) break;
      const next = this.union(cur.map((p) => this.ends(node.a, p)));
      count++;
      if (sameSet(next, cur)) {
        // A fixed point (the item matches the empty string here): every further count ends at
        // the same offsets, so the minimum is reached without counting up to it.
        if (count < node.min) count = node.min;
        if (count >= node.min) found.push(next);
        break;
      }
      // Past the minimum, offsets already reached add nothing new.
      cur = count > node.min ? next.filter((p) => !found.some((f) => f.includes(p))) : next;
    }
    return this.union(found);
  }

  private stringAt(node: Extract<Rx, { k: 'string' }>, start: number): boolean {
    const len = node.cps.length;
    if (start + len > this.n) return false;
    for (let i = 0; i < len; i++) {
      const want = node.cps[i]!;
      const got = this.cps[start + i]!;
      if (got !== want && !(node.ci && otherCase(want) === got)) return false;
    }
    return true;
  }

  /** Automata.makeDecimalInterval: digits whose value is in range, zero-padded to `digits` if set. */
  private interval(node: Extract<Rx, { k: 'interval' }>, start: number): number[] {
    const out: number[] = [];
    let value = 0;
    for (let e = start; e < this.n; e++) {
      const cp = this.cps[e]!;
      if (cp < 0x30 || cp > 0x39) break;
      value = value * 10 + (cp - 0x30);
      const len = e + 1 - start;
      if (node.digits > 0 && len > node.digits) break;
      if (value > node.max) {
        // Leading zeros only grow the string; once the value passes max, longer runs do too.
        break;
      }
      if (value >= node.min && (node.digits === 0 || len === node.digits)) out.push(e + 1);
    }
    return out;
  }

  private span(start: number): number[] {
    const out: number[] = [];
    for (let e = start; e <= this.n; e++) out.push(e);
    return out;
  }

  private union(lists: number[][]): number[] {
    if (lists.length === 1) return lists[0]!;
    const mark = this.mark;
    mark.fill(0);
    for (const l of lists) for (const e of l) mark[e] = 1;
    const out: number[] = [];
    for (let e = 0; e <= this.n; e++) if (mark[e] === 1) out.push(e);
    return out;
  }
}

function inRanges(ranges: number[], cp: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) if (cp >= ranges[i]! && cp <= ranges[i + 1]!) return true;
  return false;
}

function sameSet(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((e, i) => e === b[i]);
}

/**
 * RegexpQueryBuilder.doToQuery over one reader. `field` is undefined for an unmapped field,
 * whose pattern is still parsed (and may fail) though it matches nothing.
 */
export function regexpQuery(
  env: CompileEnv,
  node: RegexpNode,
  boost: number,
  maxRegexLength: number = DEFAULT_MAX_REGEX_LENGTH,
): Weight {
  if (node.value.length > maxRegexLength) {
    throw failedToCreateQuery(
      env,
      illegalArgument(
        `The length of regex [${node.value.length}] used in the Regexp Query request has exceeded the allowed maximum of [${maxRegexLength}]. This maximum can be set by changing the [index.max_regex_length] index level setting.`,
      ),
    );
  }
  const rewrite = node.rewrite === undefined ? undefined : wrapped(env, () => parseRewrite(node.rewrite, 0));
  // Metadata fields are not string fields: `_id` and `_index` refuse by their own type name.
  const metadata = node.field === '_id' || node.field === '_index';
  const field = metadata ? undefined : env.mapping.field(node.field);
  const type = metadata ? node.field : field?.type;
  if (type !== undefined && type !== 'text' && type !== 'keyword') {
    throw queryShardException(
      `Can only use regexp queries on keyword and text fields - not on [${node.field}] which is of type [${type}]`,
      env.index,
      env.indexUuid,
    );
  }
  if (field) checkSearchable(env, field);
  const re = wrapped(env, () => compileRegExp(node.value, node.flags, node.caseInsensitive));
  if (!field) return new MatchNoneWeight();
  const path = field.path;
  if (rewrite === undefined || rewrite.kind === 'constant' || rewrite.kind === 'constant_boolean') {
    return new ConstantWeight(
      (rs) => dictionaryDocs(rs, path, prefixRange(re.prefix), re.matches),
      Math.fround(boost),
    );
  }
  return scoringRewrite(env, path, re, rewrite, boost);
}

/** The scoring rewrites: every matching term (or the first N) as a scored term clause. */
function scoringRewrite(
  env: CompileEnv,
  path: string,
  re: CompiledRegExp,
  rewrite: Rewrite,
  boost: number,
): Weight {
  const seen = new Set<string>();
  for (const s of env.reader.segments) {
    const terms = s.segment.field(path)?.postings?.terms;
    if (!terms) continue;
    const [from, to] = prefixRange(re.prefix)(terms);
    for (let t = from; t < to; t++) {
      const term = terms[t]!;
      if (!seen.has(term) && re.matches(term)) seen.add(term);
    }
  }
  // Every term weighs 1, so TopTermsRewrite keeps the smallest terms.
  let chosen = [...seen].sort();
  if ('size' in rewrite) chosen = chosen.slice(0, rewrite.size);
  if (chosen.length === 0) return new MatchNoneWeight();
  const clauses = termClauses(
    env,
    path,
    chosen.map((t) => [t, 1]),
    rewrite,
    boost,
  );
  return clauses.length === 1 ? clauses[0]! : new BoolWeight([], [], clauses, [], 1);
}

/** An IllegalArgumentException while building the query: SearchExecutionContext wraps it. */
function wrapped<T>(env: CompileEnv, build: () => T): T {
  try {
    return build();
  } catch (e) {
    throw isShoalError(e) ? failedToCreateQuery(env, e) : e;
  }
}
