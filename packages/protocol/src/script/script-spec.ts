/**
 * A script as a request names it (Elasticsearch's Script.parse): a string is an inline
 * Painless source; an object has `source` (or the deprecated `inline`) or `id` (a stored
 * script), and `lang`, `params`, `options`. Shoal runs Painless only: `expression` and
 * `mustache` answer 501, other languages 400 as ScriptService refuses them.
 */
import { illegalArgument, notImplemented, parseException, resourceNotFound } from '../errors/catalogue.ts';
import { isObject, newCtx, type ParseCtx } from '../query/parse-context.ts';

export interface ScriptSpec {
  /** The inline source, or the stored script's once resolved. */
  source?: string;
  /** A stored script's id. */
  id?: string;
  lang: string;
  params: Record<string, unknown>;
}

export const INLINE_DEPRECATION = 'Deprecated field [inline] used, expected [source] instead';

/** Checks a script language Shoal can run. */
export function checkScriptLang(lang: string): void {
  if (lang === 'painless') return;
  if (lang === 'expression' || lang === 'mustache') throw notImplemented(`scripts in the [${lang}] language`);
  throw illegalArgument(`script_lang not supported [${lang}]`);
}

/**
 * The script in `v`. `warnings` receives the deprecation of `inline`; `ctx.scripts` (when the
 * caller collects them) every script read, for stored-script resolution and the compilation
 * limit.
 */
export function parseScriptSpec(ctx: ParseCtx | undefined, v: unknown, warnings?: string[]): ScriptSpec {
  let spec: ScriptSpec;
  if (typeof v === 'string') {
    spec = { source: v, lang: 'painless', params: {} };
  } else if (isObject(v)) {
    let source: string | undefined;
    let id: string | undefined;
    let lang: string | undefined;
    let params: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(v)) {
      switch (key) {
        case 'source':
        case 'inline':
          if (typeof value !== 'string') {
            // A non-string source is taken as a template body in Elasticsearch; Painless needs text.
            throw parseException(`Value must be of type String: [${key}]`);
          }
          if (key === 'inline') warnings?.push(INLINE_DEPRECATION);
          source = value;
          break;
        case 'id':
          if (typeof value !== 'string') throw parseException('Value must be of type String: [id]');
          id = value;
          break;
        case 'lang':
          if (typeof value !== 'string') throw parseException('Value must be of type String: [lang]');
          lang = value;
          break;
        case 'params':
          if (value === null) break;
          if (!isObject(value)) throw parseException(`Value must be of type Object: [params]`);
          params = value;
          break;
        case 'options':
          break;
        default:
          throw parseException(`[script] unknown field [${key}]`);
      }
    }
    if (source !== undefined && id !== undefined) {
      throw illegalArgument('must only use one of [source, id] for a script');
    }
    if (source === undefined && id === undefined) {
      throw illegalArgument('must specify either [source] for an inline script or [id] for a stored script');
    }
    if (id !== undefined && lang !== undefined)
      throw illegalArgument('lang cannot be specified for stored scripts');
    if (id !== undefined) {
      spec = { id, lang: 'painless', params };
      if (ctx?.storedScript) {
        // ScriptService.getScriptFromClusterState.
        const stored = ctx.storedScript(id);
        if (!stored) throw resourceNotFound(`unable to find script [${id}] in cluster state`);
        spec.source = stored.source;
        spec.lang = stored.lang;
      }
    } else {
      spec = { source, lang: lang ?? 'painless', params };
    }
  } else {
    throw parseException('expected a script as a string or an object');
  }
  checkScriptLang(spec.lang);
  ctx?.scripts?.push(spec);
  return spec;
}

/** The script in `v`, a stored one resolved through `storedScript` (a missing one is a 404). */
export function parseScriptWith(
  v: unknown,
  storedScript: (id: string) => { source: string; lang: string } | undefined,
): ScriptSpec {
  const ctx = newCtx(v);
  ctx.storedScript = storedScript;
  return parseScriptSpec(ctx, v);
}
