/** Index administration: create, delete, get, exists, mappings, settings, refresh. */
import {
  type FlatSettings,
  illegalArgument,
  indexNotFound,
  renderSettings,
  ShoalError,
  simpleMatch,
} from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';
import type { CreateIndexBody } from '../state/indices-service.ts';
import {
  indicesOptionsFrom,
  SEARCH_INDICES_OPTIONS,
  STRICT_SINGLE_INDEX_OPTIONS,
} from '../state/resolve-indices.ts';
import { aliasesJson } from './aliases.ts';
import { boolParam } from './params.ts';

const ack = { acknowledged: true };

function resolveStrict(req: RestRequest, s: NodeServices): IndexMetadata[] {
  return s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, STRICT_SINGLE_INDEX_OPTIONS));
}

async function createIndex(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const body = req.json() as CreateIndexBody | undefined;
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    throw new ShoalError('parse_exception', 'request body must be an object', 400);
  }
  const meta = await s.indices.create(req.params.index!, body);
  return { status: 200, body: { acknowledged: true, shards_acknowledged: true, index: meta.name } };
}

async function deleteIndex(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const expr = req.params.index!;
  const destructiveRequiresName =
    s.clusterSettings.effective()['action.destructive_requires_name'] !== 'false';
  if (destructiveRequiresName && (expr === '_all' || expr.split(',').some((p) => p.includes('*')))) {
    throw illegalArgument(`Wildcard expressions or all indices are not allowed`);
  }
  const targets = s.indices.resolve(expr, indicesOptionsFrom(req.query, STRICT_SINGLE_INDEX_OPTIONS));
  for (const part of expr.split(',')) {
    if (!part.includes('*') && !s.indices.get(part) && s.indices.aliasTargets(part).length > 0) {
      throw illegalArgument(
        `The provided expression [${part}] matches an alias, specify the corresponding concrete indices instead.`,
      );
    }
  }
  for (const meta of targets) await s.indices.delete(meta);
  return { status: 200, body: ack };
}

function settingsJson(meta: IndexMetadata, query: Record<string, string>): Record<string, unknown> {
  return renderSettings(meta.settings, {
    flat: boolParam(query, 'flat_settings', false),
    includeDefaults: false,
  });
}

async function getIndex(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const targets = resolveStrict(req, s);
  const out: Record<string, unknown> = {};
  for (const meta of targets) {
    out[meta.name] = {
      aliases: aliasesJson(meta),
      mappings: meta.mapping.toJSON(),
      settings: settingsJson(meta, req.query),
    };
  }
  return { status: 200, body: out };
}

function indexExists(req: RestRequest, s: NodeServices): RestResponse {
  try {
    const found = resolveStrict(req, s);
    return { status: found.length > 0 ? 200 : 404, body: {} };
  } catch {
    return { status: 404, body: {} };
  }
}

async function getMapping(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const targets = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  const out: Record<string, unknown> = {};
  for (const meta of targets) out[meta.name] = { mappings: meta.mapping.toJSON() };
  return { status: 200, body: out };
}

async function putMapping(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const body = req.json();
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ShoalError(
      'action_request_validation_exception',
      'Validation Failed: 1: mapping source is empty;',
      400,
    );
  }
  const targets = s.indices.resolve(
    req.params.index,
    indicesOptionsFrom(req.query, STRICT_SINGLE_INDEX_OPTIONS),
  );
  // Validate against every target before changing any, so a conflict leaves all of them as they were.
  for (const meta of targets) meta.mapping.merge(body as Record<string, unknown>);
  for (const meta of targets) await s.indices.mergeMapping(meta.name, body as Record<string, unknown>);
  return { status: 200, body: ack };
}

