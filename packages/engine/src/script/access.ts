/**
 * Member access, indexing and method calls: `doc['f']` with a literal name and `params.x` go
 * straight to their values; `.value` on a doc field reads its first value and notes whether the
 * field is integral (for `def` division); everything else goes through the allow-list.
 */
import type { Expr } from './ast.ts';
import { docField } from './doc-access.ts';
import { at, type CExpr, type Frame, type SType } from './frame.ts';
import { callMethod, getMember, indexValue } from './members.ts';
import { DocField } from './values.ts';

/** What member access needs of the compiler. */
export interface AccessCompiler {
  expr(e: Expr): CExpr;
  lookup(name: string): unknown;
}

export function memberExpr(c: AccessCompiler, e: Extract<Expr, { k: 'member' }>): CExpr {
  if (e.object.k === 'var' && e.object.name === 'params' && !c.lookup('params')) {
    const key = e.name;
    return {
      ev: (f) => {
        const p = f.ctx.params;
        if (f.ctx.doubleParams?.has(key)) f.kind = 2;
        return Object.hasOwn(p, key) ? (p[key] ?? null) : null;
      },
      type: 'def',
    };
  }
  const obj = c.expr(e.object);
  const name = e.name;
  const nullSafe = e.nullSafe;
  if (name === 'value') {
    const o0 = obj.ev;
    return {
      ev: at(e.at, (f: Frame) => {
        const o = o0(f);
        if (o instanceof DocField) {
          f.kind = o.kind === 'long' ? 1 : o.kind === 'double' ? 2 : 0;
          if (o.values.length > 0 && o.kind !== 'dense_vector') return o.values[0];
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

export function indexExpr(c: AccessCompiler, e: Extract<Expr, { k: 'index' }>): CExpr {
  if (e.object.k === 'var' && e.object.name === 'doc' && !c.lookup('doc') && e.index.k === 'str') {
    const field = e.index.value;
    return { ev: at(e.at, (f: Frame) => docField(f, field)), type: 'def' };
  }
  const obj = c.expr(e.object);
  const idx = c.expr(e.index);
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

export function callExpr(c: AccessCompiler, e: Extract<Expr, { k: 'call' }>): CExpr {
  const obj = c.expr(e.object);
  const args = e.args.map((a) => c.expr(a).ev);
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
