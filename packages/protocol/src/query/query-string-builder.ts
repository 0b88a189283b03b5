/**
 * What Elasticsearch's QueryStringQueryParser builds for each piece of a query string, expressed
 * with Shoal's query nodes: analysed text becomes `match` (one concrete field) or `multi_match`
 * (the default field, `*`, or a field pattern), quoted text a phrase, `field:>=5` a range,
 * `_exists_:f` and `f:*` an `exists`, `*:*` a `match_all`. Clauses combine as Lucene's
 * QueryParserBase.addClause does.
 */
import type { FieldBoost, PerFieldTemplate, QueryNode } from './ast.ts';
import { DEFAULT_TIE_BREAKER } from './full-text.ts';

type MultiMatchNode = Extract<QueryNode, { type: 'multi_match' }>;
export type MultiFieldType = MultiMatchNode['matchType'];

export interface QueryStringOptions {
  /** `df`; absent or `*` means every field (index.query.default_field). */
  defaultField?: string;
  /**
   * The `query_string` query's `fields`: what unprefixed terms search instead of one default
   * field, each with its boost (patterns allowed), combined per `type`.
   */
  fields?: FieldBoost[];
  defaultOperator?: 'or' | 'and';
  analyzer?: string;
  /** Analyzer of quoted phrases; absent means `analyzer`. */
  quoteAnalyzer?: string;
  /** Absent: lenient when querying every field, as Elasticsearch does. */
  lenient?: boolean;
  /** How analysed text over several fields is combined; absent means best_fields. */
  type?: MultiFieldType;
  /** The dis_max tie breaker across fields; absent means the type's own (1 for most_fields, bool_prefix). */
  tieBreaker?: number;
  /** Slop of quoted phrases without `~N`. */
  phraseSlop?: number;
  /** Edits of a bare `term~`; absent means AUTO. */
  fuzziness?: string;
  fuzzyPrefixLength?: number;
  fuzzyMaxExpansions?: number;
  fuzzyTranspositions?: boolean;
  fuzzyRewrite?: string;
  /** `false` fails `*foo` and `?foo` as Lucene's QueryParserBase does. */
  allowLeadingWildcard?: boolean;
  /** Applied to the bounds of ranges on date fields. */
  timeZone?: string;
  /** Bounds the automaton of a `/regexp/` term; absent means Lucene's 10000. */
  maxDeterminizedStates?: number;
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
  private readonly opts: QueryStringOptions;
  /** What unprefixed terms search when there is no default field: `fields`, or every field. */
  private readonly fields: FieldBoost[];
  private readonly type: MultiFieldType;
  private readonly tieBreaker: number;

  constructor(opts: QueryStringOptions) {
    this.opts = opts;
    this.operator = opts.defaultOperator ?? 'or';
    const df = opts.defaultField;
    const fields = opts.fields ?? [];
    this.defaultField = fields.length > 0 || df === undefined || df === '*' ? null : df;
    // No field at all: the index's `index.query.default_field`; `df=*` is every field.
    this.fields =
      fields.length > 0
        ? fields
        : df === undefined
          ? [{ field: '*', boost: 1, indexDefault: true }]
          : [{ field: '*', boost: 1 }];
    this.analyzer = opts.analyzer;
    this.lenient = opts.lenient ?? (this.defaultField === null && this.fields.some((f) => f.field === '*'));
    this.type = opts.type ?? 'best_fields';
    this.tieBreaker = opts.tieBreaker ?? DEFAULT_TIE_BREAKER[this.type];
  }

  /** Slop of a quoted phrase without `~N` (query_string's phrase_slop). */
  get phraseSlop(): number {
    return this.opts.phraseSlop ?? 0;
  }

