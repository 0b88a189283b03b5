/**
 * The Painless parser: recursive descent with Java's operator precedence, over the subset
 * Shoal runs — declarations, `if`/`else`, `for` (classic and `for (x : list)`), `while`,
 * `do`/`while`, `break`, `continue`, `return`, blocks, and the expression forms of ast.ts
 * (casts, `new`, list and map initializers `[1, 2]` and `[:]`, `?.`, `?:`).
 */
import type { Expr, Program, Stmt } from './ast.ts';
import { type Token, tokenize } from './lexer.ts';
import { ScriptCompileError } from './script-error.ts';

/** Types a declaration, cast or `for (x : …)` may name. */
export const TYPE_NAMES = new Set([
  'def',
  'int',
  'long',
  'short',
  'byte',
  'char',
  'float',
  'double',
  'boolean',
  'String',
  'Object',
  'Integer',
  'Long',
  'Double',
  'Float',
  'Boolean',
  'Number',
  'List',
  'ArrayList',
  'Map',
  'HashMap',
  'Collection',
]);

/** Classes whose static members a script may use. */
export const STATIC_CLASSES = new Set([
  'Math',
  'Integer',
  'Long',
  'Double',
  'Float',
  'String',
  'Boolean',
  'MovingFunctions',
  'Collections',
  'Collectors',
  'Comparator',
]);

const BINARY_PRECEDENCE: Record<string, number> = {
  '||': 1,
  '&&': 2,
  '|': 3,
  '^': 4,
  '&': 5,
  '==': 6,
  '!=': 6,
  '===': 6,
  '!==': 6,
  '<': 7,
  '>': 7,
  '<=': 7,
  '>=': 7,
  instanceof: 7,
  '<<': 8,
  '>>': 8,
  '>>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
};

const ASSIGN_OPS = new Set(['=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>=', '>>>=']);

export function parseScript(source: string): Program {
  return new Parser(tokenize(source)).program();
}

class Parser {
  private i = 0;
  private readonly statements: number[] = [];

  constructor(private readonly toks: Token[]) {}

  private get t(): Token {
    return this.toks[this.i]!;
  }

  private peek(n = 1): Token {
    return this.toks[Math.min(this.i + n, this.toks.length - 1)]!;
  }

  private is(text: string): boolean {
    const t = this.t;
    return (t.kind === 'op' || t.kind === 'id') && t.text === text;
  }

  private eat(text: string): boolean {
    if (this.is(text)) {
      this.i++;
      return true;
    }
    return false;
  }

  private expect(text: string): Token {
    if (!this.is(text)) this.unexpected(`'${text}'`);
    return this.toks[this.i++]!;
  }

  private unexpected(expecting?: string): never {
    const t = this.t;
    const shown = t.kind === 'str' ? `'${t.text}'` : t.text;
    throw new ScriptCompileError(
      t.kind === 'eof'
        ? `unexpected end of script${expecting ? `, expecting ${expecting}` : ''}.`
        : `unexpected token [${shown}]${expecting ? ` was expecting one of [${expecting}]` : ''}.`,
      t.offset,
    );
  }

  program(): Program {
    const body: Stmt[] = [];
    while (this.t.kind !== 'eof') body.push(this.statement());
    return { body, statements: this.statements };
  }

  private statement(): Stmt {
    const t = this.t;
    this.statements.push(t.offset);
    const at = t.offset;
    if (t.kind === 'op') {
      if (t.text === '{') return this.block();
      if (t.text === ';') {
        this.i++;
        return { k: 'empty', at };
      }
    }
    if (t.kind === 'id') {
      switch (t.text) {
        case 'if': {
          this.i++;
          this.expect('(');
          const test = this.expression();
          this.expect(')');
          const then = this.statement();
          const els = this.eat('else') ? this.statement() : null;
          return { k: 'if', at, test, then, else: els };
        }
        case 'while': {
          this.i++;
          this.expect('(');
          const test = this.expression();
          this.expect(')');
          return { k: 'while', at, test, body: this.statement() };
        }
        case 'do': {
          this.i++;
          const body = this.statement();
          this.expect('while');
          this.expect('(');
          const test = this.expression();
          this.expect(')');
          this.endOfStatement();
          return { k: 'do', at, body, test };
        }
        case 'for':
          return this.forStatement();
        case 'return': {
          this.i++;
          const value = this.is(';') || this.is('}') || this.t.kind === 'eof' ? null : this.expression();
          this.endOfStatement();
          return { k: 'return', at, value };
        }
        case 'break':
          this.i++;
          this.endOfStatement();
          return { k: 'break', at };
        case 'continue':
          this.i++;
          this.endOfStatement();
          return { k: 'continue', at };
        default:
          if (this.declarationAhead()) {
            const d = this.declaration();
            this.endOfStatement();
            return d;
          }
      }
    }
    const expr = this.expression();
    this.endOfStatement();
    return { k: 'expr', at, expr };
  }

