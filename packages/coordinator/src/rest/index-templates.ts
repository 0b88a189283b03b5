/**
 * `/_index_template`, `/_component_template` and the legacy `/_template` APIs, and the
 * simulations (`POST /_index_template/_simulate_index/{index}`, `/_index_template/_simulate`).
 */
import {
  type ComposableTemplate,
  type FlatSettings,
  parseComponentTemplate,
  parseComposableTemplate,
  parseLegacyTemplate,
  renderSettings,
  type TemplateParts,
} from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import type { ComposedIndex } from '../state/index-templates.ts';
import { boolParam } from './params.ts';

const ack = { acknowledged: true };

function settingsJson(settings: FlatSettings | undefined, query: Record<string, string>) {
  return renderSettings(settings ?? {}, {
    flat: boolParam(query, 'flat_settings', false),
    includeDefaults: false,
  });
}

function partsJson(p: TemplateParts, query: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (p.settings && Object.keys(p.settings).length > 0) out.settings = settingsJson(p.settings, query);
  if (p.mappings && Object.keys(p.mappings).length > 0) out.mappings = p.mappings;
  if (p.aliases && Object.keys(p.aliases).length > 0) out.aliases = aliasesJson(p.aliases);
  return out;
}

/** An alias's `routing` shows as both routings, as Elasticsearch stores it. */
function aliasesJson(aliases: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(aliases)) {
    const a: Record<string, unknown> = {};
    if (spec.filter !== undefined) a.filter = spec.filter;
    const index = spec.index_routing ?? spec.routing;
    const search = spec.search_routing ?? spec.routing;
    if (index !== undefined) a.index_routing = index;
    if (search !== undefined) a.search_routing = search;
    if (spec.is_write_index !== undefined) a.is_write_index = spec.is_write_index;
    if (spec.is_hidden !== undefined) a.is_hidden = spec.is_hidden;
    out[name] = a;
  }
  return out;
}

function composableJson(t: ComposableTemplate, query: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = { index_patterns: t.indexPatterns };
  if (t.template) out.template = partsJson(t.template, query);
  out.composed_of = t.composedOf;
  if (t.priority !== undefined) out.priority = t.priority;
  if (t.version !== undefined) out.version = t.version;
  if (t.meta !== undefined) out._meta = t.meta;
  if (t.dataStream)
    out.data_stream = { hidden: t.dataStream.hidden, allow_custom_routing: t.dataStream.allowCustomRouting };
  if (t.allowAutoCreate !== undefined) out.allow_auto_create = t.allowAutoCreate;
  if (t.ignoreMissingComponentTemplates.length > 0) {
    out.ignore_missing_component_templates = t.ignoreMissingComponentTemplates;
  }
  if (t.deprecated !== undefined) out.deprecated = t.deprecated;
  return out;
}

function putIndexTemplate(req: RestRequest, s: NodeServices): RestResponse {
  const t = parseComposableTemplate(req.json());
  const warnings = s.indices.templates.putComposable(
    req.params.name!,
    t,
    boolParam(req.query, 'create', false),
  );
  req.warnings.push(...warnings);
  return { status: 200, body: ack };
}

function getIndexTemplate(req: RestRequest, s: NodeServices): RestResponse {
  const found = s.indices.templates.getComposable(req.params.name);
  return {
    status: 200,
    body: {
      index_templates: found.map(([name, t]) => ({ name, index_template: composableJson(t, req.query) })),
    },
  };
}

function headIndexTemplate(req: RestRequest, s: NodeServices): RestResponse {
  try {
    return { status: s.indices.templates.getComposable(req.params.name).length > 0 ? 200 : 404 };
  } catch {
    return { status: 404 };
  }
}

function deleteIndexTemplate(req: RestRequest, s: NodeServices): RestResponse {
  s.indices.templates.deleteComposable(req.params.name!);
  return { status: 200, body: ack };
}

function putComponentTemplate(req: RestRequest, s: NodeServices): RestResponse {
  const t = parseComponentTemplate(req.json());
  s.indices.templates.putComponent(req.params.name!, t, boolParam(req.query, 'create', false));
  return { status: 200, body: ack };
}

function getComponentTemplate(req: RestRequest, s: NodeServices): RestResponse {
  const found = s.indices.templates.getComponent(req.params.name);
  return {
    status: 200,
    body: {
      component_templates: found.map(([name, t]) => {
        const json: Record<string, unknown> = { template: partsJson(t.template, req.query) };
        if (t.version !== undefined) json.version = t.version;
        if (t.meta !== undefined) json._meta = t.meta;
        if (t.deprecated !== undefined) json.deprecated = t.deprecated;
        return { name, component_template: json };
      }),
    },
  };
}

function headComponentTemplate(req: RestRequest, s: NodeServices): RestResponse {
  try {
    return { status: s.indices.templates.getComponent(req.params.name).length > 0 ? 200 : 404 };
  } catch {
    return { status: 404 };
  }
}

function deleteComponentTemplate(req: RestRequest, s: NodeServices): RestResponse {
  s.indices.templates.deleteComponent(req.params.name!);
  return { status: 200, body: ack };
}

function putLegacyTemplate(req: RestRequest, s: NodeServices): RestResponse {
  const t = parseLegacyTemplate(req.json());
  if (req.query.order !== undefined) t.order = Number(req.query.order);
  const warnings = s.indices.templates.putLegacy(req.params.name!, t, boolParam(req.query, 'create', false));
  req.warnings.push(...warnings);
  return { status: 200, body: ack };
}

