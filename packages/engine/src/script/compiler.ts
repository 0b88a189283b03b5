/**
 * Compiles a Painless program into closures, once: every node becomes a function of the frame
 * (the script's locals and its context), with the types Painless would give it where they are
 * known statically (int/long arithmetic truncates, `int` wraps at 32 bits; `double` does not).
 * `def` values decide at run time: a doc value read remembers whether its field is integral.
 * No `eval`, no `new Function`: a script reaches only its locals, `doc`, `params`, `_score`
 * and the allow-listed members of members.ts. Loops count their iterations and stop a script
 * past Painless's limit of 1,000,000.
 */

import { callExpr, indexExpr, memberExpr } from './access.ts';
import type { Expr, Program, Stmt } from './ast.ts';
import { docProxy } from './doc-access.ts';
import {
  at,
  binaryType,
  type CExpr,
  castTo,
  checkNum,
  type Ev,
  type Exec,
  type Frame,
  MAX_LOOP_COUNTER,
  NUMERIC,
  normType,
  type ScriptContext,
  type SType,
  truthy,
} from './frame.ts';
import { compileLambda, compileRef } from './lambdas.ts';
import { setIndex, setMember } from './members.ts';
import { binary, unary } from './operators.ts';
import { ScriptCompileError, ScriptRuntimeError } from './script-error.ts';
import { compileStatement } from './statements.ts';
import { STATICS, type StaticType } from './statics.ts';
import { VECTOR_FUNCTIONS, vectorFunction } from './vector-functions.ts';

export type { ScriptContext } from './frame.ts';

interface Scope {
  vars: Map<string, { slot: number; type: StaticType }>;
  parent: Scope | null;
}

export interface CompiledProgram {
  run(ctx: ScriptContext): unknown;
  /** Whether the script reads `_score` (a script_score or sort needs the scores then). */
  readonly needsScore: boolean;
}

export function compileProgram(p: Program): CompiledProgram {
  return new Compiler().program(p);
}

class Compiler {
  private slots = 0;
  private scope: Scope = { vars: new Map(), parent: null };
  needsScore = false;

  program(p: Program): CompiledProgram {
    // The last statement, when an expression, is the script's value (Painless returns it).
    const body = p.body.slice();
    const last = body[body.length - 1];
    let tail: CExpr | null = null;
    if (last?.k === 'expr') {
      body.pop();
    }
    const stmts = body.map((s) => this.stmt(s));
    if (last?.k === 'expr') tail = this.expr(last.expr);
    const slots = () => this.slots;
    const count = slots();
    // Runs never overlap (a script calls no script), so one frame serves them all; every
    // local is written by its declaration before it is read.
    const frame: Frame = { locals: new Array(count), ctx: { params: {} }, ret: null, kind: 0, loops: 0 };
    const tailEv = tail === null ? null : tail.ev;
    const run = (ctx: ScriptContext): unknown => {
      const f = frame;
      f.ctx = ctx;
      f.ret = null;
      f.kind = 0;
      f.loops = 0;
      for (let i = 0; i < stmts.length; i++) if (stmts[i]!(f) === 3) return f.ret;
      return tailEv === null ? null : tailEv(f);
    };
    return { run, needsScore: this.needsScore };
  }

  push(): void {
    this.scope = { vars: new Map(), parent: this.scope };
  }

  pop(): void {
    this.scope = this.scope.parent!;
  }

  declare(name: string, type: StaticType, offset: number): number {
    if (this.lookup(name) || name === 'doc' || name === 'params' || name === '_score' || name === '_value') {
      throw new ScriptCompileError(`variable [${name}] is already defined`, offset);
    }
    const slot = this.slots++;
    this.scope.vars.set(name, { slot, type });
    return slot;
  }

  lookup(name: string): { slot: number; type: StaticType } | undefined {
    for (let s: Scope | null = this.scope; s; s = s.parent) {
      const v = s.vars.get(name);
      if (v) return v;
    }
    return undefined;
  }

