/**
 * Dynamic templates (DynamicTemplate): the mapping a new field gets when a template of the
 * mapping's `dynamic_templates` matches it — by `match_mapping_type` (the JSON type found:
 * string, long, double, boolean, date, object, binary), `match`/`unmatch` on the leaf name and
 * `path_match`/`path_unmatch` on the full path (simple `*` patterns, or regular expressions
 * with `match_pattern: regex`), the first that matches in order (a template with none of
 * these conditions matches nothing by itself); or by name, when an index
 * request names a template for a path (`dynamic_templates` of a bulk item), whatever its
 * conditions. `{name}` and `{dynamic_type}` in the template's mapping are replaced.
 */
import { mapperParsing } from '@shoal/protocol';
import { javaToString } from './java-text.ts';
import { isPlainObject } from './nodes.ts';

export type DynamicType = 'string' | 'long' | 'double' | 'boolean' | 'date' | 'object' | 'binary';

const DYNAMIC_TYPES: ReadonlySet<string> = new Set([
  'string',
  'long',
  'double',
  'boolean',
  'date',
  'object',
  'binary',
]);

export interface DynamicTemplate {
  name: string;
  matchMappingType?: readonly string[];
  match: readonly RegExp[];
  unmatch: readonly RegExp[];
  pathMatch: readonly RegExp[];
  pathUnmatch: readonly RegExp[];
  mapping: Record<string, unknown>;
}

function simpleRegExp(p: string): RegExp {
  const body = p
    .split('*')
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

function patterns(v: unknown, regex: boolean): RegExp[] {
  if (v === undefined || v === null) return [];
  const list = Array.isArray(v) ? v.map(javaToString) : [javaToString(v)];
  return list.map((p) => (regex ? new RegExp(`^(?:${p})$`) : simpleRegExp(p)));
}

/** The templates of a mapping, in order; malformed ones refused as DynamicTemplate.parse does. */
export function compileTemplates(raw: readonly unknown[] | undefined): DynamicTemplate[] {
  const out: DynamicTemplate[] = [];
  for (const entry of raw ?? []) {
    if (!isPlainObject(entry) || Object.keys(entry).length !== 1) {
      throw mapperParsing('Dynamic template syntax error. An array of named objects is expected.');
    }
    const [name, conf] = Object.entries(entry)[0]!;
    if (!isPlainObject(conf)) {
      throw mapperParsing('Dynamic template syntax error. An array of named objects is expected.');
    }
    const regex = conf.match_pattern === 'regex';
    const mapping = conf.mapping ?? conf.runtime;
    if (!isPlainObject(mapping))
      throw mapperParsing(`template [${name}] must have either mapping or runtime set`);
    let matchMappingType: string[] | undefined;
    if (conf.match_mapping_type !== undefined && conf.match_mapping_type !== '*') {
      const types = Array.isArray(conf.match_mapping_type)
        ? conf.match_mapping_type.map(javaToString)
        : [javaToString(conf.match_mapping_type)];
      for (const t of types) {
        if (t !== '*' && !DYNAMIC_TYPES.has(t)) {
          throw mapperParsing(
            `No field type matched on [${t}], possible values are [object, string, long, double, boolean, date, binary]`,
          );
        }
      }
      if (!types.includes('*')) matchMappingType = types;
    } else if (
      conf.match_mapping_type === undefined &&
      conf.match === undefined &&
      conf.path_match === undefined
    ) {
      // No matching condition at all: the template is only used when a request names it.
      matchMappingType = [];
    }
    out.push({
      name,
      matchMappingType,
      match: patterns(conf.match, regex),
      unmatch: patterns(conf.unmatch, regex),
      pathMatch: patterns(conf.path_match, regex),
      pathUnmatch: patterns(conf.path_unmatch, regex),
      mapping,
    });
  }
  return out;
}

function matches(t: DynamicTemplate, name: string, path: string, type: DynamicType): boolean {
  if (t.match.length > 0 && !t.match.some((r) => r.test(name))) return false;
  if (t.unmatch.some((r) => r.test(name))) return false;
  if (t.pathMatch.length > 0 && !t.pathMatch.some((r) => r.test(path))) return false;
  if (t.pathUnmatch.some((r) => r.test(path))) return false;
  if (t.matchMappingType && !t.matchMappingType.includes(type)) return false;
  return true;
}

/**
 * The template for a new field: the one the request names for its path (undefined when it
 * names none), else the first that matches. Throws when a named template does not exist.
 */
export function findTemplate(
  templates: readonly DynamicTemplate[],
  name: string,
  path: string,
  type: DynamicType,
  named: string | undefined,
  missing: (reason: string) => Error,
): DynamicTemplate | undefined {
  if (named !== undefined) {
    const t = templates.find((x) => x.name === named);
    if (!t)
      throw missing(`Can't find dynamic template for dynamic template name [${named}] of field [${path}]`);
    return t;
  }
  return templates.find((t) => matches(t, name, path, type));
}

function substitute(v: unknown, name: string, dynamicType: string): unknown {
  if (typeof v === 'string') return v.replaceAll('{name}', name).replaceAll('{dynamic_type}', dynamicType);
  if (Array.isArray(v)) return v.map((x) => substitute(x, name, dynamicType));
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      out[substitute(k, name, dynamicType) as string] = substitute(x, name, dynamicType);
    return out;
  }
  return v;
}

/** The template's mapping for one field, placeholders filled in, its type defaulted. */
export function templateMapping(
  t: DynamicTemplate,
  name: string,
  defaultType: string,
): Record<string, unknown> {
  // `{dynamic_type}` is the type dynamic mapping would give the value (XContentFieldType's
  // defaultMappingType: text for a string, float for a double), not the match type's name.
  const mapping = substitute(t.mapping, name, defaultType) as Record<string, unknown>;
  if (mapping.type === undefined) mapping.type = defaultType;
  return mapping;
}
