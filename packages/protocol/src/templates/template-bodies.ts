/**
 * The bodies of `PUT /_index_template/{name}` (ComposableIndexTemplate), `PUT
 * /_component_template/{name}` (ComponentTemplate) and the legacy `PUT /_template/{name}`
 * (IndexTemplateMetadata), read with Elasticsearch's field names, types and errors. Settings are
 * normalised to their flat `index.*` form and validated here; mappings and aliases stay JSON
 * and are checked when the composed index is built.
 */
import { actionRequestValidation, illegalArgument, requestBodyRequired } from '../errors/catalogue.ts';
import { xContentParseError } from '../query/local-errors.ts';
import { here, isObject, newCtx, type ParseCtx, tokenOf } from '../query/parse-context.ts';
import { type FlatSettings, normalizeSettings } from '../settings/normalize.ts';
import { validateSettings } from '../settings/validate.ts';

/** The `template` part every kind has: settings, mappings, aliases. */
export interface TemplateParts {
  settings?: FlatSettings;
  mappings?: Record<string, unknown>;
  aliases?: Record<string, Record<string, unknown>>;
}

export interface ComposableTemplate {
  indexPatterns: string[];
  template?: TemplateParts;
  composedOf: string[];
  priority?: number;
  version?: number;
  meta?: Record<string, unknown>;
  dataStream?: { hidden: boolean; allowCustomRouting: boolean };
  allowAutoCreate?: boolean;
  ignoreMissingComponentTemplates: string[];
  deprecated?: boolean;
}

export interface ComponentTemplate {
  template: TemplateParts;
  version?: number;
  meta?: Record<string, unknown>;
  deprecated?: boolean;
}

export interface LegacyTemplate {
  indexPatterns: string[];
  order: number;
  version?: number;
  settings: FlatSettings;
  mappings: Record<string, unknown>;
  aliases: Record<string, Record<string, unknown>>;
}

function fail(ctx: ParseCtx, parser: string, key: string, v: unknown): never {
  throw xContentParseError(
    `[${parser}] failed to parse field [${key}]: ${key} doesn't support values of type: ${tokenOf(v)}`,
    here(ctx, 'value', key),
  );
}

function unknown(ctx: ParseCtx, parser: string, key: string): never {
  throw xContentParseError(`[${parser}] unknown field [${key}]`, here(ctx, 'key', key));
}

function intField(ctx: ParseCtx, parser: string, key: string, v: unknown): number {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) fail(ctx, parser, key, v);
  return n;
}

function stringList(ctx: ParseCtx, parser: string, key: string, v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) fail(ctx, parser, key, v);
  return v as string[];
}

function objectField(ctx: ParseCtx, parser: string, key: string, v: unknown): Record<string, unknown> {
  if (!isObject(v)) fail(ctx, parser, key, v);
  return v;
}

function settingsOf(v: unknown): FlatSettings {
  const given = normalizeSettings(v ?? {}, 'index');
  validateSettings(given, 'index');
  const flat: FlatSettings = {};
  for (const [k, value] of Object.entries(given)) if (value !== null) flat[k] = value;
  return flat;
}

/** `_doc` as the one mapping type is unwrapped, as Elasticsearch does for templates. */
function mappingsOf(v: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === '_doc' && isObject(v._doc)) return v._doc;
  return v;
}

function aliasesOf(ctx: ParseCtx, parser: string, v: unknown): Record<string, Record<string, unknown>> {
  const obj = objectField(ctx, parser, 'aliases', v);
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, spec] of Object.entries(obj)) {
    if (spec !== null && !isObject(spec)) fail(ctx, parser, 'aliases', spec);
    out[name] = (spec ?? {}) as Record<string, unknown>;
  }
  return out;
}

function readParts(ctx: ParseCtx, v: unknown): TemplateParts {
  const obj = objectField(ctx, 'template', 'template', v);
  ctx.path.push('template');
  const out: TemplateParts = {};
  for (const [key, value] of Object.entries(obj)) {
    if (value === null) continue;
    if (key === 'settings') out.settings = settingsOf(objectField(ctx, 'template', key, value));
    else if (key === 'mappings') out.mappings = mappingsOf(objectField(ctx, 'template', key, value));
    else if (key === 'aliases') out.aliases = aliasesOf(ctx, 'template', value);
    else if (key === 'lifecycle' || key === 'data_stream_options') objectField(ctx, 'template', key, value);
    else unknown(ctx, 'template', key);
  }
  ctx.path.pop();
  return out;
}