  /** The fields a piece searches: its own (`f:`) or the default one, else `fields`. */
  private targets(f: string | null): FieldBoost[] {
    return f === null ? this.fields : [{ field: f, boost: 1 }];
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

  /**
   * Analysed text on one field (`match`) or on several (`multi_match` over a pattern or
   * `fields`, per `type`). A fuzzy term is a dis_max of its per-field fuzzy queries whatever the
   * type (QueryStringQueryParser.getFuzzyQuery), so best_fields with the group tie breaker.
   */
  textQuery(f: string | null, text: string, fuzziness: string | undefined): QueryNode {
    const type = fuzziness === undefined ? this.type : 'best_fields';
    const single = f !== null && !f.includes('*');
    if (single && (type === 'best_fields' || type === 'most_fields' || type === 'cross_fields')) {
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
      if (fuzziness !== undefined) this.fuzzyOptions(node, fuzziness);
      return node;
    }
    const node = this.multiMatch(this.targets(f), text, type, 0, this.analyzer);
    if (fuzziness !== undefined) this.fuzzyOptions(node, fuzziness);
    return node;
  }

  /** query_string's fuzzy_* options, on the nodes its `term~` become. */
  private fuzzyOptions(node: Extract<QueryNode, { type: 'match' | 'multi_match' }>, fuzziness: string): void {
    const o = this.opts;
    node.fuzziness = fuzziness;
    if (o.fuzzyPrefixLength !== undefined) node.prefixLength = o.fuzzyPrefixLength;
    if (o.fuzzyMaxExpansions !== undefined) node.maxExpansions = o.fuzzyMaxExpansions;
    if (o.fuzzyTranspositions !== undefined) node.fuzzyTranspositions = o.fuzzyTranspositions;
    if (o.fuzzyRewrite !== undefined) node.fuzzyRewrite = o.fuzzyRewrite;
  }

  private multiMatch(
    fields: FieldBoost[],
    text: string,
    matchType: MultiFieldType,
    slop: number,
    analyzer: string | undefined,
  ): MultiMatchNode {
    const node: MultiMatchNode = {
      type: 'multi_match',
      fields: fields.map((fb) => ({ ...fb })),
      query: text,
      matchType,
      operator: this.operator,
      tieBreaker: this.tieBreaker,
      slop,
      lenient: this.lenient,
      zeroTermsQuery: 'none',
      boost: 1,
    };
    if (analyzer !== undefined) node.analyzer = analyzer;
    return node;
  }

  /**
   * getFieldQuery(field, text, slop) for quoted text: a phrase on every field whatever the
   * `type`, analysed with quote_analyzer, else analyzer.
   */
  phraseQuery(field: string | null, text: string, slop: number): QueryNode {
    const f = field ?? this.defaultField;
    if (f === '_exists_') return { type: 'exists', field: text, boost: 1 };
    const analyzer = this.opts.quoteAnalyzer ?? this.analyzer;
    if (f !== null && !f.includes('*')) {
      const node: QueryNode = {
        type: 'match_phrase',
        field: f,
        query: text,
        slop,
        zeroTermsQuery: 'none',
        boost: 1,
      };
      if (analyzer !== undefined) node.analyzer = analyzer;
      return node;
    }
    return this.multiMatch(this.targets(f), text, 'phrase', slop, analyzer);
  }

  /**
   * A term-level piece (range, prefix, wildcard, regexp) on each target field, with that field's
   * boost. Several fields, or a pattern that only the shard's mapping resolves, become a
   * `per_field` node: the shard builds the piece on every field it resolves and joins them in a
   * dis_max with the group tie breaker, as QueryStringQueryParser does.
   */
  private perField(field: string | null, build: (f: string) => QueryNode): QueryNode {
    const targets = this.targets(field ?? this.defaultField);
    if (targets.length === 1 && !targets[0]!.field.includes('*')) {
      const node = build(targets[0]!.field);
      if ('boost' in node) node.boost = Math.fround(node.boost * targets[0]!.boost);
      return node;
    }
    return {
      type: 'per_field',
      fields: targets,
      template: build('') as PerFieldTemplate,
      tieBreaker: this.tieBreaker,
      lenient: this.lenient,
      boost: 1,
    };
  }

  /** getRangeQuery: `*` bounds are open. */
  rangeQuery(
    field: string | null,
    lower: string | null,
    upper: string | null,
    lowerInc: boolean,
    upperInc: boolean,
  ): QueryNode {
    return this.perField(field, (f) => {
      const node: QueryNode = { type: 'range', field: f, boost: 1 };
      if (lower !== null && lower !== '*') node[lowerInc ? 'gte' : 'gt'] = lower;
      if (upper !== null && upper !== '*') node[upperInc ? 'lte' : 'lt'] = upper;
      if (this.opts.timeZone !== undefined) node.timeZone = this.opts.timeZone;
      return node;
    });
  }

  prefixQuery(field: string | null, value: string): QueryNode {
    return this.perField(field, (f) => ({
      type: 'prefix',
      field: f,
      value,
      boost: 1,
      caseInsensitive: false,
    }));
  }

  /** getWildcardQuery: a lone `*` matches every document, or every document with the field. */
  wildcardQuery(field: string | null, pattern: string): QueryNode {
    const f = field ?? this.defaultField;
    if (pattern === '*') {
      if (f === null && this.opts.fields !== undefined && this.opts.fields.length > 0) {
        // With `fields`, an exists query on each field (getWildcardQuerySingle).
        return this.perField(null, (fd) => ({ type: 'exists', field: fd, boost: 1 }));
      }
      if (f === null || /^\*+$/.test(f)) return { type: 'match_all', boost: 1 };
      return { type: 'exists', field: f, boost: 1 };
    }
    if (this.opts.allowLeadingWildcard === false && (pattern[0] === '*' || pattern[0] === '?')) {
      throw new QueryStringSyntaxError("'*' or '?' not allowed as first character in WildcardQuery");
    }
    return this.perField(field, (fd) => ({
      type: 'wildcard',
      field: fd,
      value: pattern,
      boost: 1,
      caseInsensitive: false,
    }));
  }

  /** handleBareFuzzy: `~` alone uses the default fuzziness (AUTO), `~N` that many edits. */
  fuzzyQuery(field: string | null, text: string, slopImage: string): QueryNode {
    let fuzziness = this.opts.fuzziness ?? 'AUTO';
    if (slopImage.length > 1) {
      const f = Number(slopImage.slice(1));
      if (Number.isNaN(f)) throw new QueryStringSyntaxError(`For input string: "${slopImage.slice(1)}"`);
      fuzziness = f >= 2 ? '2' : f >= 1 ? '1' : '0';
    }
    return this.textQuery(field ?? this.defaultField, text, fuzziness);
  }

  /** getRegexpQuery: every syntax flag (RegExp.ALL), bounded by max_determinized_states. */
  regexpQuery(field: string | null, value: string): QueryNode {
    return this.perField(field, (f) => ({
      type: 'regexp',
      field: f,
      value,
      flags: 0xff,
      caseInsensitive: false,
      maxDeterminizedStates: this.opts.maxDeterminizedStates ?? 10000,
      boost: 1,
    }));
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
