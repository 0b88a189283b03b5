/**
 * The URL `q=` parameter: Lucene's classic query syntax as Elasticsearch's `query_string` parses
 * it (QueryParser.jj with split_on_whitespace off), turned into Shoal query nodes.
 *
 * The parser mirrors the JavaCC-generated one closely enough to reproduce its failures: the
 * "expected" token kinds are collected at each choice point the parser passes without consuming a
 * token, exactly as JavaCC's `jj_la1` bookkeeping does, so that a syntax error reads
 * `Cannot parse 'foo:': Encountered "<EOF>" at line 1, column 4. Was expecting one of: …`.
 */
import { isShoalError } from '../errors/shoal-error.ts';
import type { QueryNode } from './ast.ts';
import { luceneParseError, queryShardError, tokenMgrError } from './local-errors.ts';
import {
  applyBoost,
  type Clause,
  CONJ_AND,
  CONJ_NONE,
  CONJ_OR,
  discardEscapeChar,
  MOD_NONE,
  MOD_NOT,
  MOD_REQ,
  QueryStringBuilder,
  type QueryStringOptions,
  QueryStringSyntaxError,
} from './query-string-builder.ts';
import { javaccEscape, Kind, Lexer, LexicalError, TOKEN_IMAGE, type Tok } from './query-string-lexer.ts';

export type { QueryStringOptions } from './query-string-builder.ts';

/** Kinds a Term can start with (Clause's first alternative). */
const TERM_FIRST: readonly Kind[] = [
  Kind.BAREOPER,
  Kind.STAR,
  Kind.QUOTED,
  Kind.TERM,
  Kind.PREFIXTERM,
  Kind.WILDTERM,
  Kind.REGEXPTERM,
  Kind.RANGEIN_START,
  Kind.RANGEEX_START,
  Kind.NUMBER,
];
const CLAUSE_FIRST: readonly Kind[] = [...TERM_FIRST, Kind.LPAREN];
const QUERY_FIRST: readonly Kind[] = [Kind.NOT, Kind.PLUS, Kind.MINUS, ...CLAUSE_FIRST];
const LOOP_FIRST: readonly Kind[] = [Kind.AND, Kind.OR, ...QUERY_FIRST];
const LOOP_FIRST_SET = new Set<Kind>(LOOP_FIRST);
const QUERY_FIRST_SET = new Set<Kind>(QUERY_FIRST);
/** QueryParser.disallowedPostMultiTerm. */
const NOT_AFTER_MULTI_TERM = new Set<Kind>([
  Kind.COLON,
  Kind.STAR,
  Kind.FUZZY_SLOP,
  Kind.CARAT,
  Kind.AND,
  Kind.OR,
]);

/**
 * Parses `q`. A syntax error throws `query_shard_exception` `Failed to parse query [q]` (without
 * index metadata: the coordinator adds it per shard and wraps it as a shard failure), caused by
 * Lucene's `parse_exception` `Cannot parse 'q': …`. `shown` is the text the outer message
 * quotes when `q` was rewritten first (query_string's `escape`).
 */
export function parseQueryString(q: string, opts: QueryStringOptions = {}, shown = q): QueryNode {
  // QueryStringQueryParser.parse: a blank query matches nothing.
  if (q.trim().length === 0) return { type: 'match_none' };
  const builder = new QueryStringBuilder(opts);
  try {
    return new QueryStringParser(q, builder).topLevel() ?? { type: 'match_none' };
  } catch (e) {
    if (isShoalError(e)) throw e;
    if (e instanceof LexicalError || e instanceof QueryStringSyntaxError) {
      const inner = e instanceof LexicalError ? tokenMgrError(e.message) : luceneParseError(e.message);
      throw queryShardError(
        `Failed to parse query [${shown}]`,
        luceneParseError(`Cannot parse '${q}': ${e.message}`, inner),
      );
    }
    throw e;
  }
}

class QueryStringParser {
  private readonly lexer: Lexer;
  private readonly b: QueryStringBuilder;
  private i = 0;
  /** Kinds the choice points passed at the current token would have accepted. */
  private readonly expected = new Set<Kind>();

  constructor(q: string, builder: QueryStringBuilder) {
    this.lexer = new Lexer(q);
    this.b = builder;
  }

  topLevel(): QueryNode | null {
    const q = this.query(null);
    this.consume(Kind.EOF);
    return q;
  }

