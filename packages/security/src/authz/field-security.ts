/**
 * A role's `field_security` (Elasticsearch's FieldPermissions): the fields it grants are the
 * `grant` patterns — plus every metadata field (`_*`) unless `grant` is `*` already — minus the
 * `except` patterns, which must name only granted fields. Patterns are `*`/`?` globs over full
 * field paths.
 */
import { type FieldRule, notImplemented } from '@shoal/protocol';
import type { FieldSecurity } from './role-descriptor.ts';

const METADATA = '_*';

function isRegex(p: string): boolean {
  return p.length >= 2 && p.startsWith('/') && p.endsWith('/');
}

/** The rule a role's `field_security` gives the field-subset reader. */
export function fieldRuleOf(fs: FieldSecurity): FieldRule {
  const grant = fs.grant ?? ['*'];
  return {
    include: grant.includes('*') ? ['*'] : [...grant, METADATA],
    exclude: fs.except ?? [],
  };
}

/** A union of glob patterns as a set-of-positions automaton, stepped a character at a time. */
class Globs {
  constructor(private readonly patterns: readonly string[]) {}

  start(): string[] {
    return this.closure(this.patterns.map((_, i) => [i, 0] as const));
  }

  step(states: readonly string[], ch: string): string[] {
    const next: (readonly [number, number])[] = [];
    for (const s of states) {
      const [i, p] = s.split(':').map(Number) as [number, number];
      const c = this.patterns[i]![p];
      if (c === '*') next.push([i, p]);
      else if (c === '?' || c === ch) next.push([i, p + 1]);
    }
    return this.closure(next);
  }

  accepts(states: readonly string[]): boolean {
    return states.some((s) => {
      const [i, p] = s.split(':').map(Number) as [number, number];
      return p === this.patterns[i]!.length;
    });
  }

  private closure(start: readonly (readonly [number, number])[]): string[] {
    const out = new Set<string>();
    const stack = [...start];
    while (stack.length > 0) {
      const [i, p] = stack.pop()!;
      const key = `${i}:${p}`;
      if (out.has(key)) continue;
      out.add(key);
      if (this.patterns[i]![p] === '*') stack.push([i, p + 1]);
    }
    return [...out].sort();
  }
}

/** Whether every name `sub` matches, `sup` matches too (both lists of globs). */
export function globsSubsetOf(sub: readonly string[], sup: readonly string[]): boolean {
  if (sub.length === 0 || sup.includes('*')) return true;
  // The characters that can tell patterns apart, and one that none of them names.
  const alphabet = new Set<string>(['\u0000']);
  for (const p of [...sub, ...sup]) for (const c of p) if (c !== '*' && c !== '?') alphabet.add(c);
  const a = new Globs(sub);
  const b = new Globs(sup);
  const seen = new Set<string>();
  const queue: [string[], string[]][] = [[a.start(), b.start()]];
  while (queue.length > 0) {
    const [sa, sb] = queue.pop()!;
    const key = `${sa.join(',')}|${sb.join(',')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (a.accepts(sa) && !b.accepts(sb)) return false;
    for (const ch of alphabet) {
      const na = a.step(sa, ch);
      if (na.length > 0) queue.push([na, b.step(sb, ch)]);
    }
  }
  return true;
}

/**
 * FieldPermissions.buildPermittedFieldsAutomaton's check: the reason `except` is refused, or
 * undefined when it names only granted fields.
 */
export function fieldSecurityError(fs: FieldSecurity): string | undefined {
  const grant = fs.grant ?? ['*'];
  const except = fs.except ?? [];
  if ([...grant, ...except].some(isRegex)) {
    throw notImplemented("regular expressions (/…/) in a role's [field_security]");
  }
  if (globsSubsetOf(except, fieldRuleOf(fs).include)) return undefined;
  return `Exceptions for field permissions must be a subset of the granted fields but ${except.join(',')} is not a subset of ${grant.join(',')}`;
}
