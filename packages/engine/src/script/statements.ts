/**
 * Statements compiled into closures that return how they ended: 0 normally, 1 on `break`, 2 on
 * `continue`, 3 on `return` (the value is left in the frame). Loops count their iterations
 * against Painless's limit.
 */
import type { Expr, Stmt } from './ast.ts';
import type { CExpr, Ev, Exec, Frame } from './frame.ts';
import { at, castTo, defaultOf, normType } from './frame.ts';
import { callMethod, npe } from './members.ts';
import type { StaticType } from './statics.ts';
import { DocField } from './values.ts';

/** What statements need of the compiler. */
export interface StatementCompiler {
  expr(e: Expr): CExpr;
  cond(e: Expr, what: string): (f: Frame) => boolean;
  block(stmts: Stmt[]): Exec;
  stmt(s: Stmt): Exec;
  push(): void;
  pop(): void;
  declare(name: string, type: StaticType, offset: number): number;
  loopTick(offset: number): (f: Frame) => void;
  assignable(type: StaticType, e: CExpr, offset: number): Ev;
}

export function compileStatement(c: StatementCompiler, s: Stmt): Exec {
  switch (s.k) {
    case 'empty':
      return () => 0;
    case 'block':
      return c.block(s.body);
    case 'expr': {
      const e = c.expr(s.expr).ev;
      return (f) => {
        e(f);
        return 0;
      };
    }
    case 'decl': {
      const type = normType(s.type);
      const inits = s.vars.map((v) => {
        const init = v.init ? c.assignable(type, c.expr(v.init), v.init.at) : null;
        const slot = c.declare(v.name, type, v.at);
        return { slot, init };
      });
      return (f) => {
        for (const { slot, init } of inits) f.locals[slot] = init ? init(f) : defaultOf(type);
        return 0;
      };
    }
    case 'if': {
      const test = c.cond(s.test, 'if');
      const then = c.block([s.then]);
      const els = s.else ? c.block([s.else]) : null;
      return (f) => (test(f) ? then(f) : els ? els(f) : 0);
    }
    case 'while': {
      const test = c.cond(s.test, 'while');
      const body = c.block([s.body]);
      const tick = c.loopTick(s.at);
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
      const body = c.block([s.body]);
      const test = c.cond(s.test, 'do');
      const tick = c.loopTick(s.at);
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
      c.push();
      const init = s.init ? c.stmt(s.init) : null;
      const test = s.test ? c.cond(s.test, 'for') : null;
      const update = s.update.map((u) => c.expr(u).ev);
      const body = c.block([s.body]);
      c.pop();
      const tick = c.loopTick(s.at);
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
      const iterable = c.expr(s.iterable);
      c.push();
      const type = normType(s.type);
      const slot = c.declare(s.name, type, s.at);
      const body = c.block([s.body]);
      c.pop();
      const tick = c.loopTick(s.at);
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
      const v = s.value ? c.expr(s.value).ev : null;
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
