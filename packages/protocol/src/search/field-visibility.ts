/**
 * Which fields a read may see, and `_source` as it looks with the others taken out: what
 * Elasticsearch's FieldSubsetReader does for field-level security. Patterns are `*`/`?` globs
 * over full dotted paths (`customer.name`): granting `customer` does not grant
 * `customer.name`, `customer.*` does; a multi-field (`title.keyword`) is a path of its own.
 *
 * A field is visible when, in every layer, some rule includes it and does not exclude it (a
 * layer is one permission; an API key's descriptors are limited by its owner's, two layers).
 */

export interface FieldRule {
  include: string[];
  exclude: string[];
}

/** Layers of rules, all of which a field must pass; plain JSON, so it crosses to the workers. */
export type FieldVisibility = FieldRule[][];

export type FieldPredicate = (path: string) => boolean;

/**
 * The metadata fields, never hidden (FieldPermissions' allow-listed metadata fields); a field of
 * the document that merely starts with `_` follows the rules like any other.
 */
const METADATA_FIELDS: ReadonlySet<string> = new Set([
  '_id',
  '_index',
  '_routing',
  '_source',
  '_ignored',
  '_seq_no',
  '_primary_term',
  '_version',
  '_field_names',
  '_doc_count',
  '_tier',
  '_data_stream_timestamp',
  '_nested_path',
  '_feature',
  '_size',
]);

function globSource(p: string): string {
  return p
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
}

function globs(patterns: readonly string[]): FieldPredicate {
  if (patterns.length === 0) return () => false;
  if (patterns.includes('*')) return () => true;
  const re = new RegExp(`^(?:${patterns.map(globSource).join('|')})$`, 's');
  return (path) => re.test(path);
}

const compiled = new Map<string, FieldPredicate>();
const COMPILED_MAX = 256;

/** The predicate of a visibility, metadata fields always visible (compiled once per distinct visibility). */
export function fieldPredicate(v: FieldVisibility): FieldPredicate {
  const key = JSON.stringify(v);
  let p = compiled.get(key);
  if (p) return p;
  const layers = v.map((rules) =>
    rules.map((r) => {
      const inc = globs(r.include);
      const exc = globs(r.exclude);
      return (path: string) => inc(path) && !exc(path);
    }),
  );
  const memo = new Map<string, boolean>();
  p = (path) => {
    let seen = memo.get(path);
    if (seen === undefined) {
      seen = METADATA_FIELDS.has(path) || layers.every((rules) => rules.some((r) => r(path)));
      if (memo.size < 4096) memo.set(path, seen);
    }
    return seen;
  };
  if (compiled.size >= COMPILED_MAX) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, p);
  return p;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function filterList(list: unknown[], path: string, visible: FieldPredicate): unknown[] {
  const out: unknown[] = [];
  for (const v of list) {
    if (isMap(v)) {
      const m = filterObject(v, `${path}.`, visible);
      if (Object.keys(m).length > 0) out.push(m);
    } else if (Array.isArray(v)) {
      const l = filterList(v, path, visible);
      if (l.length > 0) out.push(l);
    } else if (visible(path)) out.push(v);
  }
  return out;
}

function filterObject(map: Record<string, unknown>, prefix: string, visible: FieldPredicate) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(map)) {
    const path = prefix + k;
    if (isMap(v)) {
      const m = filterObject(v, `${path}.`, visible);
      if (Object.keys(m).length > 0) out[k] = m;
    } else if (Array.isArray(v)) {
      const l = filterList(v, path, visible);
      if (l.length > 0) out[k] = l;
    } else if (visible(path)) out[k] = v;
  }
  return out;
}

/**
 * `_source` with only the visible leaves: objects and arrays left empty are dropped, key order
 * is kept. Pure: the input is not modified.
 */
export function visibleSource(source: unknown, visible: FieldPredicate): unknown {
  return isMap(source) ? filterObject(source, '', visible) : source;
}
