/**
 * Index expressions → concrete indices, as Elasticsearch resolves them: comma lists, `*`
 * wildcards, `_all`, aliases, `-exclusions` after a wildcard, with `ignore_unavailable`,
 * `allow_no_indices` and `expand_wildcards`.
 */
import { indexNotFound, simpleMatch } from '@shoal/protocol';
import type { IndexMetadata } from './index-metadata.ts';

export type ExpandWildcard = 'open' | 'closed' | 'hidden' | 'all' | 'none';

export interface IndicesOptions {
  ignoreUnavailable: boolean;
  allowNoIndices: boolean;
  expandWildcards: Set<ExpandWildcard>;
}

export const SEARCH_INDICES_OPTIONS: IndicesOptions = {
  ignoreUnavailable: false,
  allowNoIndices: true,
  expandWildcards: new Set(['open']),
};

export const STRICT_SINGLE_INDEX_OPTIONS: IndicesOptions = {
  ignoreUnavailable: false,
  allowNoIndices: false,
  expandWildcards: new Set(['open', 'closed']),
};

function bool(v: string | undefined, d: boolean): boolean {
  return v === undefined ? d : v === '' || v === 'true';
}

export function indicesOptionsFrom(query: Record<string, string>, defaults: IndicesOptions): IndicesOptions {
  if (
    query.expand_wildcards === undefined &&
    query.ignore_unavailable === undefined &&
    query.allow_no_indices === undefined
  ) {
    return defaults;
  }
  const expand = query.expand_wildcards
    ? new Set(query.expand_wildcards.split(',').map((s) => s.trim() as ExpandWildcard))
    : defaults.expandWildcards;
  return {
    ignoreUnavailable: bool(query.ignore_unavailable, defaults.ignoreUnavailable),
    allowNoIndices: bool(query.allow_no_indices, defaults.allowNoIndices),
    expandWildcards: expand,
  };
}

/** What makes an expression more than one index name. */
const SPECIAL = /[,*\s]/;

function isHidden(meta: IndexMetadata): boolean {
  return meta.settings['index.hidden'] === 'true';
}

function visibleByWildcard(meta: IndexMetadata, pattern: string, opts: IndicesOptions): boolean {
  const w = opts.expandWildcards;
  if (w.has('none')) return false;
  const all = w.has('all');
  if (meta.state === 'open' && !(all || w.has('open'))) return false;
  if (meta.state === 'close' && !(all || w.has('closed'))) return false;
  // Hidden and dot-indices only match a wildcard that names them (or expand_wildcards=hidden).
  if (
    (isHidden(meta) || meta.name.startsWith('.')) &&
    !(all || w.has('hidden')) &&
    !pattern.startsWith('.')
  ) {
    return false;
  }
  return true;
}

/**
 * The names an expression reached, as Elasticsearch's resolveExpressions keeps them for alias
 * filters and search routing: the aliases (named or matched by a wildcard) and the indices named
 * or matched themselves. Filled only when some alias was reached: an expression that names one
 * concrete index leaves both unset.
 */
export interface ReachedNames {
  aliases?: Set<string>;
  indices?: Set<string>;
}

/**
 * Resolves an expression against the current indices. Returns index names in a stable order
 * (sorted), without duplicates; `reached`, when given, receives the names it went through.
 */
export function resolveIndices(
  expression: string | undefined,
  indices: ReadonlyMap<string, IndexMetadata>,
  opts: IndicesOptions,
  reached?: ReachedNames,
): IndexMetadata[] {
  // One concrete index by its exact name, the common case: what the general walk below would
  // choose (index names hold no comma, wildcard or white space), without building an alias table.
  if (expression !== undefined && !SPECIAL.test(expression)) {
    const meta = indices.get(expression);
    if (meta) return [meta];
  }
  const parts = (expression ?? '_all')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const chosen = new Set<string>();
  const viaAlias = new Set<string>();
  const direct = new Set<string>();
  const aliasIndex = new Map<string, string[]>();
  // Data streams, which every `_all` and `*` reach (their backing indices are hidden).
  const streams = new Set<string>();
  // Hidden data streams, which only a wildcard that names them or expand_wildcards=hidden reach.
  const hiddenStreams = new Set<string>();
  for (const meta of indices.values()) {
    for (const [alias, a] of meta.aliases) {
      const list = aliasIndex.get(alias) ?? [];
      list.push(meta.name);
      aliasIndex.set(alias, list);
      if (a.dataStream && !a.isHidden) streams.add(alias);
      if (a.dataStream && a.isHidden) hiddenStreams.add(alias);
    }
  }
  const expandsHidden = opts.expandWildcards.has('all') || opts.expandWildcards.has('hidden');
  let sawWildcard = false;
  const all = parts.length === 0 || (parts.length === 1 && (parts[0] === '_all' || parts[0] === '*'));
  if (all) {
    for (const meta of indices.values()) if (visibleByWildcard(meta, '*', opts)) chosen.add(meta.name);
    for (const stream of streams) for (const n of aliasIndex.get(stream)!) chosen.add(n);
  } else {
    for (const part of parts) {
      if (part.startsWith('-') && sawWildcard) {
        const excluded = part.slice(1);
        for (const n of [...chosen]) if (simpleMatch(excluded, n)) chosen.delete(n);
        for (const n of [...viaAlias]) if (simpleMatch(excluded, n)) viaAlias.delete(n);
        for (const n of [...direct]) if (simpleMatch(excluded, n)) direct.delete(n);
        continue;
      }
      if (part.includes('*')) {
        sawWildcard = true;
        for (const meta of indices.values()) {
          if (simpleMatch(part, meta.name) && visibleByWildcard(meta, part, opts)) {
            chosen.add(meta.name);
            direct.add(meta.name);
          }
        }
        for (const [alias, names] of aliasIndex) {
          if (hiddenStreams.has(alias) && !expandsHidden && !part.startsWith('.')) continue;
          if (simpleMatch(part, alias)) {
            viaAlias.add(alias);
            for (const n of names) chosen.add(n);
          }
        }
        continue;
      }
      if (part === '_all') {
        for (const meta of indices.values()) {
          if (visibleByWildcard(meta, '*', opts)) {
            chosen.add(meta.name);
            direct.add(meta.name);
          }
        }
        continue;
      }
      if (indices.has(part)) {
        chosen.add(part);
        direct.add(part);
      } else if (aliasIndex.has(part)) {
        viaAlias.add(part);
        for (const n of aliasIndex.get(part)!) chosen.add(n);
      } else if (!opts.ignoreUnavailable) {
        throw indexNotFound(part);
      }
    }
  }
  if (chosen.size === 0 && !opts.allowNoIndices) {
    throw indexNotFound(expression ?? '_all');
  }
  // `_all` and `*` (Elasticsearch's isAllIndices) reach every index by itself: no alias applies.
  if (reached && !all && viaAlias.size > 0) {
    reached.aliases = viaAlias;
    reached.indices = direct;
  }
  return [...chosen].sort().map((n) => indices.get(n)!);
}