  /** `;` ends a statement; the last statement of a script or block may leave it out. */
  private endOfStatement(): void {
    if (this.eat(';')) return;
    if (this.t.kind === 'eof' || this.is('}')) return;
    this.unexpected("';'");
  }

  private block(): Stmt {
    const at = this.expect('{').offset;
    const body: Stmt[] = [];
    while (!this.is('}')) {
      if (this.t.kind === 'eof') this.unexpected("'}'");
      body.push(this.statement());
    }
    this.i++;
    return { k: 'block', at, body };
  }

  private declarationAhead(): boolean {
    const t = this.t;
    if (t.kind !== 'id' || !TYPE_NAMES.has(t.text)) return false;
    return this.peek().kind === 'id';
  }

  private declaration(): Stmt {
    const typeTok = this.toks[this.i++]!;
    const vars: { name: string; at: number; init: Expr | null }[] = [];
    do {
      const name = this.t;
      if (name.kind !== 'id') this.unexpected('an identifier');
      this.i++;
      const init = this.eat('=') ? this.expression() : null;
      vars.push({ name: name.text, at: name.offset, init });
    } while (this.eat(','));
    return { k: 'decl', at: typeTok.offset, type: typeTok.text, vars };
  }

  private forStatement(): Stmt {
    const at = this.t.offset;
    this.i++;
    this.expect('(');
    if (
      this.t.kind === 'id' &&
      TYPE_NAMES.has(this.t.text) &&
      this.peek().kind === 'id' &&
      this.peek(2).text === ':'
    ) {
      const type = this.toks[this.i++]!.text;
      const name = this.toks[this.i++]!.text;
      this.expect(':');
      const iterable = this.expression();
      this.expect(')');
      return { k: 'foreach', at, type, name, iterable, body: this.statement() };
    }
    let init: Stmt | null = null;
    if (!this.is(';')) {
      const initAt = this.t.offset;
      init = this.declarationAhead()
        ? this.declaration()
        : { k: 'expr', at: initAt, expr: this.expression() };
    }
    this.expect(';');
    const test = this.is(';') ? null : this.expression();
    this.expect(';');
    const update: Expr[] = [];
    if (!this.is(')')) {
      do update.push(this.expression());
      while (this.eat(','));
    }
    this.expect(')');
    return { k: 'for', at, init, test, update, body: this.statement() };
  }

  expression(): Expr {
    const left = this.conditional();
    const t = this.t;
    if (t.kind === 'op' && ASSIGN_OPS.has(t.text)) {
      if (left.k !== 'var' && left.k !== 'member' && left.k !== 'index') {
        throw new ScriptCompileError('invalid assignment target.', t.offset);
      }
      this.i++;
      const value = this.expression();
      return { k: 'assign', at: left.at, op: t.text, target: left, value };
    }
    return left;
  }

  private conditional(): Expr {
    const test = this.binary(1);
    if (this.is('?')) {
      this.i++;
      const then = this.expression();
      this.expect(':');
      const els = this.conditional();
      return { k: 'cond', at: test.at, test, then, else: els };
    }
    if (this.is('?:')) {
      this.i++;
      return { k: 'elvis', at: test.at, left: test, right: this.conditional() };
    }
    return test;
  }

  private binary(minPrec: number): Expr {
    let left = this.unary();
    for (;;) {
      const t = this.t;
      const prec = (t.kind === 'op' || t.text === 'instanceof') && BINARY_PRECEDENCE[t.text];
      if (!prec || prec < minPrec) return left;
      this.i++;
      if (t.text === 'instanceof') {
        const type = this.t;
        if (type.kind !== 'id') this.unexpected('a type');
        this.i++;
        left = { k: 'instanceof', at: left.at, expr: left, type: type.text };
        continue;
      }
      const right = this.binary(prec + 1);
      left =
        t.text === '&&' || t.text === '||'
          ? { k: 'logical', at: left.at, op: t.text, left, right }
          : { k: 'binary', at: t.offset, op: t.text, left, right };
    }
  }

