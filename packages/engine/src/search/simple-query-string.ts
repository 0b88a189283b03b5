/**
 * `simple_query_string`: Lucene's SimpleQueryParser grammar (`+` and, `|` or, `-` not,
 * `"…"` phrases with `~N` slop, `term*` prefixes, `term~N` fuzziness, `( )` precedence,
 * `\` escapes, whitespace as the default operator), built left to right exactly as
 * SimpleQueryParser.buildQueryTree does — so `a b | c` and `foo -bar` (with OR: "foo, or
 * anything without bar") behave as in Elasticsearch. Each piece becomes, per field, the query
 * Elasticsearch's SimpleQueryStringQueryParser builds, combined over fields with a dis_max whose
 * tie_breaker is 1.0.
 */
import type { QueryNode } from '@shoal/protocol';
import type { ResolvedField } from '../contract.ts';
import { BoolWeight } from './bool-weight.ts';
import type { CompileEnv } from './compile-env.ts';
import { DisMaxWeight } from './dis-max-weight.ts';
import {
  INDEX_DEFAULT_FIELDS,
  lenientQuery,
  matchField,
  NONE,
  phraseField,
  type ResolvedFieldBoost,
  resolveFields,
} from './full-text.ts';
import { DEFAULT_FUZZY, type FuzzyOptions, fuzzyQuery } from './fuzzy.ts';
import { minimumShouldMatch } from './minimum-should-match.ts';
import { lowercases, prefixQuery } from './term-level.ts';
import { MatchAllWeight, type Weight } from './weights.ts';

type Sqs = Extract<QueryNode, { type: 'simple_query_string' }>;
type Occur = 'must' | 'should';

/** Leaf builders the parser calls as it meets each piece. */
export interface SqsLeaves<T> {
  text(text: string): T;
  phrase(text: string, slop: number): T;
  prefix(text: string): T;
  fuzzy(text: string, edits: number): T;
  not(branch: T): T;
  bool(clauses: { occur: Occur; q: T }[]): T;
}

interface State<T> {
  data: string[];
  index: number;
  end: number;
  top: T | { clauses: { occur: Occur; q: T }[] } | undefined;
  topIsWrapper: boolean;
  not: number;
  current: Occur | undefined;
  previous: Occur | undefined;
}

const WS = new Set([' ', '\t', '\n', '\r']);

/** Parses `query`; `T` is whatever the leaves build. Returns the top and whether it is a clause list. */
export function parseSimpleQuery<T>(
  query: string,
  defaultOp: Occur,
  leaves: SqsLeaves<T>,
): { top: T | undefined; wrapper: boolean } {
  const data = [...query];
  const state: State<T> = newState(data, 0, data.length);
  parseSub(state, defaultOp, leaves);
  if (state.top === undefined) return { top: undefined, wrapper: false };
  return { top: finish(state, leaves), wrapper: state.topIsWrapper };
}

function newState<T>(data: string[], index: number, end: number): State<T> {
  return {
    data,
    index,
    end,
    top: undefined,
    topIsWrapper: false,
    not: 0,
    current: undefined,
    previous: undefined,
  };
}

function finish<T>(s: State<T>, leaves: SqsLeaves<T>): T {
  return s.topIsWrapper
    ? leaves.bool((s.top as { clauses: { occur: Occur; q: T }[] }).clauses)
    : (s.top as T);
}

function parseSub<T>(s: State<T>, defaultOp: Occur, leaves: SqsLeaves<T>): void {
  while (s.index < s.end) {
    const c = s.data[s.index]!;
    if (c === '(') consumeSubQuery(s, defaultOp, leaves);
    else if (c === '"') consumePhrase(s, defaultOp, leaves);
    else if (c === '+' || c === '|') {
      if (s.current === undefined && s.top !== undefined) s.current = c === '+' ? 'must' : 'should';
      s.index++;
    } else if (c === '-') {
      s.not++;
      s.index++;
      continue;
    } else if (WS.has(c)) s.index++;
    else consumeToken(s, defaultOp, leaves);
    s.not = 0;
  }
}

