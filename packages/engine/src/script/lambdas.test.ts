import { describe, expect, it } from 'vitest';
import { compileScript } from './script.ts';

function run(source: string, params: Record<string, unknown> = {}) {
  return compileScript(source).run({ params });
}

function failure(source: string, params: Record<string, unknown> = {}) {
  try {
    run(source, params);
  } catch (e) {
    return e as { type: string; reason: string; causedBy?: { type: string; reason: string } };
  }
  throw new Error('no failure');
}

describe('Painless lambdas and method references', () => {
  it('removeIf, sort with a comparator, forEach and replaceAll on lists', () => {
    expect(run('def l = [1, 2, 3, 4, 5]; l.removeIf(x -> x % 2 == 0); return l;')).toEqual([1, 3, 5]);
    expect(run('def l = [3, 1, 2]; l.sort((a, b) -> b - a); return l;')).toEqual([3, 2, 1]);
    expect(run("def l = ['bb', 'a', 'ccc']; l.sort(Comparator.comparing(String::length)); l")).toEqual([
      'a',
      'bb',
      'ccc',
    ]);
    expect(run('def l = [3, 1, 2]; l.sort(null); l')).toEqual([1, 2, 3]);
    expect(run('int total = 0; def l = [1, 2, 3]; l.forEach(x -> { total += x; }); return total;')).toBe(6);
    expect(run('def l = [1, 2]; l.replaceAll(x -> x * 10); l')).toEqual([10, 20]);
  });

  it('Collections.sort with and without a comparator, and Integer::compare', () => {
    expect(run("def l = ['b', 'c', 'a']; Collections.sort(l); l")).toEqual(['a', 'b', 'c']);
    expect(run('def l = [1, 3, 2]; Collections.sort(l, (a, b) -> Integer.compare(b, a)); l')).toEqual([
      3, 2, 1,
    ]);
    expect(run('def l = [1, 3, 2]; Collections.sort(l, Integer::compare); l')).toEqual([1, 2, 3]);
    expect(run('def l = [1, 3, 2]; l.sort(Comparator.naturalOrder().reversed()); l')).toEqual([3, 2, 1]);
  });

  it('streams: filter, map, collect, mapToInt, sum, count, anyMatch, allMatch', () => {
    const xs = { xs: [1, 2, 3, 4, 5, 6] };
    expect(
      run('params.xs.stream().filter(x -> x > 2).map(x -> x * 2).collect(Collectors.toList())', xs),
    ).toEqual([6, 8, 10, 12]);
    expect(run("['a', 'bb', 'ccc'].stream().mapToInt(s -> s.length()).sum()")).toBe(6);
    expect(run("['a', 'bb', 'ccc'].stream().mapToInt(String::length).sum()")).toBe(6);
    expect(run('params.xs.stream().filter(x -> x % 2 == 0).count()', xs)).toBe(3);
    expect(run('params.xs.stream().anyMatch(x -> x > 5)', xs)).toBe(true);
    expect(run('params.xs.stream().allMatch(x -> x > 5)', xs)).toBe(false);
    expect(run('params.xs.stream().noneMatch(x -> x > 9)', xs)).toBe(true);
    expect(run('params.xs.stream().mapToInt(x -> x).max().getAsInt()', xs)).toBe(6);
    expect(run('params.xs.stream().mapToDouble(x -> x).average().getAsDouble()', xs)).toBe(3.5);
    expect(run('[].stream().mapToInt(x -> x).average().isPresent()')).toBe(false);
    expect(run("['b', 'a', 'b'].stream().distinct().sorted().collect(Collectors.joining(','))")).toBe('a,b');
    expect(run('params.xs.stream().reduce(0, (a, b) -> a + b)', xs)).toBe(21);
    expect(run('params.xs.stream().filter(x -> x > 4).findFirst().get()', xs)).toBe(5);
    expect(run("['x', 'yy', 'zz'].stream().collect(Collectors.groupingBy(String::length))")).toEqual(
      new Map<unknown, unknown>([
        [1, ['x']],
        [2, ['yy', 'zz']],
      ]),
    );
  });

  it('map.forEach with two parameters, computeIfAbsent and merge', () => {
    expect(
      run("def m = ['a': 1, 'b': 2]; def out = []; m.forEach((k, v) -> out.add(k + '=' + v)); return out;"),
    ).toEqual(['a=1', 'b=2']);
    expect(
      run(
        "def m = [:]; for (def w : ['a', 'b', 'a']) { m.merge(w, 1, (x, y) -> x + y); } return m.get('a');",
      ),
    ).toBe(2);
    expect(
      run(
        "def m = [:]; m.computeIfAbsent('k', k -> []).add(1); m.computeIfAbsent('k', k -> []).add(2); m.get('k')",
      ),
    ).toEqual([1, 2]);
    expect(run('def n = 0; params.m.forEach((k, v) -> { n += v; }); return n;', { m: { a: 1, b: 4 } })).toBe(
      5,
    );
  });

  it('block bodies return their value; typed parameters are accepted', () => {
    expect(
      run(
        'def l = [1, 2, 3]; return l.stream().map((int x) -> { int y = x * x; return y + 1; }).collect(Collectors.toList());',
      ),
    ).toEqual([2, 5, 10]);
    expect(run('def l = [5, 1]; l.sort((def a, def b) -> { return a - b; }); l')).toEqual([1, 5]);
    expect(run('def l = []; def f = () -> 42; l.add(f.get()); l')).toEqual([42]);
  });

  it('nests lambdas, each reading the variables around it', () => {
    expect(
      run(
        'def a = [1, 2, 3]; def b = [2, 3, 4]; return a.stream().map(x -> b.stream().filter(y -> y > x).count()).collect(Collectors.toList());',
      ),
    ).toEqual([3, 2, 1]);
    expect(run('int k = 10; def l = [1, 2]; l.replaceAll(x -> x + k); return l;')).toEqual([11, 12]);
  });

  it('refuses what Painless refuses, with its error', () => {
    const cause = (src: string) => failure(src).causedBy;
    expect(failure('def x = 1; [1].forEach(x -> x)').type).toBe('script_exception');
    expect(cause('def x = 1; [1].forEach(x -> x)')?.reason).toContain('variable [x] is already defined');
    expect(cause('[1, 2].removeIf(x -> 1)')?.type).toBe('class_cast_exception');
    expect(cause('[1].stream().collect(5)')?.type).toBe('class_cast_exception');
    expect(cause('[1].stream().findFirst().filter(x -> x > 3).get()')?.type).toBe(
      'no_such_element_exception',
    );
    expect(cause('[1].stream().sum()')?.reason).toBe(
      'dynamic method [java.util.stream.Stream, sum/0] not found',
    );
    expect(cause('[1, 2].sort(x -> 0)')?.reason).toContain('expected [2] but found [1]');
  });
});
