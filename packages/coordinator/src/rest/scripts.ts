/**
 * Stored scripts: `PUT|POST /_scripts/{id}` (and `/_scripts/{id}/{context}`), `GET` and
 * `DELETE /_scripts/{id}`. A script is compiled when stored, so a broken one is refused with
 * its `script_exception` (ScriptService.putStoredScript).
 */
import { compileScript } from '@shoal/engine';
import { checkScriptLang, illegalArgument, resourceNotFound } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { renderTemplate } from '../search/search-template.ts';
import type { NodeServices } from '../services.ts';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function putScript(req: RestRequest, s: NodeServices): RestResponse {
  const id = req.params.id!;
  const body = req.json();
  if (body === undefined) throw illegalArgument('must specify a stored script');
  const script = isObject(body) ? body.script : undefined;
  if (!isObject(script)) throw illegalArgument('unable to parse stored script: missing [script]');
  const { lang, source } = script;
  if (typeof lang !== 'string') throw illegalArgument('must specify lang for stored script');
  if (lang === 'mustache') return putTemplate(id, source, s);
  checkScriptLang(lang);
  if (source === undefined || source === null) throw illegalArgument('must specify source for stored script');
  if (typeof source !== 'string') throw illegalArgument('source must be a string for painless scripts');
  if (source.length === 0) throw illegalArgument('source cannot be empty');
  compileScript(source);
  s.storedScripts.put(id, { lang, source });
  return { status: 200, body: { acknowledged: true } };
}

/**
 * A stored search template (`lang: mustache`): its source may be an object, kept as its JSON
 * text as Elasticsearch keeps it, and must compile.
 */
function putTemplate(id: string, source: unknown, s: NodeServices): RestResponse {
  if (source === undefined || source === null) throw illegalArgument('must specify source for stored script');
  const text = typeof source === 'string' ? source : JSON.stringify(source);
  renderTemplate(text, {});
  s.storedScripts.put(id, { lang: 'mustache', source: text });
  return { status: 200, body: { acknowledged: true } };
}

function getScript(req: RestRequest, s: NodeServices): RestResponse {
  const id = req.params.id!;
  const found = s.storedScripts.get(id);
  if (!found) return { status: 404, body: { _id: id, found: false } };
  return { status: 200, body: { _id: id, found: true, script: { lang: found.lang, source: found.source } } };
}

function deleteScript(req: RestRequest, s: NodeServices): RestResponse {
  const id = req.params.id!;
  if (!s.storedScripts.delete(id)) {
    throw resourceNotFound(`stored script [${id}] does not exist`);
  }
  return { status: 200, body: { acknowledged: true } };
}

export function scriptRoutes(): Route<NodeServices>[] {
  const put = 'cluster:admin/script/put';
  return [
    { method: 'PUT', path: '/_scripts/:id', action: put, handler: putScript },
    { method: 'POST', path: '/_scripts/:id', action: put, handler: putScript },
    { method: 'PUT', path: '/_scripts/:id/:context', action: put, handler: putScript },
    { method: 'POST', path: '/_scripts/:id/:context', action: put, handler: putScript },
    { method: 'GET', path: '/_scripts/:id', action: 'cluster:admin/script/get', handler: getScript },
    { method: 'DELETE', path: '/_scripts/:id', action: 'cluster:admin/script/delete', handler: deleteScript },
  ];
}
