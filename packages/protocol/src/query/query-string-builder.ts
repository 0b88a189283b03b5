/**
 * What Elasticsearch's QueryStringQueryParser builds for each piece of a query string, expressed
 * with Shoal's query nodes: analysed text becomes `match` (one concrete field) or `multi_match`
 * (the default field, `*`, or a field pattern), quoted text a phrase, `field:>=5` a range,
 * `_exists_:f` and `f:*` an `exists`, `*:*` a `match_all`. Clauses combine as Lucene's
 * QueryParserBase.addClause does.
 */
import { notImplemented } from '../errors/catalogue.ts';
import type { QueryNode } from './ast.ts';

export interface QueryStringOptions {
  /** `df`; absent or `*` means every field (index.query.default_field). */
  defaultField?: string;
  defaultOperator?: 'or' | 'and';
  analyzer?: string;
  /** Absent: lenient when querying every field, as Elasticsearch does. */
  lenient?: boolean;
}

export type Occur = 'must' | 'should' | 'must_not';
export interface Clause {
  occur: Occur;
  q: QueryNode;
}

export const CONJ_NONE = 0;
export const CONJ_AND = 1;
export const CONJ_OR = 2;
export const MOD_NONE = 0;
export const MOD_NOT = 10;
export const MOD_REQ = 11;

/** A syntax-level failure; the parser turns it into Lucene's "Cannot parse" ParseException. */
export class QueryStringSyntaxError extends Error {}

export class QueryStringBuilder {
  readonly operator: 'or' | 'and';
  /** The parser's default field: null means all fields (Elasticsearch passes no field then). */
  readonly defaultField: string | null;
  private readonly analyzer: string | undefined;
  private readonly lenient: boolean;

  constructor(opts: QueryStringOptions) {
    this.operator = opts.defaultOperator ?? 'or';
    const df = opts.defaultField;
    this.defaultField = df === undefined || df === '*' ? null : df;
    this.analyzer = opts.analyzer;
    this.lenient = opts.lenient ?? this.defaultField === null;
  }

  /** QueryParserBase.addClause. */
  addClause(clauses: Clause[], conj: number, mods: number, q: QueryNode | null): void {
    const last = clauses[clauses.length - 1];
    if (last !== undefined && conj === CONJ_AND && last.occur !== 'must_not') last.occur = 'must';
    if (last !== undefined && this.operator === 'and' && conj === CONJ_OR && last.occur !== 'must_not') {
      last.occur = 'should';
    }
    if (q === null) return;
    const prohibited = mods === MOD_NOT;
    const required =
      this.operator === 'or'
        ? mods === MOD_REQ || (conj === CONJ_AND && !prohibited)
        : !prohibited && conj !== CONJ_OR;
    clauses.push({ q, occur: prohibited ? 'must_not' : required ? 'must' : 'should' });
  }

  /** QueryParser.addMultiTermClauses: analysed text joins as one clause, required under AND. */
  addMultiTermClauses(clauses: Clause[], q: QueryNode | null): void {
    if (q !== null) clauses.push({ q, occur: this.operator === 'and' ? 'must' : 'should' });
  }

  /** getBooleanQuery: null when no clause survived. */
  booleanQuery(clauses: Clause[]): QueryNode | null {
    if (clauses.length === 0) return null;
    const node: QueryNode = { type: 'bool', must: [], filter: [], should: [], mustNot: [], boost: 1 };
    for (const c of clauses)
      (c.occur === 'must' ? node.must : c.occur === 'should' ? node.should : node.mustNot).push(c.q);
    return node;
  }

  /** QueryStringQueryParser.getFieldQuery for unquoted text. */
  fieldQuery(field: string | null, text: string): QueryNode {
    const f = field ?? this.defaultField;
    if (f === '_exists_') return { type: 'exists', field: text, boost: 1 };
    // `age:>=10` and friends: one-sided ranges, only when a field (or df) is given.
    if (f !== null && text.length > 1) {
      if (text[0] === '>') {
        if (text.length > 2 && text[1] === '=') return this.rangeQuery(f, text.slice(2), null, true, true);
        return this.rangeQuery(f, text.slice(1), null, false, true);
      }
      if (text[0] === '<') {
        if (text.length > 2 && text[1] === '=') return this.rangeQuery(f, null, text.slice(2), true, true);
        return this.rangeQuery(f, null, text.slice(1), true, false);
      }
    }
    return this.textQuery(f, text, undefined);
  }

  /** Analysed text on one field (`match`) or on several (`multi_match` over a pattern). */
  textQuery(f: string | null, text: string, fuzziness: string | undefined): QueryNode {
    if (f !== null && !f.includes('*')) {
      const node: QueryNode = {
        type: 'match',
        field: f,
        query: text,
        operator: this.operator,
        zeroTermsQuery: 'none',
        lenient: this.lenient,
        boost: 1,
      };
      if (this.analyzer !== undefined) node.analyzer = this.analyzer;
      if (fuzziness !== undefined) node.fuzziness = fuzziness;
      return node;
    }
    const node = this.multiMatch(f, text, 'best_fields', 0);
    if (fuzziness !== undefined) node.fuzziness = fuzziness;
    return node;
  }

