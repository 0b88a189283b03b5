/**
 * What a query asks the unified highlighter to mark, per field: terms, phrases and multi-term
 * matchers (prefix, wildcard, regexp, fuzzy, range), as Lucene's UnifiedHighlighter extracts
 * them by visiting the query — every clause but `must_not` (filters included). Full-text
 * queries are analysed with their field's search analyzer, as the shard's query compiler does.
 */
import type { JsonScalar, QueryNode } from '@shoal/protocol';
import { notImplemented } from '@shoal/protocol';
import { getAnalyzer } from '../analysis/index.ts';
import type { IndexMapping, ResolvedField } from '../contract.ts';
import { editDistance, fuzzyEdits } from '../search/fuzzy.ts';
import { compileRegExp } from '../search/regexp-automaton.ts';
import { lowercases } from '../search/term-level.ts';

export type HighlightClause =
  | { kind: 'term'; field: string; term: string }
  | {
      kind: 'phrase';
      field: string;
      /** The terms at each relative position; the last may be a prefix. */
      positions: { offset: number; terms: string[] }[];
      lastIsPrefix: boolean;
      key: string;
    }
  | { kind: 'multi'; field: string; test: (term: string) => boolean };

const HIGHLIGHTABLE = new Set(['text', 'keyword']);

/** Query types with nothing to highlight (no terms on a text or keyword field). */
const NOTHING = new Set([
  'match_all',
  'match_none',
  'exists',
  'ids',
  'geo_distance',
  'geo_bounding_box',
  'distance_feature',
  'rank_feature',
]);

/**
 * The 501 for a query the highlighter cannot reproduce exactly (checked on the coordinator,
 * before any shard work).
 */
export function refuseUnhighlightable(q: QueryNode): void {
  switch (q.type) {
    case 'bool':
      for (const c of [...q.must, ...q.filter, ...q.should]) refuseUnhighlightable(c);
      return;
    case 'constant_score':
      refuseUnhighlightable(q.filter);
      return;
    case 'dis_max':
      for (const c of q.queries) refuseUnhighlightable(c);
      return;
    case 'boosting':
      refuseUnhighlightable(q.positive);
      return;
    case 'function_score':
      refuseUnhighlightable(q.query);
      return;
    case 'match_phrase':
    case 'match_phrase_prefix':
      if (q.slop > 0) throw notImplemented('highlighting a sloppy phrase (slop > 0)');
      return;
    case 'multi_match':
      if ((q.matchType === 'phrase' || q.matchType === 'phrase_prefix') && q.slop > 0)
        throw notImplemented('highlighting a sloppy phrase (slop > 0)');
      return;
    case 'simple_query_string':
      throw notImplemented('highlighting a simple_query_string query');
    case 'pinned':
      refuseUnhighlightable(q.organic);
      return;
    case 'intervals':
    case 'more_like_this':
      throw notImplemented(`highlighting a ${q.type} query`);
    default:
      return;
  }
}

interface Env {
  mapping: IndexMapping;
  out: HighlightClause[];
}

function fieldsOf(env: Env, name: string): ResolvedField[] {
  if (name.includes('*')) return env.mapping.fieldsMatching(name).filter((f) => HIGHLIGHTABLE.has(f.type));
  const f = env.mapping.field(name);
  return f && HIGHLIGHTABLE.has(f.type) ? [f] : [];
}

function scalar(v: JsonScalar): string {
  return v === null ? '' : String(v);
}

/** A term query's bytes: keywords through their normalizer, text as given. */
function exactTerm(f: ResolvedField, value: string): string {
  return f.type === 'keyword' && (f as { normalizer?: string }).normalizer === 'lowercase'
    ? value.toLowerCase()
    : value;
}