function getLegacyTemplate(req: RestRequest, s: NodeServices): RestResponse {
  const found = s.indices.templates.getLegacy(req.params.name);
  const body: Record<string, unknown> = {};
  for (const [name, t] of found) {
    const json: Record<string, unknown> = { order: t.order };
    if (t.version !== undefined) json.version = t.version;
    json.index_patterns = t.indexPatterns;
    json.settings = settingsJson(t.settings, req.query);
    json.mappings = t.mappings;
    json.aliases = aliasesJson(t.aliases);
    body[name] = json;
  }
  // A name that matched nothing is a 404 with an empty body, as Elasticsearch answers.
  const status = found.length === 0 && req.params.name !== undefined ? 404 : 200;
  return { status, body };
}

function headLegacyTemplate(req: RestRequest, s: NodeServices): RestResponse {
  return { status: s.indices.templates.getLegacy(req.params.name).length > 0 ? 200 : 404 };
}

function deleteLegacyTemplate(req: RestRequest, s: NodeServices): RestResponse {
  s.indices.templates.deleteLegacy(req.params.name!);
  return { status: 200, body: ack };
}

function composedJson(c: ComposedIndex, query: Record<string, string>): Record<string, unknown> {
  return { settings: settingsJson(c.settings, query), mappings: c.mappings, aliases: aliasesJson(c.aliases) };
}

/** `POST /_index_template/_simulate_index/{index}`: what a new index of that name would get. */
function simulateIndex(req: RestRequest, s: NodeServices): RestResponse {
  const name = req.params.name!;
  const templates = s.indices.templates;
  const { composable, legacy } = templates.matching(name);
  const winner = templates.findComposable(name);
  const composed = winner ? templates.composeFrom(winner[1]) : templates.composeLegacy(name);
  const body: Record<string, unknown> = {};
  if (composed) body.template = composedJson(composed, req.query);
  body.overlapping = [...composable.filter(([n]) => n !== winner?.[0]), ...(winner ? legacy : [])].map(
    ([n, t]) => ({ name: n, index_patterns: t.indexPatterns }),
  );
  return { status: 200, body };
}

/** `POST /_index_template/_simulate[/{name}]`: a stored template, or the one in the body, composed. */
function simulateTemplate(req: RestRequest, s: NodeServices): RestResponse {
  const templates = s.indices.templates;
  const body = req.json();
  let t: ComposableTemplate;
  let name = req.params.name;
  if (body !== undefined) t = parseComposableTemplate(body);
  else t = templates.getComposable(name!)[0]![1];
  name ??= 'simulated_template';
  const overlapping = templates
    .getComposable(undefined)
    .filter(([n, o]) => n !== name && t.indexPatterns.some((p) => o.indexPatterns.includes(p)))
    .map(([n, o]) => ({ name: n, index_patterns: o.indexPatterns }));
  return { status: 200, body: { template: composedJson(templates.composeFrom(t), req.query), overlapping } };
}

export function indexTemplateRoutes(): Route<NodeServices>[] {
  const putV2 = 'indices:admin/index_template/put';
  const getV2 = 'indices:admin/index_template/get';
  const delV2 = 'indices:admin/index_template/delete';
  const putC = 'cluster:admin/component_template/put';
  const getC = 'cluster:admin/component_template/get';
  const delC = 'cluster:admin/component_template/delete';
  const putV1 = 'indices:admin/template/put';
  const getV1 = 'indices:admin/template/get';
  const delV1 = 'indices:admin/template/delete';
  return [
    {
      method: 'POST',
      path: '/_index_template/_simulate_index/:name',
      action: 'indices:admin/index_template/simulate_index',
      handler: simulateIndex,
    },
    {
      method: 'POST',
      path: '/_index_template/_simulate',
      action: 'indices:admin/index_template/simulate',
      handler: simulateTemplate,
    },
    {
      method: 'POST',
      path: '/_index_template/_simulate/:name',
      action: 'indices:admin/index_template/simulate',
      handler: simulateTemplate,
    },
    { method: 'PUT', path: '/_index_template/:name', action: putV2, handler: putIndexTemplate },
    { method: 'POST', path: '/_index_template/:name', action: putV2, handler: putIndexTemplate },
    { method: 'GET', path: '/_index_template', action: getV2, handler: getIndexTemplate },
    { method: 'GET', path: '/_index_template/:name', action: getV2, handler: getIndexTemplate },
    { method: 'HEAD', path: '/_index_template/:name', action: getV2, handler: headIndexTemplate },
    { method: 'DELETE', path: '/_index_template/:name', action: delV2, handler: deleteIndexTemplate },
    { method: 'PUT', path: '/_component_template/:name', action: putC, handler: putComponentTemplate },
    { method: 'POST', path: '/_component_template/:name', action: putC, handler: putComponentTemplate },
    { method: 'GET', path: '/_component_template', action: getC, handler: getComponentTemplate },
    { method: 'GET', path: '/_component_template/:name', action: getC, handler: getComponentTemplate },
    { method: 'HEAD', path: '/_component_template/:name', action: getC, handler: headComponentTemplate },
    { method: 'DELETE', path: '/_component_template/:name', action: delC, handler: deleteComponentTemplate },
    { method: 'PUT', path: '/_template/:name', action: putV1, handler: putLegacyTemplate },
    { method: 'POST', path: '/_template/:name', action: putV1, handler: putLegacyTemplate },
    { method: 'GET', path: '/_template', action: getV1, handler: getLegacyTemplate },
    { method: 'GET', path: '/_template/:name', action: getV1, handler: getLegacyTemplate },
    { method: 'HEAD', path: '/_template/:name', action: getV1, handler: headLegacyTemplate },
    { method: 'DELETE', path: '/_template/:name', action: delV1, handler: deleteLegacyTemplate },
  ];
}