function consumeSubQuery<T>(s: State<T>, defaultOp: Occur, leaves: SqsLeaves<T>): void {
  const start = ++s.index;
  let depth = 1;
  let escaped = false;
  while (s.index < s.end) {
    const c = s.data[s.index]!;
    if (!escaped) {
      if (c === '\\') {
        escaped = true;
        s.index++;
        continue;
      }
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) break;
    }
    escaped = false;
    s.index++;
  }
  if (s.index === s.end) {
    s.index = start; // no closing parenthesis: the opening one is ignored
  } else if (s.index === start) {
    s.current = undefined;
    s.index++;
  } else {
    const sub = newState<T>(s.data, start, s.index);
    parseSub(sub, defaultOp, leaves);
    if (sub.top !== undefined) buildTree(s, finish(sub, leaves), defaultOp, leaves);
    s.index++;
  }
}

function consumePhrase<T>(s: State<T>, defaultOp: Occur, leaves: SqsLeaves<T>): void {
  const start = ++s.index;
  let text = '';
  let escaped = false;
  let hasSlop = false;
  while (s.index < s.end) {
    const c = s.data[s.index]!;
    if (!escaped) {
      if (c === '\\') {
        escaped = true;
        s.index++;
        continue;
      }
      if (c === '"') {
        if (s.end > s.index + 1 && s.data[s.index + 1] === '~') {
          s.index++;
          if (s.end > s.index + 1) hasSlop = true;
        }
        break;
      }
    }
    escaped = false;
    text += c;
    s.index++;
  }
  if (s.index === s.end) {
    s.index = start; // no closing quote: the opening one is ignored
  } else if (s.index === start) {
    s.current = undefined;
    s.index++;
  } else {
    const slop = hasSlop ? parseFuzziness(s) : 0;
    buildTree(s, leaves.phrase(text, slop), defaultOp, leaves);
    s.index++;
  }
}

function tokenFinished<T>(s: State<T>): boolean {
  const c = s.data[s.index]!;
  return c === '"' || c === '|' || c === '+' || c === '(' || c === ')' || WS.has(c);
}

function consumeToken<T>(s: State<T>, defaultOp: Occur, leaves: SqsLeaves<T>): void {
  let text = '';
  let escaped = false;
  let prefix = false;
  let fuzzy = false;
  while (s.index < s.end) {
    const c = s.data[s.index]!;
    if (!escaped) {
      if (c === '\\') {
        escaped = true;
        prefix = false;
        s.index++;
        continue;
      }
      if (tokenFinished(s)) break;
      if (text.length > 0 && c === '~') {
        fuzzy = true;
        break;
      }
      prefix = text.length > 0 && c === '*';
    }
    escaped = false;
    text += c;
    s.index++;
  }
  if (text.length === 0) return;
  let branch: T;
  if (fuzzy) {
    const edits = Math.min(parseFuzziness(s), 2);
    branch = edits === 0 ? leaves.text(text) : leaves.fuzzy(text, edits);
  } else if (prefix) {
    branch = leaves.prefix(text.slice(0, -1));
  } else {
    branch = leaves.text(text);
  }
  buildTree(s, branch, defaultOp, leaves);
}

/** After `~`: the number up to the end of the token; empty means 2; bad text means 0. */
function parseFuzziness<T>(s: State<T>): number {
  if (s.data[s.index] !== '~') return 0;
  let text = '';
  while (s.index < s.end) {
    s.index++;
    if (s.index < s.end) {
      if (tokenFinished(s)) break;
      text += s.data[s.index];
    }
  }
  if (text === '') return 2;
  const n = /^[+-]?\d+$/.test(text) ? Number.parseInt(text, 10) : 0;
  return Math.max(n, 0);
}

