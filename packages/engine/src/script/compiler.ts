/**
 * Compiles a Painless program into closures, once: every node becomes a function of the frame
 * (the script's locals and its context), with the types Painless would give it where they are
 * known statically (int/long arithmetic truncates, `int` wraps at 32 bits; `double` does not).
 * `def` values decide at run time: a doc value read remembers whether its field is integral.
 * No `eval`, no `new Function`: a script reaches only its locals, `doc`, `params`, `_score`
 * and the allow-listed members of members.ts. Loops count their iterations and stop a script
 * past Painless's limit of 1,000,000.
 */
import { javaDouble } from '@shoal/protocol';
import type { Expr, Program, Stmt } from './ast.ts';
import {
  callMethod,
  getMember,
  indexValue,
  javaString,
  npe,
  STATICS,
  type StaticType,
  setIndex,
  setMember,
} from './members.ts';
import { ScriptCompileError, ScriptRuntimeError } from './script-error.ts';
import { DocField, type DocLookup, javaClassOf } from './values.ts';

/** What a script runs against. */
export interface ScriptContext {
  doc?: DocLookup;
  params: Readonly<Record<string, unknown>>;
  score?: number;
  /** A value script's input (`_value`): one value of the aggregation's field. */
  value?: unknown;
  /** Set by the value's reader: the value came from an integral (1) or floating (2) field. */
  valueKind?: number;
}

export const MAX_LOOP_COUNTER = 1_000_000;

type SType = StaticType | 'void';

/** The frame of one run: locals by slot, the context, and the run's bookkeeping. */
interface Frame {
  locals: unknown[];
  ctx: ScriptContext;
  ret: unknown;
  /** Whether the last doc value read was integral (1), floating (2) or neither (0). */
  kind: number;
  loops: number;
}

type Ev = (f: Frame) => unknown;
interface CExpr {
  ev: Ev;
  type: SType;
}

/** 0 go on, 1 break, 2 continue, 3 return. */
type Exec = (f: Frame) => number;

const NUMERIC: ReadonlySet<string> = new Set(['int', 'long', 'double', 'def']);

function normType(t: string): StaticType {
  switch (t) {
    case 'int':
    case 'short':
    case 'byte':
    case 'char':
    case 'Integer':
      return 'int';
    case 'long':
    case 'Long':
      return 'long';
    case 'float':
    case 'double':
    case 'Float':
    case 'Double':
      return 'double';
    case 'boolean':
    case 'Boolean':
      return 'boolean';
    case 'String':
      return 'String';
    default:
      return 'def';
  }
}

/** Wraps a runtime failure with the offset of the node that raised it. */
function at<R>(offset: number, fn: (f: Frame) => R): (f: Frame) => R {
  return (f) => {
    try {
      return fn(f);
    } catch (e) {
      if (e instanceof ScriptRuntimeError && e.offset < 0) e.offset = offset;
      else if (e instanceof RangeError) {
        const err = new ScriptRuntimeError('illegal_argument_exception', 'stack overflow');
        err.offset = offset;
        throw err;
      }
      throw e;
    }
  };
}

function isIntegralValue(v: unknown, kind: number): boolean {
  if (kind === 2) return false;
  return typeof v === 'number' && Number.isInteger(v);
}

function binaryType(a: SType, b: SType): SType {
  if (a === 'double' || b === 'double') return 'double';
  if (a === 'def' || b === 'def') return 'def';
  if (a === 'long' || b === 'long') return 'long';
  return 'int';
}

function checkNum(op: string, a: unknown, b: unknown): void {
  if (typeof a !== 'number' || typeof b !== 'number') {
    throw new ScriptRuntimeError(
      'class_cast_exception',
      `Cannot apply [${op}] operation to types [${javaClassOf(a)}] and [${javaClassOf(b)}].`,
    );
  }
}

function truthy(v: unknown, what: string): boolean {
  if (typeof v !== 'boolean') {
    throw new ScriptRuntimeError(
      'class_cast_exception',
      `Cannot cast ${javaClassOf(v)} to java.lang.Boolean (${what})`,
    );
  }
  return v;
}

