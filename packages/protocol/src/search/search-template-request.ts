/**
 * The body of `_search/template` and `_render/template` (Elasticsearch's SearchTemplateRequest):
 * an inline template (`source`, a string or an object, which is rendered from its JSON text)
 * or a stored one (`id`), its `params`, and `explain` / `profile`.
 */
import {
  actionRequestValidation,
  illegalArgument,
  parseException,
  requestBodyRequired,
} from '../errors/catalogue.ts';
import { xContentParseError } from '../query/local-errors.ts';
import { here, isObject, newCtx, tokenOf } from '../query/parse-context.ts';

export interface SearchTemplateRequest {
  /** The template's text (an object `source` as its JSON). */
  source?: string;
  id?: string;
  params: Record<string, unknown>;
  explain?: boolean;
  profile?: boolean;
}

export function parseSearchTemplateRequest(
  body: unknown,
  opts: { id?: string; requireTemplate?: boolean } = {},
): SearchTemplateRequest {
  if (body === undefined && opts.id === undefined) throw requestBodyRequired();
  const out: SearchTemplateRequest = { params: {} };
  if (opts.id !== undefined) out.id = opts.id;
  if (body !== undefined) {
    const ctx = newCtx(body);
    if (!isObject(body)) throw parseException(`request body must be an object, found [${tokenOf(body)}]`);
    for (const [key, v] of Object.entries(body)) {
      if (key === 'source' || key === 'inline') {
        out.source = typeof v === 'string' ? v : JSON.stringify(v);
      } else if (key === 'id') {
        out.id = String(v);
      } else if (key === 'params') {
        if (v === null) continue;
        if (!isObject(v)) {
          throw xContentParseError(
            `[search_template] params doesn't support values of type: ${tokenOf(v)}`,
            here(ctx, 'value', key),
          );
        }
        out.params = v;
      } else if (key === 'explain' || key === 'profile') {
        if (typeof v !== 'boolean') {
          throw xContentParseError(
            `[search_template] ${key} doesn't support values of type: ${tokenOf(v)}`,
            here(ctx, 'value', key),
          );
        }
        out[key] = v;
      } else {
        throw xContentParseError(`[search_template] unknown field [${key}]`, here(ctx, 'key', key));
      }
    }
  }
  if (out.source === undefined && out.id === undefined && opts.requireTemplate !== false) {
    throw actionRequestValidation(['template is missing']);
  }
  if (out.source !== undefined && out.id !== undefined && body !== undefined && opts.id === undefined) {
    throw illegalArgument('[search_template] either [id] or [source] must be specified, not both');
  }
  return out;
}