  private peek(k = 0): Tok {
    return this.lexer.at(this.i + k);
  }

  private kind(): Kind {
    return this.peek().kind;
  }

  private take(): Tok {
    const t = this.peek();
    this.i++;
    this.expected.clear();
    return t;
  }

  private consume(kind: Kind): Tok {
    if (this.kind() !== kind) {
      this.expected.add(kind);
      throw this.syntaxError();
    }
    return this.take();
  }

  private record(kinds: readonly Kind[]): void {
    for (const k of kinds) this.expected.add(k);
  }

  /** JavaCC's ParseException message for the token at hand. */
  private syntaxError(): QueryStringSyntaxError {
    const t = this.peek();
    const shown =
      t.kind === Kind.EOF ? TOKEN_IMAGE[0] : ` ${TOKEN_IMAGE[t.kind]} "${javaccEscape(t.image)} "`;
    let msg = `Encountered "${shown}" at line 1, column ${t.col}.\n`;
    const kinds = [...this.expected].sort((a, b) => a - b);
    if (kinds.length > 0) {
      msg += kinds.length === 1 ? 'Was expecting:\n    ' : 'Was expecting one of:\n    ';
      for (const k of kinds) msg += `${TOKEN_IMAGE[k]} ${k === Kind.EOF ? '' : '...'}\n    `;
    }
    return new QueryStringSyntaxError(msg);
  }

  /** LOOKAHEAD(2) MultiTerm: two bare terms, not followed by what would bind the second. */
  private multiTermAhead(): boolean {
    return (
      this.peek(0).kind === Kind.TERM &&
      this.peek(1).kind === Kind.TERM &&
      !NOT_AFTER_MULTI_TERM.has(this.peek(2).kind)
    );
  }

  private query(field: string | null): QueryNode | null {
    const clauses: Clause[] = [];
    let first: QueryNode | null = null;
    if (this.multiTermAhead()) {
      first = this.multiTerm(field, clauses);
    } else {
      if (!QUERY_FIRST_SET.has(this.kind())) {
        this.record(QUERY_FIRST);
        throw this.syntaxError();
      }
      const mods = this.modifiers();
      const q = this.clause(field);
      this.b.addClause(clauses, CONJ_NONE, mods, q);
      if (mods === MOD_NONE) first = q;
    }
    for (;;) {
      if (!LOOP_FIRST_SET.has(this.kind())) {
        this.record(LOOP_FIRST);
        break;
      }
      if (this.multiTermAhead()) {
        this.multiTerm(field, clauses);
        continue;
      }
      const conj = this.conjunction();
      const mods = this.modifiers();
      this.b.addClause(clauses, conj, mods, this.clause(field));
    }
    if (clauses.length === 1 && first !== null) return first;
    return this.b.booleanQuery(clauses);
  }

  /** Consecutive bare terms are analysed together (split_on_whitespace=false). */
  private multiTerm(field: string | null, clauses: Clause[]): QueryNode | null {
    let text = this.take().image;
    do {
      text += ` ${this.take().image}`;
    } while (this.peek(0).kind === Kind.TERM && !NOT_AFTER_MULTI_TERM.has(this.peek(1).kind));
    const q = this.b.fieldQuery(field, discardEscapeChar(text));
    this.b.addMultiTermClauses(clauses, q);
    return q;
  }

  private modifiers(): number {
    const k = this.kind();
    if (k === Kind.PLUS || k === Kind.MINUS || k === Kind.NOT) {
      this.take();
      return k === Kind.PLUS ? MOD_REQ : MOD_NOT;
    }
    this.record([Kind.NOT, Kind.PLUS, Kind.MINUS]);
    return MOD_NONE;
  }

  private conjunction(): number {
    const k = this.kind();
    if (k === Kind.AND || k === Kind.OR) {
      this.take();
      return k === Kind.AND ? CONJ_AND : CONJ_OR;
    }
    this.record([Kind.AND, Kind.OR]);
    return CONJ_NONE;
  }

  private clause(field: string | null): QueryNode | null {
    const t0 = this.peek(0);
    if ((t0.kind === Kind.TERM || t0.kind === Kind.STAR) && this.peek(1).kind === Kind.COLON) {
      this.take();
      this.take();
      field = t0.kind === Kind.TERM ? discardEscapeChar(t0.image) : '*';
    }
    const k = this.kind();
    if (k === Kind.LPAREN) {
      this.take();
      const q = this.query(field);
      this.consume(Kind.RPAREN);
      return applyBoost(q, this.optionalBoost());
    }
    if (!TERM_FIRST.includes(k)) {
      this.record(CLAUSE_FIRST);
      throw this.syntaxError();
    }
    return this.term(field);
  }

