import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileScript } from './script.ts';
import { DocField, type DocLookup, GeoPointValue } from './values.ts';

function run(
  source: string,
  params: Record<string, unknown> = {},
  extra: { score?: number; doc?: DocLookup } = {},
) {
  return compileScript(source).run({ params, ...extra });
}

function docOf(fields: Record<string, DocField>): DocLookup {
  return {
    get: (f) => {
      const d = fields[f];
      if (!d) throw new Error(`no ${f}`);
      return d;
    },
    has: (f) => f in fields,
  };
}

function failure(source: string, params: Record<string, unknown> = {}) {
  try {
    run(source, params);
  } catch (e) {
    return e as {
      type: string;
      reason: string;
      metadata: Record<string, unknown>;
      causedBy?: { type: string; reason: string };
    };
  }
  throw new Error('no failure');
}

describe('Painless subset', () => {
  it('follows Java arithmetic: int division truncates, doubles do not, int wraps', () => {
    expect(run('7 / 2')).toBe(3);
    expect(run('-7 / 2')).toBe(-3);
    expect(run('7.0 / 2')).toBe(3.5);
    expect(run('7 % 3')).toBe(1);
    expect(run('2147483647 + 1')).toBe(-2147483648);
    expect(run('2147483647L + 1')).toBe(2147483648);
    expect(run('(double) 7 / 2')).toBe(3.5);
    expect(run('(int) 7.9')).toBe(7);
    expect(run('1 + 2 * 3 - 4 / 2')).toBe(5);
  });

  it('runs locals, if/else, for, for-each, while, ternaries, elvis, and returns', () => {
    expect(run('int total = 0; for (int i = 0; i < 5; i++) { total += i; } return total;')).toBe(10);
    expect(
      run('def sum = 0; for (def x : params.xs) { if (x > 2) { continue; } sum += x } sum', {
        xs: [1, 2, 3, 4],
      }),
    ).toBe(3);
    expect(run('int i = 0; while (true) { if (++i >= 3) break; } return i;')).toBe(3);
    expect(run('params.a > 1 ? "big" : "small"', { a: 2 })).toBe('big');
    expect(run('params.missing ?: "fallback"')).toBe('fallback');
    expect(run('if (params.x == null) { return -1 } else { return params.x }', {})).toBe(-1);
    expect(run('def m = ["a": 1, "b": 2]; return m.b + m["a"];')).toBe(3);
    expect(run('def l = new ArrayList(); l.add(3); l.add(4); return l.size() + l[1];')).toBe(6);
  });

  it('calls Math and String methods', () => {
    expect(run('Math.max(3, Math.abs(-7))')).toBe(7);
    expect(run('Math.sqrt(16) + Math.pow(2, 3)')).toBe(12);
    expect(run('Math.round(2.5)')).toBe(3);
    expect(run('Math.PI')).toBe(Math.PI);
    expect(run('"Hello".toLowerCase() + " " + "world".substring(1, 3).toUpperCase()')).toBe('hello OR');
    expect(run("'abc'.length() + 'abc'.indexOf('c')")).toBe(5);
    expect(run('"a,b".contains(",") && "abc".startsWith("ab") && !"abc".endsWith("x")')).toBe(true);
    expect(run('"x" + 1.0 + 2')).toBe('x1.02');
    expect(run('Integer.parseInt("41") + 1')).toBe(42);
  });

  it('reads doc values, params and _score', () => {
    const doc = docOf({
      price: new DocField('price', 'double', [4]),
      qty: new DocField('qty', 'long', [3, 5]),
      tag: new DocField('tag', 'string', []),
      loc: new DocField('loc', 'geo_point', [new GeoPointValue(52.5, 13.4)]),
    });
    expect(run("doc['price'].value / 8", {}, { doc })).toBe(0.5);
    expect(run("doc['qty'].value / 2", {}, { doc })).toBe(1);
    expect(run("doc['qty'].size() + doc['qty'][1]", {}, { doc })).toBe(7);
    expect(run("doc['tag'].empty && doc['tag'].size() == 0", {}, { doc })).toBe(true);
    expect(run("doc.containsKey('qty') && !doc.containsKey('nope')", {}, { doc })).toBe(true);
    expect(run("doc['loc'].lat + doc['loc'].value.lon", {}, { doc })).toBeCloseTo(65.9);
    expect(run('_score * params.factor', { factor: 2 }, { score: 1.5 })).toBe(3);
    expect(compileScript('_score * 2').needsScore).toBe(true);
  });

  it('reports compile errors as script_exception with the statement and position', () => {
    const e = failure('int x = 1; return y + x;');
    expect(e.type).toBe('script_exception');
    expect(e.reason).toBe('compile error');
    expect(e.metadata).toEqual({
      script_stack: ['return y + x;', '       ^---- HERE'],
      script: 'int x = 1; return y + x;',
      lang: 'painless',
      position: { offset: 18, start: 11, end: 24 },
    });
    expect(e.causedBy).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'cannot resolve symbol [y]',
    });
    expect(failure('1 +# 2').causedBy?.reason).toBe('unexpected character [#].');
    expect(failure('Math.nope(1)').causedBy?.reason).toBe(
      'Unknown call [nope] with [1] arguments on type [Math].',
    );
    expect(failure('int x = "a";').causedBy?.reason).toBe('Cannot cast from [String] to [int].');
  });

  it('reports runtime errors with their Java exception', () => {
    expect(failure('1 / params.zero', { zero: 0 }).causedBy).toMatchObject({
      type: 'arithmetic_exception',
      reason: '/ by zero',
    });
    const npe = failure('params.nothing.length()');
    expect(npe.reason).toBe('runtime error');
    expect(npe.causedBy?.type).toBe('null_pointer_exception');
    expect(failure('"a".foo()').causedBy?.reason).toBe('dynamic method [java.lang.String, foo/0] not found');
    expect(failure('params.s * 2', { s: 'x' }).causedBy?.reason).toBe(
      'Cannot apply [*] operation to types [java.lang.String] and [java.lang.Integer].',
    );
    expect(failure('while (true) {}').causedBy?.reason).toBe(
      'The maximum number of statements that can be executed in a loop has been reached.',
    );
    expect(failure('params.l[3]', { l: [1] }).causedBy?.type).toBe('index_out_of_bounds_exception');
  });

  it('reaches nothing of JavaScript', () => {
    expect(run('params.constructor')).toBe(null);
    expect(run('params.__proto__')).toBe(null);
    expect(failure('[1].constructor').causedBy?.reason).toBe(
      'dynamic getter [java.util.ArrayList, constructor] not found',
    );
    expect(failure('"a".constructor').causedBy?.reason).toBe(
      'dynamic getter [java.lang.String, constructor] not found',
    );
    expect(failure('process.exit(1)').causedBy?.reason).toBe('cannot resolve symbol [process]');
  });
});