  private multiMatch(f: string | null, text: string, matchType: 'best_fields' | 'phrase', slop: number) {
    const node: Extract<QueryNode, { type: 'multi_match' }> = {
      type: 'multi_match',
      fields: [{ field: f ?? '*', boost: 1 }],
      query: text,
      matchType,
      operator: this.operator,
      tieBreaker: 0,
      slop,
      lenient: this.lenient,
      zeroTermsQuery: 'none',
      boost: 1,
    };
    if (this.analyzer !== undefined) node.analyzer = this.analyzer;
    return node;
  }

  /** getFieldQuery(field, text, slop) for quoted text. */
  phraseQuery(field: string | null, text: string, slop: number): QueryNode {
    const f = field ?? this.defaultField;
    if (f === '_exists_') return { type: 'exists', field: text, boost: 1 };
    if (f !== null && !f.includes('*')) {
      const node: QueryNode = {
        type: 'match_phrase',
        field: f,
        query: text,
        slop,
        zeroTermsQuery: 'none',
        boost: 1,
      };
      if (this.analyzer !== undefined) node.analyzer = this.analyzer;
      return node;
    }
    return this.multiMatch(f, text, 'phrase', slop);
  }

  /** getRangeQuery: `*` bounds are open. */
  rangeQuery(
    field: string | null,
    lower: string | null,
    upper: string | null,
    lowerInc: boolean,
    upperInc: boolean,
  ) {
    const node: QueryNode = { type: 'range', field: field ?? this.defaultField ?? '*', boost: 1 };
    if (lower !== null && lower !== '*') node[lowerInc ? 'gte' : 'gt'] = lower;
    if (upper !== null && upper !== '*') node[upperInc ? 'lte' : 'lt'] = upper;
    return node;
  }

  prefixQuery(field: string | null, value: string): QueryNode {
    const f = field ?? this.defaultField ?? '*';
    return { type: 'prefix', field: f, value, boost: 1, caseInsensitive: false };
  }

  /** getWildcardQuery: a lone `*` matches every document, or every document with the field. */
  wildcardQuery(field: string | null, pattern: string): QueryNode {
    const f = field ?? this.defaultField;
    if (pattern === '*') {
      if (f === null || /^\*+$/.test(f)) return { type: 'match_all', boost: 1 };
      return { type: 'exists', field: f, boost: 1 };
    }
    return { type: 'wildcard', field: f ?? '*', value: pattern, boost: 1, caseInsensitive: false };
  }

  /** handleBareFuzzy: `~` alone uses the default fuzziness (AUTO), `~N` that many edits. */
  fuzzyQuery(field: string | null, text: string, slopImage: string): QueryNode {
    let fuzziness = 'AUTO';
    if (slopImage.length > 1) {
      const f = Number(slopImage.slice(1));
      if (Number.isNaN(f)) throw new QueryStringSyntaxError(`For input string: "${slopImage.slice(1)}"`);
      fuzziness = f >= 2 ? '2' : f >= 1 ? '1' : '0';
    }
    return this.textQuery(field ?? this.defaultField, text, fuzziness);
  }

  /** Shoal has no regexp query, so `/…/` cannot be executed. */
  regexpQuery(): never {
    throw notImplemented('the regular expression syntax (/…/) of query strings');
  }
}

/** Multiplies a node's boost (Lucene wraps it in a BoostQuery). */
export function applyBoost(q: QueryNode | null, boost: string | undefined): QueryNode | null {
  if (q === null || boost === undefined || !('boost' in q)) return q;
  q.boost = Math.fround(q.boost * Math.fround(Number(boost)));
  return q;
}

/** QueryParserBase.discardEscapeChar: drops backslashes, decodes `\uXXXX`. */
export function discardEscapeChar(input: string): string {
  let out = '';
  let escaped = false;
  let multiplier = 0;
  let codePoint = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (multiplier > 0) {
      codePoint += hexToInt(c) * multiplier;
      multiplier >>>= 4;
      if (multiplier === 0) {
        out += String.fromCharCode(codePoint);
        codePoint = 0;
      }
    } else if (escaped) {
      if (c === 'u') multiplier = 16 * 16 * 16;
      else out += c;
      escaped = false;
    } else if (c === '\\') {
      escaped = true;
    } else {
      out += c;
    }
  }
  if (multiplier > 0) throw new QueryStringSyntaxError('Truncated unicode escape sequence.');
  if (escaped) throw new QueryStringSyntaxError('Term can not end with escape character.');
  return out;
}

function hexToInt(c: string): number {
  const n = Number.parseInt(c, 16);
  if (Number.isNaN(n)) throw new QueryStringSyntaxError(`Non-hex character in Unicode escape sequence: ${c}`);
  return n;
}