function body(raw: unknown): { ctx: ParseCtx; obj: Record<string, unknown> } {
  if (raw === undefined) throw requestBodyRequired();
  const ctx = newCtx(raw);
  if (!isObject(raw)) throw illegalArgument('Malformed content, must start with an object');
  return { ctx, obj: raw };
}

export function parseComposableTemplate(raw: unknown): ComposableTemplate {
  const { ctx, obj } = body(raw);
  const P = 'index_template';
  const out: ComposableTemplate = { indexPatterns: [], composedOf: [], ignoreMissingComponentTemplates: [] };
  let patterns: string[] | undefined;
  for (const [key, v] of Object.entries(obj)) {
    if (key === 'index_patterns') patterns = stringList(ctx, P, key, v);
    else if (key === 'template') {
      if (v !== null) out.template = readParts(ctx, v);
    } else if (key === 'composed_of') out.composedOf = stringList(ctx, P, key, v);
    else if (key === 'priority') out.priority = intField(ctx, P, key, v);
    else if (key === 'version') out.version = intField(ctx, P, key, v);
    else if (key === '_meta') out.meta = objectField(ctx, P, key, v);
    else if (key === 'data_stream') {
      const ds = objectField(ctx, P, key, v);
      out.dataStream = { hidden: ds.hidden === true, allowCustomRouting: ds.allow_custom_routing === true };
    } else if (key === 'allow_auto_create') {
      if (typeof v !== 'boolean') fail(ctx, P, key, v);
      out.allowAutoCreate = v;
    } else if (key === 'ignore_missing_component_templates') {
      out.ignoreMissingComponentTemplates = stringList(ctx, P, key, v);
    } else if (key === 'deprecated') {
      if (typeof v !== 'boolean') fail(ctx, P, key, v);
      out.deprecated = v;
    } else unknown(ctx, P, key);
  }
  const problems: string[] = [];
  if (!patterns || patterns.length === 0) problems.push('index patterns are missing');
  if (out.priority !== undefined && out.priority < 0) problems.push('index template priority must be >= 0');
  if (problems.length > 0) throw actionRequestValidation(problems);
  out.indexPatterns = patterns!;
  return out;
}

export function parseComponentTemplate(raw: unknown): ComponentTemplate {
  const { ctx, obj } = body(raw);
  const P = 'component_template';
  let template: TemplateParts | undefined;
  const out: Omit<ComponentTemplate, 'template'> = {};
  for (const [key, v] of Object.entries(obj)) {
    if (key === 'template') template = readParts(ctx, v);
    else if (key === 'version') out.version = intField(ctx, P, key, v);
    else if (key === '_meta') out.meta = objectField(ctx, P, key, v);
    else if (key === 'deprecated') {
      if (typeof v !== 'boolean') fail(ctx, P, key, v);
      out.deprecated = v;
    } else unknown(ctx, P, key);
  }
  if (!template) throw illegalArgument('Required [template]');
  return { ...out, template };
}

export function parseLegacyTemplate(raw: unknown): LegacyTemplate {
  const { ctx, obj } = body(raw);
  const P = 'template';
  const out: LegacyTemplate = { indexPatterns: [], order: 0, settings: {}, mappings: {}, aliases: {} };
  for (const [key, v] of Object.entries(obj)) {
    if (key === 'index_patterns' || key === 'template') out.indexPatterns = stringList(ctx, P, key, v);
    else if (key === 'order') out.order = intField(ctx, P, key, v);
    else if (key === 'version') out.version = intField(ctx, P, key, v);
    else if (key === 'settings') out.settings = settingsOf(objectField(ctx, P, key, v));
    else if (key === 'mappings') out.mappings = mappingsOf(objectField(ctx, P, key, v));
    else if (key === 'aliases') out.aliases = aliasesOf(ctx, P, v);
    else throw illegalArgument(`unknown key [${key}] in the template `);
  }
  if (out.indexPatterns.length === 0) throw actionRequestValidation(['index patterns are missing']);
  return out;
}
