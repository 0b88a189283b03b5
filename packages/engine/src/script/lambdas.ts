/**
 * Lambdas and method references compiled into `ScriptFunction`s. A lambda's parameters are
 * locals of the script's frame in a scope of their own (runs never overlap and a lambda never
 * calls itself, so one slot per parameter serves every call); it reads the locals around it as
 * Painless captures them. `Type::method` calls a static method of that type when one fits the
 * arguments, else the method on the first argument (`String::length`, `Integer::compare`);
 * `ArrayList::new` and `HashMap::new` make empty collections.
 */
import type { Expr, Stmt } from './ast.ts';
import { at, type CExpr, type Exec, type Frame } from './frame.ts';
import { ScriptFunction } from './functions.ts';
import { callMethod } from './members.ts';
import { ScriptCompileError } from './script-error.ts';
import { STATICS, type StaticType } from './statics.ts';

export interface LambdaCompiler {
  expr(e: Expr): CExpr;
  block(stmts: Stmt[]): Exec;
  push(): void;
  pop(): void;
  declare(name: string, type: StaticType, offset: number): number;
}

export function compileLambda(c: LambdaCompiler, e: Extract<Expr, { k: 'lambda' }>): CExpr {
  c.push();
  const slots = e.params.map((p) => c.declare(p, 'def', e.at));
  let body: (f: Frame) => unknown;
  if (Array.isArray(e.body)) {
    const exec = c.block(e.body);
    body = (f) => {
      if (exec(f) !== 3) return null;
      const r = f.ret;
      f.ret = null;
      return r;
    };
  } else body = c.expr(e.body).ev;
  c.pop();
  const arity = slots.length;
  const run = at(e.at, body);
  return {
    ev: (f) =>
      new ScriptFunction(arity, (args) => {
        for (let i = 0; i < arity; i++) f.locals[slots[i]!] = args[i];
        return run(f);
      }),
    type: 'def',
  };
}

const CONSTRUCTORS: Record<string, () => unknown> = {
  ArrayList: () => [],
  HashMap: () => new Map(),
};

export function compileRef(e: Extract<Expr, { k: 'ref' }>): CExpr {
  const { cls, name } = e;
  if (name === 'new') {
    const make = CONSTRUCTORS[cls];
    if (!make) throw new ScriptCompileError(`constructor [${cls}, <init>/0] not found`, e.at);
    const fn = new ScriptFunction(-1, () => make());
    return { ev: () => fn, type: 'def' };
  }
  const hasStatic = Object.keys(STATICS).some((k) => k.startsWith(`${cls}.${name}/`));
  if (!hasStatic && !/^[A-Z]/.test(cls)) {
    throw new ScriptCompileError(`cannot resolve symbol [${cls}::${name}]`, e.at);
  }
  const fn = new ScriptFunction(-1, (args) => {
    const m = STATICS[`${cls}.${name}/${args.length}`];
    if (m?.call) return m.call(args);
    return callMethod(args[0], name, args.slice(1));
  });
  return { ev: at(e.at, () => fn), type: 'def' };
}
