/**
 * Search templates rendered as Elasticsearch's mustache engine renders them: variables are
 * escaped for JSON (`{{x}}` inside a JSON string stays one JSON string), `{{{x}}}` is not
 * escaped, and its functions — `{{#toJson}}name{{/toJson}}` (a parameter as JSON),
 * `{{#join}}name{{/join}}` (a list joined with commas, or with `delimiter='…'`) and
 * `{{#url}}…{{/url}}` (URL-encoded) — work as there. A template that does not compile fails
 * with Elasticsearch's `general_script_exception`.
 */
import { parseJson, type SearchTemplateRequest, ShoalError } from '@shoal/protocol';
import Mustache from 'mustache';

/** A stored template, as `PUT /_scripts/{id}` keeps it. */
export interface StoredTemplate {
  lang: string;
  source: string;
}

export type TemplateLookup = (id: string) => StoredTemplate | undefined;

function jsonEscape(v: unknown): string {
  return JSON.stringify(String(v)).slice(1, -1);
}

/** A parameter by its dotted path (`a.b.0`), as mustache resolves names. */
function lookup(view: Record<string, unknown>, path: string): unknown {
  let node: unknown = view;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function joined(value: unknown, delimiter: string): string {
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(delimiter);
  return value === undefined || value === null ? '' : String(value);
}

/** The names `{{#join delimiter='…'}}` sections use, so the view can answer each of them. */
const JOIN_WITH_DELIMITER = /\{\{#(join delimiter='([^']*)')\}\}/g;

function compileError(source: string, e: unknown): ShoalError {
  const message = e instanceof Error ? e.message : String(e);
  const detail = /^Unclosed tag/.test(message)
    ? 'Improperly closed variable in query-template:1'
    : `${message} in query-template:1`;
  return new ShoalError(
    'general_script_exception',
    `Failed to compile inline script [${source}] using lang [mustache]`,
    400,
    {},
    new ShoalError('mustache_exception', detail, 400),
  );
}

/**
 * A triple mustache must close with three braces right after its name: mustache.java refuses
 * `{{{x}}"`, where mustache.js would read on to the next `}}}` (JSON often has one).
 */
const TRIPLE_NOT_CLOSED = /\{\{\{[^}]*\}\}(?!\})/;

export function renderTemplate(source: string, params: Record<string, unknown>): string {
  if (TRIPLE_NOT_CLOSED.test(source)) throw compileError(source, new Error('Unclosed tag'));
  const view: Record<string, unknown> = {
    ...params,
    toJson: () => (text: string) => JSON.stringify(lookup(params, text.trim()) ?? null),
    join: () => (text: string) => joined(lookup(params, text.trim()), ','),
    url: () => (text: string, render: (t: string) => string) => encodeURIComponent(render(text)),
  };
  for (const m of source.matchAll(JOIN_WITH_DELIMITER)) {
    const delimiter = m[2]!;
    view[m[1]!] = () => (text: string) => joined(lookup(params, text.trim()), delimiter);
  }
  try {
    return Mustache.render(source, view, {}, { escape: jsonEscape });
  } catch (e) {
    throw compileError(source, e);
  }
}

/** The template's text: inline, or the stored one its id names. */
export function templateSource(req: SearchTemplateRequest, stored: TemplateLookup | undefined): string {
  if (req.source !== undefined) return req.source;
  const found = stored?.(req.id!);
  if (!found) {
    throw new ShoalError(
      'resource_not_found_exception',
      `unable to find script [${req.id}] in cluster state`,
      404,
    );
  }
  if (found.lang !== 'mustache') {
    throw new ShoalError(
      'illegal_argument_exception',
      `unexpected script lang [${found.lang}] for stored template [${req.id}], expected [mustache]`,
      400,
    );
  }
  return found.source;
}

/** Renders the template into the search body it stands for. */
export function renderSearchBody(
  req: SearchTemplateRequest,
  stored: TemplateLookup | undefined,
): Record<string, unknown> {
  const text = renderTemplate(templateSource(req, stored), req.params);
  const body = parseJson(text, 'template output');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ShoalError(
      'parsing_exception',
      'Expected [START_OBJECT] but found a template output of another type',
      400,
    );
  }
  return body as Record<string, unknown>;
}