/** Random arithmetic over doubles: the compiled script must give what JavaScript gives for the same tree. */
type Tree = { n: number } | { op: '+' | '-' | '*' | '/'; l: Tree; r: Tree } | { neg: Tree };

const tree: fc.Arbitrary<Tree> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ n: fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }) }),
    fc.record({ op: fc.constantFrom('+', '-', '*', '/'), l: tie('node'), r: tie('node') }),
    fc.record({ neg: tie('node') }),
  ),
})).node as fc.Arbitrary<Tree>;

function literal(n: number): string {
  const s = Math.abs(n).toExponential();
  return `${n < 0 || Object.is(n, -0) ? '-' : ''}${s}`;
}

function source(t: Tree): string {
  if ('n' in t) return `(${literal(t.n)})`;
  if ('neg' in t) return `(-${source(t.neg)})`;
  return `(${source(t.l)} ${t.op} ${source(t.r)})`;
}

function value(t: Tree): number {
  if ('n' in t) return t.n;
  if ('neg' in t) return -value(t.neg);
  const a = value(t.l);
  const b = value(t.r);
  switch (t.op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    default:
      return a / b;
  }
}

describe('compiled arithmetic', () => {
  it('equals JavaScript evaluation of the same expression over doubles', () => {
    fc.assert(
      fc.property(tree, (t) => {
        expect(Object.is(run(source(t)), value(t)) || run(source(t)) === value(t)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('equals Java int semantics over ints', () => {
    const int = fc.integer({ min: -100000, max: 100000 });
    fc.assert(
      fc.property(int, int, int, (a, b, c) => {
        const expected = c === 0 ? undefined : Math.trunc(Math.imul(a, b) / c) | 0;
        const src = `int a = ${a}; int b = ${b}; int c = ${c}; return a * b / c;`;
        if (expected === undefined) expect(() => run(src)).toThrow();
        else expect(run(src)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