function searchTokens(
  f: ResolvedField,
  text: string,
  analyzer?: string,
): { position: number; term: string }[] {
  if (f.type !== 'text') return [{ position: 0, term: exactTerm(f, text) }];
  const a = getAnalyzer(analyzer ?? f.searchAnalyzer ?? f.analyzer ?? 'default');
  return a ? a.analyze(text) : [];
}

function matchTerms(
  env: Env,
  f: ResolvedField,
  text: string,
  analyzer: string | undefined,
  fuzziness: string | undefined,
  prefixLength: number,
  lastPrefix: boolean,
): void {
  const tokens = searchTokens(f, text, analyzer);
  tokens.forEach((t, i) => {
    if (lastPrefix && i === tokens.length - 1) {
      env.out.push({ kind: 'multi', field: f.path, test: (x) => x.startsWith(t.term) });
    } else if (fuzziness !== undefined && fuzzyEdits(fuzziness, t.term) > 0) {
      env.out.push({
        kind: 'multi',
        field: f.path,
        test: fuzzyTest(t.term, fuzzyEdits(fuzziness, t.term), prefixLength),
      });
    } else env.out.push({ kind: 'term', field: f.path, term: t.term });
  });
}

function phrase(
  env: Env,
  f: ResolvedField,
  text: string,
  analyzer: string | undefined,
  lastIsPrefix: boolean,
): void {
  const tokens = searchTokens(f, text, analyzer);
  if (tokens.length === 0) return;
  if (tokens.length === 1 && !lastIsPrefix) {
    env.out.push({ kind: 'term', field: f.path, term: tokens[0]!.term });
    return;
  }
  const first = tokens[0]!.position;
  const byPos = new Map<number, string[]>();
  for (const t of tokens) {
    const list = byPos.get(t.position - first);
    if (list) list.push(t.term);
    else byPos.set(t.position - first, [t.term]);
  }
  const positions = [...byPos].map(([offset, terms]) => ({ offset, terms }));
  env.out.push({
    kind: 'phrase',
    field: f.path,
    positions,
    lastIsPrefix,
    key: `"${positions.map((p) => p.terms.join('|')).join(' ')}${lastIsPrefix ? '*' : ''}"`,
  });
}

function fuzzyTest(term: string, edits: number, prefixLength: number): (t: string) => boolean {
  const a = [...term];
  const prefix = a.slice(0, prefixLength).join('');
  return (t) => {
    if (!t.startsWith(prefix)) return false;
    const b = [...t];
    return editDistance(a, b, edits) <= edits;
  };
}

function wildcardTest(pattern: string, ci: boolean): (t: string) => boolean {
  let src = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) src += escapeRe(pattern[++i]!);
    else if (c === '*') src += '[\\s\\S]*';
    else if (c === '?') src += '[\\s\\S]';
    else src += escapeRe(c);
  }
  const re = new RegExp(`${src}$`, ci ? 'iu' : 'u');
  return (t) => re.test(t);
}

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function rangeTest(q: Extract<QueryNode, { type: 'range' }>): (t: string) => boolean {
  const lo = q.gt ?? q.gte;
  const hi = q.lt ?? q.lte;
  return (t) => {
    if (lo !== undefined && lo !== null) {
      const c = compareUtf8(t, String(lo));
      if (c < 0 || (c === 0 && q.gt !== undefined)) return false;
    }
    if (hi !== undefined && hi !== null) {
      const c = compareUtf8(t, String(hi));
      if (c > 0 || (c === 0 && q.lt !== undefined)) return false;
    }
    return true;
  };
}