  block(stmts: Stmt[]): Exec {
    this.push();
    const list = stmts.map((s) => this.stmt(s));
    this.pop();
    return (f) => {
      for (const s of list) {
        const r = s(f);
        if (r !== 0) return r;
      }
      return 0;
    };
  }

  loopTick(offset: number): (f: Frame) => void {
    return (f) => {
      if (++f.loops > MAX_LOOP_COUNTER) {
        const e = new ScriptRuntimeError(
          'illegal_state_exception',
          'The maximum number of statements that can be executed in a loop has been reached.',
        );
        e.offset = offset;
        throw e;
      }
    };
  }

  cond(e: Expr, what: string): (f: Frame) => boolean {
    const c = this.expr(e);
    if (c.type !== 'boolean' && c.type !== 'def') {
      throw new ScriptCompileError(`Cannot cast from [${c.type}] to [boolean].`, e.at);
    }
    return at(e.at, (f: Frame) => truthy(c.ev(f), what));
  }

  stmt(s: Stmt): Exec {
    return compileStatement(this, s);
  }

  /** The value converted for a variable of `type` (Painless's implicit casts: int → long → double). */
  assignable(type: StaticType, e: CExpr, offset: number): Ev {
    if (type === 'def' || e.type === 'def' || e.type === type) {
      return type === 'def' || e.type === type ? e.ev : at(offset, (f: Frame) => castTo(type, e.ev(f)));
    }
    const widening =
      (type === 'long' && e.type === 'int') || (type === 'double' && (e.type === 'int' || e.type === 'long'));
    if (!widening) {
      throw new ScriptCompileError(`Cannot cast from [${e.type}] to [${type}].`, offset);
    }
    return e.ev;
  }