function buildTree<T>(s: State<T>, branch: T, defaultOp: Occur, leaves: SqsLeaves<T>): void {
  if (s.not % 2 === 1) branch = leaves.not(branch);
  if (s.top === undefined) {
    s.top = branch;
    s.topIsWrapper = false;
  } else {
    s.current ??= defaultOp;
    if (s.previous !== s.current) {
      // The operation changed: what was built so far becomes one clause of a new parent.
      const prior = finish(s, leaves);
      s.top = { clauses: [{ occur: s.current, q: prior }] };
      s.topIsWrapper = true;
    }
    (s.top as { clauses: { occur: Occur; q: T }[] }).clauses.push({ occur: s.current, q: branch });
    s.previous = s.current;
  }
  s.current = undefined;
  s.not = 0;
}

export function simpleQueryString(env: CompileEnv, node: Sqs, boost: number): Weight {
  const resolved = resolveFields(env, node.fields.length > 0 ? node.fields : INDEX_DEFAULT_FIELDS);
  const lenient = node.lenient || resolved.lenient;
  const fields = resolved.fields;
  const op = node.defaultOperator;
  // getAnalyzer(ft).normalize: the built-in text analyzers but whitespace and keyword lowercase.
  const normalise = (field: ResolvedField, text: string): string =>
    field.type === 'text' && lowercases(node.analyzer ?? field.searchAnalyzer ?? field.analyzer)
      ? text.toLowerCase()
      : text;
  const fuzzy: FuzzyOptions = {
    ...DEFAULT_FUZZY,
    prefixLength: node.fuzzyPrefixLength ?? 0,
    maxExpansions: node.fuzzyMaxExpansions ?? 50,
    transpositions: node.fuzzyTranspositions ?? true,
  };
  const perField = (build: (fb: ResolvedFieldBoost, b: number) => Weight): Weight => {
    const parts = fields.map((fb) => lenientQuery(lenient, () => build(fb, Math.fround(boost * fb.boost))));
    if (parts.length === 0) return NONE;
    return parts.length === 1 ? parts[0]! : new DisMaxWeight(parts, 1);
  };
  const leaves: SqsLeaves<Weight> = {
    text: (text) =>
      perField((fb, b) =>
        matchField(
          env,
          fb.field,
          text,
          { operator: op, analyzer: node.analyzer, lenient, zeroTermsQuery: 'none' },
          b,
        ),
      ),
    phrase: (text, slop) =>
      perField((fb, b) =>
        phraseField(
          env,
          fb.field,
          text,
          { slop, analyzer: node.analyzer, zeroTermsQuery: 'none', lenient },
          b,
        ),
      ),
    prefix: (text) => perField((fb, b) => prefixQuery(env, fb.field, normalise(fb.field, text), b, false)),
    fuzzy: (text, edits) =>
      perField((fb, b) =>
        fuzzyQuery(env, fb.field, normalise(fb.field, text), { ...fuzzy, fuzziness: String(edits) }, b),
      ),
    not: (branch) => new BoolWeight([], [], [new MatchAllWeight(Math.fround(boost))], [branch], 0),
    bool: (clauses) =>
      new BoolWeight(
        clauses.filter((c) => c.occur === 'must').map((c) => c.q),
        [],
        clauses.filter((c) => c.occur === 'should').map((c) => c.q),
        [],
        0,
      ),
  };
  const { top, wrapper } = parseSimpleQuery(node.query, op === 'and' ? 'must' : 'should', leaves);
  if (!top) return NONE;
  // Queries.applyMinimumShouldMatch: also on a bool of only required clauses, where a spec
  // above 0 leaves more should clauses to match than there are, so nothing matches.
  if (wrapper && node.minimumShouldMatch !== undefined && top instanceof BoolWeight) {
    const msm = minimumShouldMatch(top.should.length, node.minimumShouldMatch, env);
    if (msm > 0) return new BoolWeight(top.must, top.filter, top.should, top.mustNot, msm);
  }
  return top;
}
