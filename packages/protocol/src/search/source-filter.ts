/**
 * `_source` filtering (XContentMapValues.filter): `includes`/`excludes` are simple `*` patterns
 * matched against dotted paths. A pattern that matches an object keeps (or drops) the whole
 * subtree, since `p` also matches `p.<anything>`; arrays are walked element by element, and
 * objects that end up empty are dropped unless the object itself was included. Key order is
 * preserved.
 *
 * The patterns are run as an automaton over the path's characters, compiled lazily into a DFA
 * and cached per filter object, so that the shard workers filter many hits of one request with
 * one compilation.
 */
import type { SourceFilter } from './search-request.ts';

const DEAD = -1;

/** A lazily determinised union of glob patterns, with "pattern, then `.`, then anything" added. */
class PathAutomaton {
  private readonly chars: number[] = [];
  /** Position just past each pattern: reaching it means the pattern matched. */
  private readonly ends = new Set<number>();
  /** The "anything after a matched object" state. */
  private readonly ext: number;
  private readonly sets: number[][] = [];
  private readonly accepting: boolean[] = [];
  private readonly trans: Map<number, number>[] = [];
  private readonly ids = new Map<string, number>();

  constructor(patterns: readonly string[]) {
    const starts: number[] = [];
    for (const p of patterns) {
      starts.push(this.chars.length);
      for (let i = 0; i < p.length; i++) this.chars.push(p.charCodeAt(i));
      this.ends.add(this.chars.length);
      this.chars.push(-1);
    }
    this.ext = this.chars.length;
    this.intern(this.closure(starts));
  }

  isAccept(state: number): boolean {
    return state !== DEAD && this.accepting[state]!;
  }

  /** Steps through every char of `s` (stops early once dead). */
  stepString(state: number, s: string): number {
    for (let i = 0; state !== DEAD && i < s.length; i++) state = this.step(state, s.charCodeAt(i));
    return state;
  }

  step(state: number, ch: number): number {
    if (state === DEAD) return DEAD;
    const t = this.trans[state]!;
    const cached = t.get(ch);
    if (cached !== undefined) return cached;
    const next: number[] = [];
    for (const pos of this.sets[state]!) {
      if (pos === this.ext) next.push(this.ext);
      else if (this.ends.has(pos)) {
        if (ch === 46) next.push(this.ext);
      } else if (this.chars[pos] === 42) next.push(pos);
      else if (this.chars[pos] === ch) next.push(pos + 1);
    }
    const id = next.length === 0 ? DEAD : this.intern(this.closure(next));
    t.set(ch, id);
    return id;
  }

  /** A `*` may match nothing. */
  private closure(positions: number[]): number[] {
    const seen = new Set<number>();
    const stack = [...positions];
    while (stack.length > 0) {
      const p = stack.pop()!;
      if (seen.has(p)) continue;
      seen.add(p);
      if (p !== this.ext && this.chars[p] === 42) stack.push(p + 1);
    }
    return [...seen].sort((a, b) => a - b);
  }

  /** The DFA state for a set of NFA positions; the first one interned (the start) is state 0. */
  private intern(set: number[]): number {
    const key = set.join(',');
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.sets.length;
    this.sets.push(set);
    this.accepting.push(set.some((p) => p === this.ext || this.ends.has(p)));
    this.trans.push(new Map());
    this.ids.set(key, id);
    return id;
  }
}

interface Compiled {
  include: PathAutomaton;
  exclude: PathAutomaton;
  matchAll: PathAutomaton;
}

const MATCH_ALL = ['*'];
const compiledCache = new WeakMap<SourceFilter, Compiled>();

function compile(filter: SourceFilter): Compiled {
  let c = compiledCache.get(filter);
  if (c === undefined) {
    const matchAll = new PathAutomaton(MATCH_ALL);
    c = {
      include: filter.includes.length === 0 ? matchAll : new PathAutomaton(filter.includes),
      exclude: new PathAutomaton(filter.excludes),
      matchAll,
    };
    compiledCache.set(filter, c);
  }
  return c;
}

/**
 * Applies `filter` to a decoded `_source`. Returns the source itself when nothing is filtered,
 * and `undefined` when `_source` is disabled. Pure: the input is never modified.
 */
export function applySourceFilter(source: unknown, filter: SourceFilter): unknown {
  if (!filter.enabled) return undefined;
  if ((filter.includes.length === 0 && filter.excludes.length === 0) || !isMap(source)) return source;
  const c = compile(filter);
  return filterMap(source, c.include, 0, c.exclude, 0, c);
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function filterMap(
  map: Record<string, unknown>,
  include: PathAutomaton,
  includeStart: number,
  exclude: PathAutomaton,
  excludeStart: number,
  c: Compiled,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(map)) {
    const includeState = include.stepString(includeStart, key);
    if (includeState === DEAD) continue;
    let excludeState = exclude.stepString(excludeStart, key);
    if (exclude.isAccept(excludeState)) continue;
    const value = map[key];
    let subInclude = include;
    let subIncludeState = includeState;
    const included = include.isAccept(includeState);
    if (included) {
      if (excludeState === DEAD || exclude.step(excludeState, 46) === DEAD) {
        // No exclude can match inside: keep the whole value.
        out[key] = value;
        continue;
      }
      // The object matched: everything inside is included, only excludes still matter.
      subInclude = c.matchAll;
      subIncludeState = 0;
    }
    if (isMap(value)) {
      subIncludeState = subInclude.step(subIncludeState, 46);
      if (subIncludeState === DEAD) continue;
      if (excludeState !== DEAD) excludeState = exclude.step(excludeState, 46);
      const filtered = filterMap(value, subInclude, subIncludeState, exclude, excludeState, c);
      if (included || Object.keys(filtered).length > 0) out[key] = filtered;
    } else if (Array.isArray(value)) {
      const filtered = filterArray(value, subInclude, subIncludeState, exclude, excludeState, c);
      if (included || filtered.length > 0) out[key] = filtered;
    } else if (included) {
      out[key] = value;
    }
  }
  return out;
}

function filterArray(
  values: unknown[],
  include: PathAutomaton,
  includeStart: number,
  exclude: PathAutomaton,
  excludeStart: number,
  c: Compiled,
): unknown[] {
  const out: unknown[] = [];
  const isInclude = include.isAccept(includeStart);
  for (const value of values) {
    if (isMap(value)) {
      const includeState = include.step(includeStart, 46);
      const excludeState = excludeStart === DEAD ? DEAD : exclude.step(excludeStart, 46);
      const filtered = filterMap(value, include, includeState, exclude, excludeState, c);
      if (Object.keys(filtered).length > 0) out.push(filtered);
    } else if (Array.isArray(value)) {
      const filtered = filterArray(value, include, includeStart, exclude, excludeStart, c);
      if (filtered.length > 0) out.push(filtered);
    } else if (isInclude) {
      // elastic/elasticsearch#22557: array values only when the array's own path is included.
      out.push(value);
    }
  }
  return out;
}
