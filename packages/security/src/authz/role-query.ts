/**
 * A role's document-level security `query` (Elasticsearch's DLSRoleQueryValidator and
 * SecurityQueryTemplateEvaluator): checked when the role is stored — unless it is a template,
 * which needs a user — and, when it is `{"template": {"source": …, "params": …}}`, rendered
 * for each user with `_user` (`username`, `full_name`, `email`, `roles`, `metadata`).
 */
import { illegalArgument, notImplemented, parseException, parseQuery, ShoalError } from '@shoal/protocol';
import type { User } from '../authc/user.ts';
import { isObject } from './json-tokens.ts';
import type { RoleDescriptor } from './role-descriptor.ts';
import { renderMustache } from './role-templates.ts';

const UNSUPPORTED = new Set(['has_child', 'has_parent', 'percolate']);

/** The query kinds a role query may not use, found anywhere inside it. */
function checkAllowed(node: unknown): void {
  if (Array.isArray(node)) {
    for (const v of node) checkAllowed(v);
    return;
  }
  if (!isObject(node)) return;
  for (const [k, v] of Object.entries(node)) {
    if (UNSUPPORTED.has(k)) throw illegalArgument(`${k} query isn't supported as part of a role query`);
    if (k === 'terms' && isObject(v)) {
      for (const [field, values] of Object.entries(v)) {
        if (field !== 'boost' && field !== '_name' && isObject(values)) {
          throw illegalArgument("terms query with terms lookup isn't supported as part of a role query");
        }
      }
    }
    checkAllowed(v);
  }
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw parseException(`failed to parse the role query: ${(e as Error).message}`);
  }
}

function isTemplate(json: unknown): json is { template: unknown } {
  return isObject(json) && Object.keys(json)[0] === 'template';
}

/** A role query as a search filter's JSON, checked (what evaluateAndVerifyRoleQuery builds). */
function verified(text: string): unknown {
  const json = parsedJson(text);
  if (!isObject(json)) {
    throw parseException(
      `expected [START_OBJECT] but found [${Array.isArray(json) ? 'START_ARRAY' : 'VALUE'}] instead`,
    );
  }
  checkAllowed(json);
  parseQuery(json);
  return json;
}

function asShoalError(e: unknown): ShoalError {
  return e instanceof ShoalError ? e : illegalArgument(e instanceof Error ? e.message : String(e));
}

/** DLSRoleQueryValidator.validateQueryField: every query that is not a template parses. */
export function checkRoleQueries(d: RoleDescriptor): void {
  d.indices.forEach((ip, i) => {
    if (ip.query === undefined) return;
    try {
      if (isTemplate(parsedJson(ip.query))) return;
      verified(ip.query);
    } catch (e) {
      throw parseException(
        `failed to parse field 'query' for indices [${ip.names.join(',')}] at index privilege [${i}] of role descriptor`,
        asShoalError(e),
      );
    }
  });
}

function templateSource(template: unknown): { source: string; params: Record<string, unknown> } {
  if (typeof template === 'string') return { source: template, params: {} };
  if (!isObject(template)) throw parseException("the role query's [template] must be an object or a string");
  if (template.id !== undefined) throw notImplemented('stored scripts as a role query template');
  const { source, params } = template;
  return {
    source: typeof source === 'string' ? source : JSON.stringify(source ?? {}),
    params: isObject(params) ? params : {},
  };
}

/**
 * The role query as this user's filter (a JSON value to parse as a query). A query that is
 * not a template is the same for everyone.
 */
export function userRoleQuery(query: string, user: User): unknown {
  const json = parsedJson(query);
  if (!isTemplate(json)) return json;
  const { source, params } = templateSource(json.template);
  const rendered = renderMustache(source, {
    ...params,
    _user: {
      username: user.username,
      full_name: user.fullName,
      email: user.email,
      roles: user.roles,
      metadata: user.metadata,
    },
  });
  try {
    return verified(rendered);
  } catch (e) {
    throw parseException("failed to parse field 'query' from the role descriptor", asShoalError(e));
  }
}
