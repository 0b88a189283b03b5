/**
 * Elasticsearch's response filtering, `?filter_path=` (FilterPath / FilterPathBasedFilter):
 * a comma list of dotted paths; `*` inside a name matches any characters, a whole `**`
 * segment matches any number of levels (zero included); a leading `-` excludes. Arrays are
 * transparent: paths apply to the objects inside them. Includes are applied first, then
 * excludes. A container left empty by filtering disappears; one that was empty is kept when
 * its path is included whole, or not excluded. Nothing left gives `{}`.
 */
import { RawJson } from '../json/raw-json.ts';

type Path = readonly string[];
interface State {
  path: Path;
  at: number;
}

export function filterPath<T>(value: T, filterPathParam: string | undefined): T | Record<string, never> {
  if (filterPathParam === undefined || filterPathParam.trim() === '') return value;
  const includes: Path[] = [];
  const excludes: Path[] = [];
  for (const raw of filterPathParam.split(',')) {
    const expr = raw.trim();
    if (expr === '' || expr === '-') continue;
    if (expr.startsWith('-')) excludes.push(expr.slice(1).split('.'));
    else includes.push(expr.split('.'));
  }
  let out: unknown = value;
  if (includes.length > 0) {
    out = include(
      value,
      includes.map((path) => ({ path, at: 0 })),
    );
    if (out === undefined) return {};
  }
  if (excludes.length > 0) {
    out = exclude(
      out,
      excludes.map((path) => ({ path, at: 0 })),
    );
    if (out === undefined) return {};
  }
  return out as T;
}

/** Whether every remaining segment is `**` (so the path already matches here). */
function complete(s: State): boolean {
  for (let k = s.at; k < s.path.length; k++) if (s.path[k] !== '**') return false;
  return true;
}

function advance(states: readonly State[], key: string): State[] {
  const next: State[] = [];
  for (const s of states) stepInto(next, s, key);
  return next;
}

/*
 * Module functions rather than closures in advance(): advance runs for every key of every
 * filtered object, and tsx (esbuild keepNames) wraps each named closure in an
 * Object.defineProperty call.
 */
function pushState(next: State[], s: State): void {
  if (!next.some((n) => n.path === s.path && n.at === s.at)) next.push(s);
}

function stepInto(next: State[], s: State, key: string): void {
  if (s.at >= s.path.length) return;
  const seg = s.path[s.at]!;
  if (seg === '**') {
    pushState(next, s); // ** consumes this key and stays
    stepInto(next, { path: s.path, at: s.at + 1 }, key); // or matches zero levels
  } else if (globMatch(seg, key)) {
    pushState(next, { path: s.path, at: s.at + 1 });
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RawJson);
}

function include(value: unknown, states: State[]): unknown {
  if (states.some(complete)) return value;
  // A raw scalar holds no key to keep (and keeps its exact text, `15.0`, when kept whole above).
  if (value instanceof RawJson) return value.isScalar ? undefined : include(value.parse(), states);
  if (Array.isArray(value)) {
    const kept = value.map((x) => include(x, states)).filter((x) => x !== undefined);
    return kept.length > 0 ? kept : undefined;
  }
  if (!isObject(value)) return undefined;
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of Object.entries(value)) {
    const next = advance(states, k);
    if (next.length === 0) continue;
    const r = include(v, next);
    if (r !== undefined) {
      out[k] = r;
      any = true;
    }
  }
  return any ? out : undefined;
}

function exclude(value: unknown, states: State[]): unknown {
  if (states.some(complete)) return undefined;
  if (states.length === 0) return value;
  if (value instanceof RawJson) return value.isScalar ? value : exclude(value.parse(), states);
  if (Array.isArray(value)) {
    if (value.length === 0) return value;
    const kept = value.map((x) => exclude(x, states)).filter((x) => x !== undefined);
    return kept.length > 0 ? kept : undefined;
  }
  if (!isObject(value)) return value;
  const entries = Object.entries(value);
  if (entries.length === 0) return value;
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of entries) {
    const r = exclude(v, advance(states, k));
    if (r !== undefined) {
      out[k] = r;
      any = true;
    }
  }
  return any ? out : undefined;
}

/** Glob.globMatch: `*` matches any run of characters. */
function globMatch(pattern: string, s: string): boolean {
  if (!pattern.includes('*')) return pattern === s;
  const parts = pattern.split('*');
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (s.length < first.length + last.length || !s.startsWith(first) || !s.endsWith(last)) return false;
  let at = first.length;
  const end = s.length - last.length;
  for (let k = 1; k < parts.length - 1; k++) {
    const p = parts[k]!;
    const found = s.indexOf(p, at);
    if (found === -1 || found + p.length > end) return false;
    at = found + p.length;
  }
  return true;
}
