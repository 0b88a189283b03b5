/**
 * Elasticsearch's Automatons.patterns for names and actions: each pattern is a literal with `*`
 * (any run of characters) and `?` (one character), or a Lucene-style `/regex/` matched against
 * the whole name. A list of patterns becomes one predicate.
 */

export type NamePredicate = (name: string) => boolean;

const NOTHING: NamePredicate = () => false;
const EVERYTHING: NamePredicate = () => true;

function escapeRegex(s: string): string {
  return s.replace(/[.+^${}()|[\]\\]/g, '\\$&');
}

/**
 * Lucene's RegExp syntax differs from JavaScript's in a few operators: `~` (complement) and
 * `&` (intersection) are Lucene's own. A complement of the whole expression (`~(…)`, as the
 * built-in `viewer` role writes `/~(([.]|ilm-history-).*)/`) is turned into a negative
 * look-ahead; other uses are left as JavaScript reads them.
 */
function luceneRegexSource(body: string): string {
  if (body.startsWith('~(') && body.endsWith(')')) return `(?!(?:${body.slice(2, -1)})$).*`;
  return body;
}

function patternSource(p: string): string {
  if (p.length >= 2 && p.startsWith('/') && p.endsWith('/'))
    return `(?:${luceneRegexSource(p.slice(1, -1))})`;
  return escapeRegex(p).replace(/\*/g, '.*').replace(/\?/g, '.');
}

/** Whether a pattern is a wildcard or regex rather than one literal name. */
export function isPattern(p: string): boolean {
  return p.includes('*') || p.includes('?') || (p.length >= 2 && p.startsWith('/') && p.endsWith('/'));
}

export function compilePatterns(patterns: readonly string[]): NamePredicate {
  if (patterns.length === 0) return NOTHING;
  if (patterns.includes('*')) return EVERYTHING;
  const literals = new Set(patterns.filter((p) => !isPattern(p)));
  const wild = patterns.filter(isPattern);
  if (wild.length === 0) return (name) => literals.has(name);
  const re = new RegExp(`^(?:${wild.map(patternSource).join('|')})$`, 's');
  return (name) => literals.has(name) || re.test(name);
}

/** Whether a pattern is a valid `/regex/` (non-regex patterns are always valid). */
export function regexError(p: string): string | undefined {
  if (!(p.length >= 2 && p.startsWith('/') && p.endsWith('/'))) return undefined;
  try {
    new RegExp(luceneRegexSource(p.slice(1, -1)));
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Patterns that match everything the `include` patterns do except what `exclude` matches. */
export function minus(include: NamePredicate, exclude: NamePredicate): NamePredicate {
  return (name) => include(name) && !exclude(name);
}