function castTo(type: StaticType, v: unknown): unknown {
  switch (type) {
    case 'int':
      if (typeof v !== 'number') break;
      return Math.trunc(v) | 0;
    case 'long':
      if (typeof v !== 'number') break;
      return Math.trunc(v);
    case 'double':
      if (typeof v !== 'number') break;
      return v;
    case 'boolean':
      if (typeof v !== 'boolean') break;
      return v;
    case 'String':
      if (v !== null && typeof v !== 'string') break;
      return v;
    default:
      return v;
  }
  throw new ScriptRuntimeError(
    'class_cast_exception',
    `Cannot cast ${javaClassOf(v)} to ${type === 'String' ? 'java.lang.String' : type}`,
  );
}

/** Java's `==` on boxed values as Painless's def equality does it: numbers by value, others by equals. */
function equalsValue(a: unknown, b: unknown): boolean {
  return a === b || (a !== null && b !== null && typeof a === 'object' && javaString(a) === javaString(b));
}

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

  private push(): void {
    this.scope = { vars: new Map(), parent: this.scope };
  }

  private pop(): void {
    this.scope = this.scope.parent!;
  }

  private declare(name: string, type: StaticType, offset: number): number {
    if (this.lookup(name) || name === 'doc' || name === 'params' || name === '_score' || name === '_value') {
      throw new ScriptCompileError(`variable [${name}] is already defined`, offset);
    }
    const slot = this.slots++;
    this.scope.vars.set(name, { slot, type });
    return slot;
  }

  private lookup(name: string): { slot: number; type: StaticType } | undefined {
    for (let s: Scope | null = this.scope; s; s = s.parent) {
      const v = s.vars.get(name);
      if (v) return v;
    }
    return undefined;
  }

  private block(stmts: Stmt[]): Exec {
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

  private loopTick(offset: number): (f: Frame) => void {
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

  private cond(e: Expr, what: string): (f: Frame) => boolean {
    const c = this.expr(e);
    if (c.type !== 'boolean' && c.type !== 'def') {
      throw new ScriptCompileError(`Cannot cast from [${c.type}] to [boolean].`, e.at);
    }
    return at(e.at, (f: Frame) => truthy(c.ev(f), what));
  }

  private stmt(s: Stmt): Exec {
    switch (s.k) {
      case 'empty':
        return () => 0;
      case 'block':
        return this.block(s.body);
      case 'expr': {
        const e = this.expr(s.expr).ev;
        return (f) => {
          e(f);
          return 0;
        };
      }
      case 'decl': {
        const type = normType(s.type);
        const inits = s.vars.map((v) => {
          const init = v.init ? this.assignable(type, this.expr(v.init), v.init.at) : null;
          const slot = this.declare(v.name, type, v.at);
          return { slot, init };
        });
        return (f) => {
          for (const { slot, init } of inits) f.locals[slot] = init ? init(f) : defaultOf(type);
          return 0;
        };
      }
      case 'if': {
        const test = this.cond(s.test, 'if');
        const then = this.block([s.then]);
        const els = s.else ? this.block([s.else]) : null;
        return (f) => (test(f) ? then(f) : els ? els(f) : 0);
      }
      case 'while': {
        const test = this.cond(s.test, 'while');
        const body = this.block([s.body]);
        const tick = this.loopTick(s.at);
        return (f) => {
          while (test(f)) {
            tick(f);
            const r = body(f);
            if (r === 1) break;
            if (r === 3) return 3;
          }
          return 0;
        };
      }
      case 'do': {
        const body = this.block([s.body]);
        const test = this.cond(s.test, 'do');
        const tick = this.loopTick(s.at);
        return (f) => {
          do {
            tick(f);
            const r = body(f);
            if (r === 1) break;
            if (r === 3) return 3;
          } while (test(f));
          return 0;
        };
      }
      case 'for': {
        this.push();
        const init = s.init ? this.stmt(s.init) : null;
        const test = s.test ? this.cond(s.test, 'for') : null;
        const update = s.update.map((u) => this.expr(u).ev);
        const body = this.block([s.body]);
        this.pop();
        const tick = this.loopTick(s.at);
        return (f) => {
          if (init) init(f);
          for (;;) {
            if (test && !test(f)) break;
            tick(f);
            const r = body(f);
            if (r === 1) break;
            if (r === 3) return 3;
            for (const u of update) u(f);
          }
          return 0;
        };
      }
      case 'foreach': {
        const iterable = this.expr(s.iterable);
        this.push();
        const type = normType(s.type);
        const slot = this.declare(s.name, type, s.at);
        const body = this.block([s.body]);
        this.pop();
        const tick = this.loopTick(s.at);
        return at(s.at, (f: Frame) => {
          const coll = iterable.ev(f);
          const items =
            coll instanceof DocField
              ? coll.values
              : Array.isArray(coll)
                ? coll.slice()
                : coll instanceof Map
                  ? [...coll.keys()]
                  : coll === null || coll === undefined
                    ? npe('Iterable.iterator()')
                    : typeof coll === 'object'
                      ? Object.keys(coll)
                      : callMethod(coll, 'iterator', []);
          for (const item of items as unknown[]) {
            tick(f);
            f.locals[slot] = castTo(type, item);
            const r = body(f);
            if (r === 1) break;
            if (r === 3) return 3;
          }
          return 0;
        });
      }
      case 'return': {
        const v = s.value ? this.expr(s.value).ev : null;
        return (f) => {
          f.ret = v ? v(f) : null;
          return 3;
        };
      }
      case 'break':
        return () => 1;
      case 'continue':
        return () => 2;
    }
  }

  /** The value converted for a variable of `type` (Painless's implicit casts: int → long → double). */
  private assignable(type: StaticType, e: CExpr, offset: number): Ev {
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
        return this.unary(e.op, this.expr(e.expr), e.at);
      case 'binary':
        return this.binary(e.op, this.expr(e.left), this.expr(e.right), e.at);
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
      case 'member': {
        if (e.object.k === 'var' && e.object.name === 'params' && !this.lookup('params')) {
          const key = e.name;
          return {
            ev: (f) => {
              const p = f.ctx.params;
              return Object.hasOwn(p, key) ? (p[key] ?? null) : null;
            },
            type: 'def',
          };
        }
        const obj = this.expr(e.object);
        const name = e.name;
        const nullSafe = e.nullSafe;
        if (name === 'value') {
          const o0 = obj.ev;
          return {
            ev: at(e.at, (f: Frame) => {
              const o = o0(f);
              if (o instanceof DocField) {
                f.kind = o.kind === 'long' ? 1 : o.kind === 'double' ? 2 : 0;
                if (o.values.length > 0) return o.values[0];
              } else if (nullSafe && (o === null || o === undefined)) return null;
              return getMember(o, name);
            }),
            type: 'def',
          };
        }
        if (name === 'length') {
          return {
            ev: at(e.at, (f: Frame) => {
              const o = obj.ev(f);
              if (nullSafe && (o === null || o === undefined)) return null;
              return getMember(o, name);
            }),
            type: 'def',
          };
        }
        return {
          ev: at(e.at, (f: Frame) => {
            const o = obj.ev(f);
            if (nullSafe && (o === null || o === undefined)) return null;
            return getMember(o, name);
          }),
          type: 'def',
        };
      }
      case 'index': {
        if (e.object.k === 'var' && e.object.name === 'doc' && !this.lookup('doc') && e.index.k === 'str') {
          const field = e.index.value;
          return { ev: at(e.at, (f: Frame) => docField(f, field)), type: 'def' };
        }
        const obj = this.expr(e.object);
        const idx = this.expr(e.index);
        return {
          ev: at(e.at, (f: Frame) => {
            const o = obj.ev(f);
            const i = idx.ev(f);
            if (o instanceof DocField) f.kind = o.kind === 'long' ? 1 : o.kind === 'double' ? 2 : 0;
            return indexValue(o, i);
          }),
          type: 'def',
        };
      }
      case 'call': {
        const obj = this.expr(e.object);
        const args = e.args.map((a) => this.expr(a).ev);
        const name = e.name;
        const nullSafe = e.nullSafe;
        const type: SType = name === 'size' || name === 'length' || name === 'indexOf' ? 'int' : 'def';
        return {
          ev: at(e.at, (f: Frame) => {
            const o = obj.ev(f);
            if (nullSafe && (o === null || o === undefined)) return null;
            const vals = args.map((a) => a(f));
            if (o instanceof DocField && (name === 'get' || name === 'getValue'))
              f.kind = o.kind === 'long' ? 1 : o.kind === 'double' ? 2 : 0;
            return callMethod(o, name, vals);
          }),
          type,
        };
      }
      case 'static':
        return this.staticMember(e.cls, e.name, e.args, e.at);
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
      case '_score':
        this.needsScore = true;
        return { ev: (f) => f.ctx.score ?? 0, type: 'double' };
    }
    throw new ScriptCompileError(`cannot resolve symbol [${name}]`, offset);
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

  private unary(op: string, e: CExpr, offset: number): CExpr {
    const ev = e.ev;
    switch (op) {
      case '!':
        if (e.type !== 'boolean' && e.type !== 'def')
          throw new ScriptCompileError(`Cannot apply [!] to type [${e.type}].`, offset);
        return { ev: at(offset, (f: Frame) => !truthy(ev(f), '!')), type: 'boolean' };
      case '+':
        return e;
      case '-':
        return {
          ev: at(offset, (f: Frame) => {
            const v = ev(f);
            if (typeof v !== 'number')
              throw new ScriptRuntimeError(
                'class_cast_exception',
                `Cannot apply [-] operation to type [${javaClassOf(v)}].`,
              );
            return e.type === 'int' ? -v | 0 : -v;
          }),
          type: e.type,
        };
      default:
        return {
          ev: at(offset, (f: Frame) => {
            const v = ev(f);
            if (typeof v !== 'number')
              throw new ScriptRuntimeError(
                'class_cast_exception',
                `Cannot apply [~] operation to type [${javaClassOf(v)}].`,
              );
            return ~v;
          }),
          type: e.type === 'long' ? 'long' : 'int',
        };
    }
  }

  binary(op: string, l: CExpr, r: CExpr, offset: number): CExpr {
    const a = l.ev;
    const b = r.ev;
    const type = binaryType(l.type, r.type);
    switch (op) {
      case '+': {
        if (l.type === 'String' || r.type === 'String') {
          const sa = stringOf(l.type);
          const sb = stringOf(r.type);
          return { ev: (f) => sa(a(f)) + sb(b(f)), type: 'String' };
        }
        if (type === 'int') return { ev: (f) => ((a(f) as number) + (b(f) as number)) | 0, type };
        if (type !== 'def') return { ev: (f) => (a(f) as number) + (b(f) as number), type };
        return {
          ev: at(offset, (f: Frame) => {
            const x = a(f);
            const y = b(f);
            if (typeof x === 'string' || typeof y === 'string') return javaString(x) + javaString(y);
            checkNum('+', x, y);
            return (x as number) + (y as number);
          }),
          type,
        };
      }
      case '-':
      case '*': {
        const fn = op === '-' ? (x: number, y: number) => x - y : (x: number, y: number) => x * y;
        if (type === 'int')
          return {
            ev:
              op === '*'
                ? (f) => Math.imul(a(f) as number, b(f) as number)
                : (f) => fn(a(f) as number, b(f) as number) | 0,
            type,
          };
        if (type !== 'def') return { ev: (f) => fn(a(f) as number, b(f) as number), type };
        return {
          ev: at(offset, (f: Frame) => {
            const x = a(f);
            const y = b(f);
            checkNum(op, x, y);
            return fn(x as number, y as number);
          }),
          type,
        };
      }
      case '/':
      case '%': {
        const mod = op === '%';
        if (type === 'int' || type === 'long') {
          return {
            ev: at(offset, (f: Frame) => {
              const x = a(f) as number;
              const y = b(f) as number;
              if (y === 0)
                throw new ScriptRuntimeError('arithmetic_exception', mod ? '/ by zero' : '/ by zero');
              return mod ? x % y : type === 'int' ? (x / y) | 0 : Math.trunc(x / y);
            }),
            type,
          };
        }
        if (type === 'double')
          return {
            ev: mod ? (f) => (a(f) as number) % (b(f) as number) : (f) => (a(f) as number) / (b(f) as number),
            type,
          };
        const lInt = l.type === 'int' || l.type === 'long';
        const rInt = r.type === 'int' || r.type === 'long';
        return {
          ev: at(offset, (f: Frame) => {
            f.kind = 0;
            const x = a(f);
            const kx = lInt ? 1 : f.kind;
            f.kind = 0;
            const y = b(f);
            const ky = rInt ? 1 : f.kind;
            f.kind = 0;
            checkNum(op, x, y);
            if (isIntegralValue(x, kx) && isIntegralValue(y, ky)) {
              if (y === 0) throw new ScriptRuntimeError('arithmetic_exception', '/ by zero');
              return mod ? (x as number) % (y as number) : Math.trunc((x as number) / (y as number));
            }
            return mod ? (x as number) % (y as number) : (x as number) / (y as number);
          }),
          type,
        };
      }
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const cmp =
          op === '<'
            ? (x: number, y: number) => x < y
            : op === '<='
              ? (x: number, y: number) => x <= y
              : op === '>'
                ? (x: number, y: number) => x > y
                : (x: number, y: number) => x >= y;
        if (type !== 'def' && NUMERIC.has(l.type) && NUMERIC.has(r.type)) {
          return { ev: (f) => cmp(a(f) as number, b(f) as number), type: 'boolean' };
        }
        return {
          ev: at(offset, (f: Frame) => {
            const x = a(f);
            const y = b(f);
            checkNum(op, x, y);
            return cmp(x as number, y as number);
          }),
          type: 'boolean',
        };
      }
      case '==':
      case '!=': {
        const neg = op === '!=';
        return { ev: (f) => equalsValue(a(f), b(f)) !== neg, type: 'boolean' };
      }
      case '===':
      case '!==': {
        const neg = op === '!==';
        return { ev: (f) => (a(f) === b(f)) !== neg, type: 'boolean' };
      }
      case '&':
      case '|':
      case '^': {
        if (l.type === 'boolean' && r.type === 'boolean') {
          const fn =
            op === '&'
              ? (x: boolean, y: boolean) => x && y
              : op === '|'
                ? (x: boolean, y: boolean) => x || y
                : (x: boolean, y: boolean) => x !== y;
          return { ev: (f) => fn(a(f) as boolean, b(f) as boolean), type: 'boolean' };
        }
        const fn =
          op === '&'
            ? (x: number, y: number) => x & y
            : op === '|'
              ? (x: number, y: number) => x | y
              : (x: number, y: number) => x ^ y;
        return {
          ev: at(offset, (f: Frame) => {
            const x = a(f);
            const y = b(f);
            if (typeof x === 'boolean' && typeof y === 'boolean')
              return op === '&' ? x && y : op === '|' ? x || y : x !== y;
            checkNum(op, x, y);
            return fn(x as number, y as number);
          }),
          type: l.type === 'boolean' ? 'boolean' : type === 'double' ? 'def' : type,
        };
      }
      case '<<':
      case '>>':
      case '>>>': {
        const fn =
          op === '<<'
            ? (x: number, y: number) => x << y
            : op === '>>'
              ? (x: number, y: number) => x >> y
              : (x: number, y: number) => x >>> y;
        return {
          ev: at(offset, (f: Frame) => {
            const x = a(f);
            const y = b(f);
            checkNum(op, x, y);
            return fn(x as number, y as number);
          }),
          type: 'int',
        };
      }
    }
    throw new ScriptCompileError(`unexpected operator [${op}].`, offset);
  }

  /** A function that stores into an assignable expression. */
  private writer(target: Expr): (f: Frame, v: unknown) => void {
    if (target.k === 'var') {
      const local = this.lookup(target.name);
      if (!local) {
        throw new ScriptCompileError(
          target.name === 'params' || target.name === 'doc' || target.name === '_score'
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
    const combined = this.binary(op.slice(0, -1), t, v, offset);
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

/** Java's string conversion of a value of a static type: a double keeps its `.0`. */
function stringOf(type: SType): (v: unknown) => string {
  return type === 'double' ? (v) => (typeof v === 'number' ? javaDouble(v) : javaString(v)) : javaString;
}

function defaultOf(type: StaticType): unknown {
  switch (type) {
    case 'int':
    case 'long':
    case 'double':
      return 0;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** `doc['f']` with a literal name: straight to the lookup. */
function docField(f: Frame, field: string): DocField {
  const d = f.ctx.doc;
  if (!d) throw new ScriptRuntimeError('illegal_argument_exception', 'cannot resolve symbol [doc]');
  return d.get(field);
}

/** `doc` as a script sees it: a map from field names to their values (`doc['f']`, `doc.f`, `doc.containsKey('f')`). */
const DOC_PROXIES = new WeakMap<DocLookup, Map<string, unknown>>();

function docProxy(d: DocLookup): unknown {
  let m = DOC_PROXIES.get(d);
  if (!m) {
    m = new DocMap(d);
    DOC_PROXIES.set(d, m);
  }
  return m;
}

/** A read-only Map over the doc lookup, so the map allow-list serves `doc` too. */
class DocMap extends Map<string, unknown> {
  constructor(private readonly lookup: DocLookup) {
    super();
  }
  override get(key: string): unknown {
    return this.lookup.get(key);
  }
  override has(key: string): boolean {
    return this.lookup.has(key);
  }
  override set(): this {
    throw new ScriptRuntimeError('unsupported_operation_exception', 'doc is read-only');
  }
}
