/**
 * Painless's unary and binary operators over compiled operands: statically typed operands get
 * a direct closure (int arithmetic wraps, int and long division truncates); `def` operands are
 * checked at run time, and divide as integers only when both values are integral.
 */
import {
  at,
  binaryType,
  type CExpr,
  checkNum,
  equalsValue,
  type Frame,
  isIntegralValue,
  NUMERIC,
  stringOf,
  truthy,
} from './frame.ts';
import { javaString } from './members.ts';
import { ScriptCompileError, ScriptRuntimeError } from './script-error.ts';
import { javaClassOf } from './values.ts';

export function unary(op: string, e: CExpr, offset: number): CExpr {
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

export function binary(op: string, l: CExpr, r: CExpr, offset: number): CExpr {
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