/** BytesRef order: code points compare as UTF-8 bytes do. */
function compareUtf8(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function termLevel(env: Env, q: Extract<QueryNode, { field: string }>): void {
  for (const f of fieldsOf(env, q.field)) {
    switch (q.type) {
      case 'term':
        if (q.caseInsensitive) {
          const v = scalar(q.value).toLowerCase();
          env.out.push({ kind: 'multi', field: f.path, test: (t) => t.toLowerCase() === v });
        } else env.out.push({ kind: 'term', field: f.path, term: exactTerm(f, scalar(q.value)) });
        break;
      case 'terms':
        for (const v of q.values)
          env.out.push({ kind: 'term', field: f.path, term: exactTerm(f, scalar(v)) });
        break;
      case 'prefix': {
        const p = q.caseInsensitive ? q.value.toLowerCase() : exactTerm(f, q.value);
        env.out.push({
          kind: 'multi',
          field: f.path,
          test: q.caseInsensitive ? (t) => t.toLowerCase().startsWith(p) : (t) => t.startsWith(p),
        });
        break;
      }
      case 'wildcard': {
        let pattern = q.value;
        if (f.type === 'text' && lowercases(f.searchAnalyzer ?? f.analyzer)) pattern = pattern.toLowerCase();
        else pattern = exactTerm(f, pattern);
        env.out.push({ kind: 'multi', field: f.path, test: wildcardTest(pattern, q.caseInsensitive) });
        break;
      }
      case 'regexp': {
        const re = compileRegExp(q.value, q.flags, q.caseInsensitive);
        env.out.push({ kind: 'multi', field: f.path, test: (t) => re.matches(t) });
        break;
      }
      case 'fuzzy': {
        const v = exactTerm(f, scalar(q.value));
        env.out.push({
          kind: 'multi',
          field: f.path,
          test: fuzzyTest(v, fuzzyEdits(q.fuzziness, v), q.prefixLength),
        });
        break;
      }
      case 'range':
        env.out.push({ kind: 'multi', field: f.path, test: rangeTest(q) });
        break;
      case 'match':
        matchTerms(env, f, scalar(q.query), q.analyzer, q.fuzziness, q.prefixLength ?? 0, false);
        break;
      case 'match_bool_prefix':
        matchTerms(env, f, scalar(q.query), q.analyzer, q.fuzziness, q.prefixLength ?? 0, true);
        break;
      case 'match_phrase':
        phrase(env, f, q.query, q.analyzer, false);
        break;
      case 'match_phrase_prefix':
        phrase(env, f, q.query, q.analyzer, true);
        break;
      default:
        break;
    }
  }
}

function visit(env: Env, q: QueryNode): void {
  if (NOTHING.has(q.type)) return;
  switch (q.type) {
    case 'bool':
      for (const c of [...q.must, ...q.filter, ...q.should]) visit(env, c);
      return;
    case 'constant_score':
      visit(env, q.filter);
      return;
    case 'dis_max':
      for (const c of q.queries) visit(env, c);
      return;
    case 'boosting':
      visit(env, q.positive);
      return;
    case 'function_score':
      visit(env, q.query);
      return;
    case 'pinned':
      visit(env, q.organic);
      return;
    case 'multi_match':
      for (const fb of q.fields) {
        const text = scalar(q.query);
        for (const f of fieldsOf(env, fb.field)) {
          if (q.matchType === 'phrase') phrase(env, f, text, q.analyzer, false);
          else if (q.matchType === 'phrase_prefix') phrase(env, f, text, q.analyzer, true);
          else
            matchTerms(
              env,
              f,
              text,
              q.analyzer,
              q.fuzziness,
              q.prefixLength ?? 0,
              q.matchType === 'bool_prefix',
            );
        }
      }
      return;
    case 'per_field':
      for (const fb of q.fields)
        termLevel(env, { ...q.template, field: fb.field } as Extract<QueryNode, { field: string }>);
      return;
    case 'simple_query_string':
      return;
    default:
      if ('field' in q) termLevel(env, q as Extract<QueryNode, { field: string }>);
  }
}

/** Every clause of `query` the highlighter marks, with the concrete field each one targets. */
export function highlightClauses(query: QueryNode, mapping: IndexMapping): HighlightClause[] {
  const env: Env = { mapping, out: [] };
  visit(env, query);
  return env.out;
}