  expr(e: Expr): CExpr {
    switch (e.k) {
      case 'num': {
        const v = e.value;
        return { ev: () => v, type: e.integral ? (e.long ? 'long' : 'int') : 'double' };
      }
      case 'str': {
        const v = e.value;
        return { ev: () => v, type: 'String' };
      }
      case 'bool': {
        const v = e.value;
        return { ev: () => v, type: 'boolean' };
      }
      case 'null':
        return { ev: () => null, type: 'def' };
      case 'var':
        return this.variable(e.name, e.at);
      case 'unary':
        return unary(e.op, this.expr(e.expr), e.at);
      case 'binary':
        return binary(e.op, this.expr(e.left), this.expr(e.right), e.at);
      case 'logical': {
        const l = this.cond(e.left, e.op);
        const r = this.cond(e.right, e.op);
        return e.op === '&&'
          ? { ev: (f) => l(f) && r(f), type: 'boolean' }
          : { ev: (f) => l(f) || r(f), type: 'boolean' };
      }
      case 'cond': {
        const test = this.cond(e.test, 'conditional');
        const a = this.expr(e.then);
        const b = this.expr(e.else);
        const type: SType =
          a.type === b.type
            ? a.type
            : NUMERIC.has(a.type) && NUMERIC.has(b.type)
              ? binaryType(a.type, b.type)
              : 'def';
        return { ev: (f) => (test(f) ? a.ev(f) : b.ev(f)), type };
      }
      case 'elvis': {
        const a = this.expr(e.left);
        const b = this.expr(e.right);
        return {
          ev: (f) => {
            const v = a.ev(f);
            return v === null || v === undefined ? b.ev(f) : v;
          },
          type: a.type === b.type ? a.type : 'def',
        };
      }
      case 'assign':
        return this.assign(e.op, e.target, e.value, e.at);
      case 'update': {
        const delta = e.op === '++' ? 1 : -1;
        const target = this.expr(e.target);
        const write = this.writer(e.target);
        return {
          ev: at(e.at, (f: Frame) => {
            const old = target.ev(f);
            if (typeof old !== 'number') checkNum(e.op, old, 1);
            const next = (old as number) + delta;
            write(f, target.type === 'int' ? next | 0 : next);
            return e.prefix ? next : old;
          }),
          type: target.type,
        };
      }
      case 'member':
        return memberExpr(this, e);
      case 'index':
        return indexExpr(this, e);
      case 'call':
        return callExpr(this, e);
      case 'static':
        return this.staticMember(e.cls, e.name, e.args, e.at);
      case 'fn':
        return this.contextCall(e.name, e.args, e.at);
      case 'cast': {
        const inner = this.expr(e.expr);
        const type = normType(e.type);
        return { ev: at(e.at, (f: Frame) => castTo(type, inner.ev(f))), type };
      }
      case 'new': {
        const args = e.args;
        if ((e.cls === 'ArrayList' || e.cls === 'HashMap') && args.length === 0) {
          return { ev: e.cls === 'ArrayList' ? () => [] : () => new Map(), type: 'def' };
        }
        throw new ScriptCompileError(`constructor [${e.cls}, <init>/${args.length}] not found`, e.at);
      }
      case 'list': {
        const items = e.items.map((i) => this.expr(i).ev);
        return { ev: (f) => items.map((i) => i(f)), type: 'def' };
      }
      case 'map': {
        const entries = e.entries.map(([k, v]) => [this.expr(k).ev, this.expr(v).ev] as const);
        return {
          ev: (f) => {
            const m = new Map<unknown, unknown>();
            for (const [k, v] of entries) m.set(k(f), v(f));
            return m;
          },
          type: 'def',
        };
      }
      case 'lambda':
        return compileLambda(this, e);
      case 'ref':
        return compileRef(e);
      case 'instanceof': {
        const inner = this.expr(e.expr);
        const t = e.type;
        return {
          ev: (f) => {
            const v = inner.ev(f);
            switch (t) {
              case 'String':
                return typeof v === 'string';
              case 'Number':
                return typeof v === 'number';
              case 'Integer':
              case 'Long':
                return typeof v === 'number' && Number.isInteger(v);
              case 'Double':
                return typeof v === 'number';
              case 'Boolean':
                return typeof v === 'boolean';
              case 'List':
              case 'ArrayList':
              case 'Collection':
                return Array.isArray(v);
              case 'Map':
              case 'HashMap':
                return v instanceof Map || (typeof v === 'object' && v !== null && !Array.isArray(v));
              default:
                return v !== null && v !== undefined;
            }
          },
          type: 'boolean',
        };
      }
    }
  }

  private variable(name: string, offset: number): CExpr {
    const local = this.lookup(name);
    if (local) {
      const slot = local.slot;
      return { ev: (f) => f.locals[slot], type: local.type };
    }
    switch (name) {
      case 'params':
        return { ev: (f) => f.ctx.params, type: 'def' };
      case 'doc':
        return {
          ev: (f) => {
            const d = f.ctx.doc;
            if (!d) throw new ScriptRuntimeError('illegal_argument_exception', 'cannot resolve symbol [doc]');
            return docProxy(d);
          },
          type: 'def',
        };
      case '_value':
        return {
          ev: (f) => {
            f.kind = f.ctx.valueKind ?? 0;
            return f.ctx.value ?? null;
          },
          type: 'def',
        };
      case 'ctx':
        return {
          ev: (f) => {
            const c = f.ctx.ctx;
            if (!c) throw new ScriptRuntimeError('illegal_argument_exception', 'cannot resolve symbol [ctx]');
            return c;
          },
          type: 'def',
        };
      case 'values':
        return {
          ev: (f) => {
            const v = f.ctx.values;
            if (!v)
              throw new ScriptRuntimeError('illegal_argument_exception', 'cannot resolve symbol [values]');
            return v;
          },
          type: 'def',
        };
      case '_score':
        this.needsScore = true;
        return { ev: (f) => f.ctx.score ?? 0, type: 'double' };
    }
    throw new ScriptCompileError(`cannot resolve symbol [${name}]`, offset);
  }