  /** `[ <CARAT> <NUMBER> ]` */
  private optionalBoost(): string | undefined {
    if (this.kind() !== Kind.CARAT) {
      this.record([Kind.CARAT]);
      return undefined;
    }
    this.take();
    return this.consume(Kind.NUMBER).image;
  }

  /** `[ ^N [~s] | ~s [^N] ]` after a bare or quoted term. */
  private boostAndSlop(): { boost?: string; slop?: string } {
    const k = this.kind();
    if (k === Kind.CARAT) {
      const boost = this.optionalBoost();
      if (this.kind() === Kind.FUZZY_SLOP) return { boost, slop: this.take().image };
      this.record([Kind.FUZZY_SLOP]);
      return { boost };
    }
    if (k === Kind.FUZZY_SLOP) {
      const slop = this.take().image;
      return { slop, boost: this.optionalBoost() };
    }
    this.record([Kind.CARAT, Kind.FUZZY_SLOP]);
    return {};
  }

  private term(field: string | null): QueryNode | null {
    const t = this.take();
    switch (t.kind) {
      case Kind.RANGEIN_START:
      case Kind.RANGEEX_START:
        return this.rangeRest(field, t.kind === Kind.RANGEIN_START);
      case Kind.QUOTED: {
        const { boost, slop } = this.boostAndSlop();
        // QueryParserBase.handleQuotedTerm: phrase_slop unless `~N` reads as a number.
        const s = slop === undefined || slop.length === 1 ? Number.NaN : Math.trunc(Number(slop.slice(1)));
        const text = discardEscapeChar(t.image.slice(1, -1));
        return applyBoost(this.b.phraseQuery(field, text, Number.isNaN(s) ? this.b.phraseSlop : s), boost);
      }
      default: {
        const { boost, slop } = this.boostAndSlop();
        return applyBoost(this.bareToken(field, t, slop), boost);
      }
    }
  }

  /** QueryParserBase.handleBareTokenQuery. */
  private bareToken(field: string | null, t: Tok, slop: string | undefined): QueryNode | null {
    switch (t.kind) {
      case Kind.STAR:
      case Kind.WILDTERM:
        return this.b.wildcardQuery(field, t.image);
      case Kind.PREFIXTERM:
        return this.b.prefixQuery(field, discardEscapeChar(t.image.slice(0, -1)));
      case Kind.REGEXPTERM:
        return this.b.regexpQuery(field, t.image.slice(1, -1));
      case Kind.BAREOPER:
        // A lone `+`, `-` or `!`: a term that analysis removes, so no clause.
        return null;
      default: {
        const text = discardEscapeChar(t.image);
        return slop === undefined ? this.b.fieldQuery(field, text) : this.b.fuzzyQuery(field, text, slop);
      }
    }
  }

  private rangeGoop(): Tok {
    const k = this.kind();
    if (k === Kind.RANGE_GOOP || k === Kind.RANGE_QUOTED || k === Kind.RANGE_TO) return this.take();
    this.record([Kind.RANGE_TO, Kind.RANGE_QUOTED, Kind.RANGE_GOOP]);
    throw this.syntaxError();
  }

  private rangeRest(field: string | null, lowerInc: boolean): QueryNode | null {
    const g1 = this.rangeGoop();
    this.consume(Kind.RANGE_TO);
    const g2 = this.rangeGoop();
    const end = this.kind();
    if (end !== Kind.RANGEIN_END && end !== Kind.RANGEEX_END) {
      this.record([Kind.RANGEIN_END, Kind.RANGEEX_END]);
      throw this.syntaxError();
    }
    this.take();
    const boost = this.optionalBoost();
    const bound = (g: Tok) =>
      g.kind === Kind.RANGE_QUOTED
        ? discardEscapeChar(g.image.slice(1, -1))
        : g.image === '*'
          ? null
          : discardEscapeChar(g.image);
    const q = this.b.rangeQuery(field, bound(g1), bound(g2), lowerInc, end === Kind.RANGEIN_END);
    return applyBoost(q, boost);
  }
}
