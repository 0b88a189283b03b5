/**
 * Role templates of role mappings (Elasticsearch's TemplateRoleName): a mustache template
 * rendered with the user's data (`username`, `dn`, `groups`, `metadata`, `realm.name`, and the
 * template's own `params`) into role names — one name (`format: string`, the default), or a
 * JSON string or array of strings (`format: json`). As Elasticsearch's mustache engine, values
 * are escaped for JSON and `{{#tojson}}…{{/tojson}}` and `{{#join}}…{{/join}}` work.
 */
import { illegalArgument, notImplemented, parseException, ShoalError } from '@shoal/protocol';
import Mustache from 'mustache';
import type { UserData } from './role-mapping.ts';

export interface RoleTemplate {
  /** The template as it was given (`{"source": …}` or a string), as JSON text: how GET shows it. */
  template: string;
  source: string;
  params: Record<string, unknown>;
  format: 'string' | 'json';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One `role_templates` entry (`{"template": …, "format"?: …}`), or the stored form back. */
export function parseRoleTemplate(mapping: string, v: unknown): RoleTemplate {
  const fail = (what: string): never => {
    throw parseException(`failed to parse role-mapping [${mapping}]. ${what}`);
  };
  if (!isObject(v)) return fail('expected field [role_templates] to be an array of objects');
  let given: unknown;
  let format: 'string' | 'json' = 'string';
  for (const [k, val] of Object.entries(v)) {
    if (k === 'template') {
      // A string is the script's JSON text, as TemplateRoleName reads it (and writes it back).
      if (typeof val !== 'string') given = val;
      else {
        try {
          given = JSON.parse(val);
        } catch {
          fail(`the role template [${val}] is not a script's JSON`);
        }
      }
    } else if (k === 'format') {
      if (val !== 'string' && val !== 'json') fail(`unknown role template format [${String(val)}]`);
      format = val as 'string' | 'json';
    } else fail(`unexpected field [${k}] in a role template`);
  }
  if (given === undefined) fail('a role template requires a [template]');
  let source: string | undefined;
  let params: Record<string, unknown> = {};
  if (typeof given === 'string') source = given;
  else if (isObject(given)) {
    for (const [k, val] of Object.entries(given)) {
      if (k === 'source' && typeof val === 'string') source = val;
      else if (k === 'params' && isObject(val)) params = val;
      else if (k === 'lang') {
        if (val !== 'mustache')
          throw illegalArgument(`role templates must use the mustache language, found [${String(val)}]`);
      } else if (k === 'id') throw notImplemented('stored scripts ([id]) as role templates');
      else if (k !== 'options') fail(`unexpected field [${k}] in a role template's script`);
    }
  }
  if (source === undefined) return fail('a role template requires a [source]');
  return { template: JSON.stringify(given), source, params, format };
}

/** The stored and GET form: `template` as JSON text, as TemplateRoleName writes it. */
export function roleTemplateJson(t: RoleTemplate): Record<string, unknown> {
  return { template: t.template, format: t.format };
}

function lookup(view: Record<string, unknown>, path: string): unknown {
  let node: unknown = view;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

const jsonEscape = (v: unknown) => JSON.stringify(String(v)).slice(1, -1);

function render(t: RoleTemplate, model: Record<string, unknown>): string {
  return renderMustache(t.source, { ...t.params, ...model });
}

/**
 * A mustache script as Elasticsearch's mustache engine renders it for JSON: values escaped for
 * JSON strings, with its `{{#toJson}}` and `{{#join}}` functions.
 */
export function renderMustache(source: string, params: Record<string, unknown>): string {
  const toJson = () => (text: string) => JSON.stringify(lookup(params, text.trim()) ?? null);
  const join = () => (text: string) => {
    const v = lookup(params, text.trim());
    return Array.isArray(v) ? v.map(String).join(',') : v === undefined || v === null ? '' : String(v);
  };
  try {
    return Mustache.render(source, { ...params, toJson, tojson: toJson, join }, {}, { escape: jsonEscape });
  } catch (e) {
    throw illegalArgument(
      `Failed to compile inline script [${source}] using lang [mustache]`,
      new ShoalError('mustache_exception', e instanceof Error ? e.message : String(e), 400),
    );
  }
}

/** TemplateRoleName.validate: the template compiles (rendered with no user). */
export function checkRoleTemplate(t: RoleTemplate): void {
  render(t, {});
}

/** The role names a template gives this user (none for an empty rendering). */
export function templateRoles(t: RoleTemplate, user: UserData): string[] {
  const text = render(t, {
    username: user.username,
    dn: user.dn,
    groups: user.groups,
    metadata: user.metadata,
    realm: { name: user.realmName },
  });
  if (t.format === 'string') return text === '' ? [] : [text];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw illegalArgument(`the role template rendered [${text}], which is not JSON`);
  }
  if (typeof parsed === 'string') return [parsed];
  if (Array.isArray(parsed) && parsed.every((r) => typeof r === 'string')) return parsed as string[];
  throw illegalArgument(
    `the role template rendered [${text}], which is neither a string nor an array of strings`,
  );
}