  /** `emit(...)`: hands values to the runtime field the script computes. */
  private contextCall(name: string, args: Expr[], offset: number): CExpr {
    if (name in VECTOR_FUNCTIONS && args.length === 2) {
      const [query, field] = args.map((a) => this.expr(a).ev) as [Ev, Ev];
      return {
        ev: at(offset, (f: Frame) => vectorFunction(name, f.ctx.doc, query(f), field(f))),
        type: 'double',
      };
    }
    if (name !== 'emit') {
      throw new ScriptCompileError(`Unknown call [${name}] with [${args.length}] arguments.`, offset);
    }
    const evs = args.map((a) => this.expr(a).ev);
    return {
      ev: at(offset, (f: Frame) => {
        const emit = f.ctx.emit;
        if (!emit) throw new ScriptRuntimeError('illegal_argument_exception', 'cannot resolve symbol [emit]');
        emit(evs.map((a) => a(f)));
        return null;
      }),
      type: 'void',
    };
  }

  private staticMember(cls: string, name: string, args: Expr[] | null, offset: number): CExpr {
    const key = `${cls}.${name}/${args === null ? -1 : args.length}`;
    const m = STATICS[key];
    if (!m) {
      throw new ScriptCompileError(
        args === null
          ? `cannot resolve symbol [${cls}.${name}]`
          : `Unknown call [${name}] with [${args.length}] arguments on type [${cls}].`,
        offset,
      );
    }
    if (args === null) {
      const v = m.value;
      return { ev: () => v, type: m.type };
    }
    const compiled = args.map((a) => this.expr(a));
    const evs = compiled.map((c) => c.ev);
    const call = m.call!;
    const type: SType = m.promote ? compiled.map((c) => c.type).reduce(binaryType) : m.type;
    if (evs.length === 1) {
      const a0 = evs[0]!;
      return { ev: at(offset, (f: Frame) => call([a0(f)])), type };
    }
    return { ev: at(offset, (f: Frame) => call(evs.map((a) => a(f)))), type };
  }

  private writer(target: Expr): (f: Frame, v: unknown) => void {
    if (target.k === 'var') {
      const local = this.lookup(target.name);
      if (!local) {
        throw new ScriptCompileError(
          target.name === 'params' ||
            target.name === 'doc' ||
            target.name === '_score' ||
            target.name === 'ctx'
            ? `invalid assignment: cannot assign a value to read-only variable [${target.name}]`
            : `cannot resolve symbol [${target.name}]`,
          target.at,
        );
      }
      const slot = local.slot;
      return (f, v) => {
        f.locals[slot] = v;
      };
    }
    if (target.k === 'member') {
      const obj = this.expr(target.object).ev;
      const name = target.name;
      return (f, v) => setMember(obj(f), name, v);
    }
    if (target.k === 'index') {
      const obj = this.expr(target.object).ev;
      const idx = this.expr(target.index).ev;
      return (f, v) => setIndex(obj(f), idx(f), v);
    }
    throw new ScriptCompileError('invalid assignment target.', target.at);
  }

  private assign(op: string, target: Expr, value: Expr, offset: number): CExpr {
    const write = this.writer(target);
    const t = this.expr(target);
    const v = this.expr(value);
    if (op === '=') {
      const conv = target.k === 'var' ? this.assignable(t.type as StaticType, v, value.at) : v.ev;
      return {
        ev: at(offset, (f: Frame) => {
          const x = conv(f);
          write(f, x);
          return x;
        }),
        type: t.type,
      };
    }
    const combined = binary(op.slice(0, -1), t, v, offset);
    const type = t.type;
    return {
      ev: at(offset, (f: Frame) => {
        let x = combined.ev(f);
        if (type === 'int' && typeof x === 'number') x = Math.trunc(x) | 0;
        else if (type === 'long' && typeof x === 'number') x = Math.trunc(x);
        write(f, x);
        return x;
      }),
      type,
    };
  }
}