async function getSettings(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const targets = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  const names = req.params.name?.split(',');
  const includeDefaults = boolParam(req.query, 'include_defaults', false);
  const flat = boolParam(req.query, 'flat_settings', false);
  const out: Record<string, unknown> = {};
  for (const meta of targets) {
    const filtered = names ? filterSettingKeys(meta.settings, names) : meta.settings;
    const entry: Record<string, unknown> = {
      settings: renderSettings(filtered, { flat, includeDefaults: false }),
    };
    if (includeDefaults) {
      entry.defaults = renderSettings(filtered, { flat, includeDefaults: true, onlyDefaults: true });
    }
    out[meta.name] = entry;
  }
  return { status: 200, body: out };
}

function filterSettingKeys(settings: Readonly<FlatSettings>, patterns: string[]): FlatSettings {
  const out: FlatSettings = {};
  for (const [k, v] of Object.entries(settings)) if (patterns.some((p) => simpleMatch(p, k))) out[k] = v;
  return out;
}

async function putSettings(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const body = req.json() as Record<string, unknown> | undefined;
  if (body === undefined || body === null || typeof body !== 'object' || Object.keys(body).length === 0) {
    throw new ShoalError(
      'action_request_validation_exception',
      'Validation Failed: 1: no settings to update;',
      400,
    );
  }
  const targets = s.indices.resolve(
    req.params.index,
    indicesOptionsFrom(req.query, STRICT_SINGLE_INDEX_OPTIONS),
  );
  if (targets.length === 0 && req.params.index) throw indexNotFound(req.params.index);
  await s.indices.updateSettings(targets, 'settings' in body ? body.settings : body);
  return { status: 200, body: ack };
}

async function refresh(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const targets = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  let total = 0;
  let successful = 0;
  await Promise.all(
    targets.flatMap((meta) =>
      s.shards.copies(meta.uuid).map(async (c) => {
        total++;
        if (!c.primary || c.state !== 'STARTED' || !c.worker) return;
        await c.worker.run({ t: 'refresh', key: c.key });
        successful++;
      }),
    ),
  );
  return { status: 200, body: { _shards: { total, successful, failed: 0 } } };
}

export function indexRoutes(): Route<NodeServices>[] {
  return [
    { method: 'PUT', path: '/:index', action: 'indices:admin/create', handler: createIndex },
    { method: 'DELETE', path: '/:index', action: 'indices:admin/delete', handler: deleteIndex },
    { method: 'GET', path: '/:index', action: 'indices:admin/get', handler: getIndex },
    { method: 'HEAD', path: '/:index', action: 'indices:admin/get', handler: indexExists },
    { method: 'GET', path: '/_mapping', action: 'indices:admin/mappings/get', handler: getMapping },
    { method: 'GET', path: '/:index/_mapping', action: 'indices:admin/mappings/get', handler: getMapping },
    { method: 'PUT', path: '/:index/_mapping', action: 'indices:admin/mapping/put', handler: putMapping },
    { method: 'POST', path: '/:index/_mapping', action: 'indices:admin/mapping/put', handler: putMapping },
    { method: 'GET', path: '/_settings', action: 'indices:monitor/settings/get', handler: getSettings },
    {
      method: 'GET',
      path: '/:index/_settings',
      action: 'indices:monitor/settings/get',
      handler: getSettings,
    },
    {
      method: 'GET',
      path: '/:index/_settings/:name',
      action: 'indices:monitor/settings/get',
      handler: getSettings,
    },
    { method: 'GET', path: '/_settings/:name', action: 'indices:monitor/settings/get', handler: getSettings },
    { method: 'PUT', path: '/_settings', action: 'indices:admin/settings/update', handler: putSettings },
    {
      method: 'PUT',
      path: '/:index/_settings',
      action: 'indices:admin/settings/update',
      handler: putSettings,
    },
    { method: 'POST', path: '/_refresh', action: 'indices:admin/refresh', handler: refresh },
    { method: 'GET', path: '/_refresh', action: 'indices:admin/refresh', handler: refresh },
    { method: 'POST', path: '/:index/_refresh', action: 'indices:admin/refresh', handler: refresh },
    { method: 'GET', path: '/:index/_refresh', action: 'indices:admin/refresh', handler: refresh },
  ];
}
