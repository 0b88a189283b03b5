/**
 * Index patterns of templates (`*` wildcards, Elasticsearch's Regex.simpleMatch): whether a
 * name matches one, and whether two patterns can match a common name (what Elasticsearch
 * checks with automata before it accepts two templates of one priority).
 */

export function simpleMatch(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const parts = pattern.split('*');
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!name.startsWith(first) || name.length < first.length + last.length || !name.endsWith(last))
    return false;
  let at = first.length;
  const end = name.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = name.indexOf(parts[i]!, at);
    if (found < 0 || found + parts[i]!.length > end) return false;
    at = found + parts[i]!.length;
  }
  return true;
}

export function matchesAny(patterns: readonly string[], name: string): boolean {
  return patterns.some((p) => simpleMatch(p, name));
}

/** Whether some name matches both patterns. */
export function patternsOverlap(p: string, q: string): boolean {
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (q.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let r: boolean;
    if (i === p.length && j === q.length) r = true;
    else if (i < p.length && p[i] === '*') r = go(i + 1, j) || (j < q.length && go(i, j + 1));
    else if (j < q.length && q[j] === '*') r = go(i, j + 1) || (i < p.length && go(i + 1, j));
    else r = i < p.length && j < q.length && p[i] === q[j] && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}

/** The patterns of `a` that overlap some pattern of `b`. */
export function overlapping(a: readonly string[], b: readonly string[]): boolean {
  return a.some((p) => b.some((q) => patternsOverlap(p, q)));
}
