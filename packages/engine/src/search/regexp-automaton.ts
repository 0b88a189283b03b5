/**
 * Matching a parsed Lucene pattern against whole terms: unrolled into an NFA where that stays
 * small, else by computing, for each sub-expression and start offset, the set of offsets where
 * it can end. That handles complement (`~`) and intersection (`&`) exactly, as Lucene's automata
 * do, and never backtracks exponentially.
 */
import { MAX_CODE_POINT, otherCase, parseRegExp, type Rx } from './regexp-syntax.ts';

/** A compiled pattern: whether a whole term matches, and the literal every match starts with. */
export interface CompiledRegExp {
  matches(term: string): boolean;
  /** Empty when the pattern starts with anything but literal text. */
  prefix: string;
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