  private unary(): Expr {
    const t = this.t;
    if (t.kind === 'op') {
      if (t.text === '-' || t.text === '+' || t.text === '!' || t.text === '~') {
        this.i++;
        const expr = this.unary();
        if (t.text === '-' && expr.k === 'num') return { ...expr, at: t.offset, value: -expr.value };
        return { k: 'unary', at: t.offset, op: t.text, expr };
      }
      if (t.text === '++' || t.text === '--') {
        this.i++;
        const target = this.unary();
        return { k: 'update', at: t.offset, op: t.text, prefix: true, target };
      }
      // A cast: `(type) expr`.
      if (
        t.text === '(' &&
        this.peek().kind === 'id' &&
        TYPE_NAMES.has(this.peek().text) &&
        this.peek(2).text === ')'
      ) {
        this.i += 3;
        return { k: 'cast', at: t.offset, type: this.toks[this.i - 2]!.text, expr: this.unary() };
      }
    }
    return this.postfix(this.primary());
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      const t = this.t;
      if (t.kind !== 'op') return e;
      if (t.text === '.' || t.text === '?.') {
        this.i++;
        const name = this.t;
        if (name.kind !== 'id') this.unexpected('an identifier');
        this.i++;
        if (this.is('('))
          e = {
            k: 'call',
            at: name.offset,
            object: e,
            name: name.text,
            args: this.args(),
            nullSafe: t.text === '?.',
          };
        else e = { k: 'member', at: name.offset, object: e, name: name.text, nullSafe: t.text === '?.' };
      } else if (t.text === '[') {
        this.i++;
        const index = this.expression();
        this.expect(']');
        e = { k: 'index', at: t.offset, object: e, index };
      } else if (t.text === '++' || t.text === '--') {
        this.i++;
        e = { k: 'update', at: e.at, op: t.text, prefix: false, target: e };
      } else {
        return e;
      }
    }
  }

  private args(): Expr[] {
    this.expect('(');
    const out: Expr[] = [];
    if (!this.eat(')')) {
      do out.push(this.expression());
      while (this.eat(','));
      this.expect(')');
    }
    return out;
  }

  private primary(): Expr {
    const t = this.t;
    const at = t.offset;
    switch (t.kind) {
      case 'num':
        this.i++;
        return { k: 'num', at, value: t.num!, integral: t.integral!, long: /[lL]$/.test(t.text) };
      case 'str':
        this.i++;
        return { k: 'str', at, value: t.text };
      case 'id': {
        if (this.peek().text === '->') return this.lambda();
        if (this.peek().text === '::') {
          this.i += 2;
          const name = this.t;
          if (name.kind !== 'id') this.unexpected('an identifier');
          this.i++;
          return { k: 'ref', at, cls: t.text, name: name.text };
        }
        this.i++;
        if (t.text === 'true' || t.text === 'false') return { k: 'bool', at, value: t.text === 'true' };
        if (t.text === 'null') return { k: 'null', at };
        if (t.text === 'new') {
          const cls = this.t;
          if (cls.kind !== 'id') this.unexpected('a type');
          this.i++;
          return { k: 'new', at, cls: cls.text, args: this.args() };
        }
        if (STATIC_CLASSES.has(t.text) && this.is('.')) {
          this.i++;
          const name = this.t;
          if (name.kind !== 'id') this.unexpected('an identifier');
          this.i++;
          return { k: 'static', at, cls: t.text, name: name.text, args: this.is('(') ? this.args() : null };
        }
        if (this.is('(')) return { k: 'fn', at, name: t.text, args: this.args() };
        return { k: 'var', at, name: t.text };
      }
      case 'op':
        if (t.text === '(' && this.lambdaAhead()) return this.lambda();
        if (t.text === '(') {
          this.i++;
          const e = this.expression();
          this.expect(')');
          return e;
        }
        if (t.text === '[') return this.collectionLiteral();
        break;
    }
    return this.unexpected();
  }

  /** Whether `(` starts a lambda's parameters: `()`, `(a, b)` or `(int a, def b)`, then `->`. */
  private lambdaAhead(): boolean {
    let j = 1;
    if (this.peek(j).text === ')') return this.peek(j + 1).text === '->';
    for (;;) {
      if (this.peek(j).kind !== 'id') return false;
      j += this.peek(j + 1).kind === 'id' ? 2 : 1;
      const sep = this.peek(j).text;
      if (sep === ')') return this.peek(j + 1).text === '->';
      if (sep !== ',') return false;
      j++;
    }
  }

  /** `x -> body` or `(…) -> body`; the body is an expression or a block. */
  private lambda(): Expr {
    const at = this.t.offset;
    const params: string[] = [];
    if (this.eat('(')) {
      while (!this.eat(')')) {
        if (params.length > 0) this.expect(',');
        if (this.peek().kind === 'id') this.i++; // a declared parameter type
        params.push(this.toks[this.i++]!.text);
      }
    } else params.push(this.toks[this.i++]!.text);
    this.expect('->');
    if (!this.is('{')) return { k: 'lambda', at, params, body: this.expression() };
    const block = this.block() as Extract<Stmt, { k: 'block' }>;
    return { k: 'lambda', at, params, body: block.body };
  }

  /** `[a, b]` is a list, `[k: v, …]` a map, `[:]` an empty map (Painless initializers). */
  private collectionLiteral(): Expr {
    const at = this.expect('[').offset;
    if (this.eat(':')) {
      this.expect(']');
      return { k: 'map', at, entries: [] };
    }
    if (this.eat(']')) return { k: 'list', at, items: [] };
    const first = this.expression();
    if (this.eat(':')) {
      const entries: [Expr, Expr][] = [[first, this.expression()]];
      while (this.eat(',')) {
        const key = this.expression();
        this.expect(':');
        entries.push([key, this.expression()]);
      }
      this.expect(']');
      return { k: 'map', at, entries };
    }
    const items = [first];
    while (this.eat(',')) items.push(this.expression());
    this.expect(']');
    return { k: 'list', at, items };
  }
}
