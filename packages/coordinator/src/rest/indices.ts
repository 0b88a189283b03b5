/** Index administration: create, delete, get, exists, mappings, settings, refresh. */
import {
  type FlatSettings,
  illegalArgument,
  indexNotFound,
  renderSettings,
  ShoalError,
  settingDeprecationWarnings,
  simpleMatch,
} from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { checkBlocks, checkDeleteBlocks } from '../state/index-blocks.ts';
import type { IndexMetadata } from '../state/index-metadata.ts';
import type { CreateIndexBody } from '../state/indices-service.ts';
import {
  indicesOptionsFrom,
  SEARCH_INDICES_OPTIONS,
  STRICT_SINGLE_INDEX_OPTIONS,
} from '../state/resolve-indices.ts';
import { displayedMapping, fieldsVisibleIn } from '../state/visible-mapping.ts';
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
  const meta = await s.indices.create(req.params.index!, body, req.warnings);
  req.warnings.push(...settingDeprecationWarnings(body?.settings, 'index'));
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
    const stream = s.indices.dataStreams.get(part);
    if (stream) {
      throw illegalArgument(
        `The provided expression [${part}] matches a data stream, specify the corresponding concrete indices instead.`,
      );
    }
    if (!part.includes('*') && !s.indices.get(part) && s.indices.aliasTargets(part).length > 0) {
      throw illegalArgument(
        `The provided expression [${part}] matches an alias, specify the corresponding concrete indices instead.`,
      );
    }
  }
  for (const meta of targets) {
    const stream = s.indices.dataStreams.ofIndex(meta.name);
    if (stream && stream.indices[stream.indices.length - 1] === meta.name) {
      throw illegalArgument(
        `index [${meta.name}] is the write index for data stream [${stream.name}] and cannot be deleted`,
      );
    }
  }
  checkDeleteBlocks(targets);
  for (const meta of targets) {
    s.indices.dataStreams.forgetIndex(meta.name);
    await s.indices.delete(meta);
  }
  return { status: 200, body: ack };
}

/** ZonedDateTime.toString in UTC: seconds and milliseconds are left out when zero. */
function zonedDateTimeString(ms: number): string {
  const iso = new Date(ms).toISOString();
  const d = new Date(ms);
  if (d.getUTCMilliseconds() !== 0) return iso;
  return d.getUTCSeconds() === 0 ? `${iso.slice(0, 16)}Z` : `${iso.slice(0, 19)}Z`;
}

/** A legacy version id (8170000) as Version.toString prints it (8.17.0). */
function versionString(id: string): string {
  const n = Number(id);
  return `${Math.floor(n / 1_000_000)}.${Math.floor(n / 10_000) % 100}.${Math.floor(n / 100) % 100}`;
}

/**
 * With `?human`, get index and get settings add IndexMetadata.addHumanReadableSettings's
 * `index.version.created_string` and `index.creation_date_string`.
 */
function withHumanSettings(settings: Readonly<FlatSettings>, query: Record<string, string>): FlatSettings {
  if (!boolParam(query, 'human', false)) return settings;
  const out: FlatSettings = { ...settings };
  const created = settings['index.version.created'];
  if (created !== undefined) out['index.version.created_string'] = versionString(String(created));
  const date = settings['index.creation_date'];
  if (date !== undefined) out['index.creation_date_string'] = zonedDateTimeString(Number(date));
  return out;
}

function settingsJson(meta: IndexMetadata, query: Record<string, string>): Record<string, unknown> {
  return renderSettings(withHumanSettings(meta.settings, query), {
    flat: boolParam(query, 'flat_settings', false),
    includeDefaults: false,
  });
}

const INDEX_FEATURES = ['aliases', 'mappings', 'settings'] as const;

/**
 * `GET /{index}`: GetIndexRequest resolves with strictExpandOpen, so a wildcard that matches
 * nothing answers `{}`; `features` picks which of aliases, mappings and settings are shown.
 */
async function getIndex(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  // The router hands HEAD to the GET route; exists keeps its own options (no empty wildcard).
  if (req.method === 'HEAD') return indexExists(req, s);
  const targets = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  checkBlocks(targets, 'metadata_read');
  const requested = req.query.features?.split(',').map((f) => f.trim());
  const features = new Set(requested ?? INDEX_FEATURES);
  const out: Record<string, unknown> = {};
  for (const meta of targets) {
    const entry: Record<string, unknown> = {};
    if (features.has('aliases')) entry.aliases = aliasesJson(meta);
    if (features.has('mappings')) entry.mappings = displayedMapping(meta, req.indexAccess);
    if (features.has('settings')) entry.settings = settingsJson(meta, req.query);
    out[meta.name] = entry;
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
  checkBlocks(targets, 'metadata_read');
  const out: Record<string, unknown> = {};
  for (const meta of targets) out[meta.name] = { mappings: displayedMapping(meta, req.indexAccess) };
  return { status: 200, body: out };
}

interface MappedFieldJson {
  fullName: string;
  leaf: string;
  mapping: Record<string, unknown>;
}

/**
 * The field mappers of a mapping, by full name: leaf fields, field aliases and multi-fields
 * (`title.raw`), but not object or nested fields, as MappingLookup.fieldMappers() lists them.
 */
function mappedFields(properties: unknown, prefix = '', out: MappedFieldJson[] = []): MappedFieldJson[] {
  if (properties === null || typeof properties !== 'object') return out;
  for (const [name, raw] of Object.entries(properties as Record<string, unknown>)) {
    const def = raw as Record<string, unknown>;
    const fullName = prefix + name;
    if (def.type === undefined || def.type === 'object' || def.type === 'nested') {
      mappedFields(def.properties, `${fullName}.`, out);
      continue;
    }
    out.push({ fullName, leaf: name, mapping: def });
    const multi = def.fields as Record<string, Record<string, unknown>> | undefined;
    if (multi && typeof multi === 'object') {
      for (const [sub, subDef] of Object.entries(multi)) {
        out.push({ fullName: `${fullName}.${sub}`, leaf: sub, mapping: subDef });
      }
    }
  }
  return out;
}

/**
 * `GET [/{index}]/_mapping/field/{fields}`: an exact name answers under the name as asked, a
 * pattern under each matching field's full name; `mapping` holds the field under its leaf name.
 * A field that is not mapped is left out; no index at all is a 404 with an empty body.
 */
async function getFieldMapping(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  if (req.query.local !== undefined) {
    req.warnings.push(
      'Use [local] in get field mapping requests is deprecated. The parameter will be removed in the next major version',
    );
  }
  const patterns = (req.params.fields ?? '').split(',').filter((f) => f !== '');
  const targets = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  checkBlocks(targets, 'metadata_read');
  const out: Record<string, unknown> = {};
  for (const meta of targets) {
    const visible = fieldsVisibleIn(req.indexAccess, meta);
    const fields = mappedFields((meta.mapping.toDisplayJSON() as { properties?: unknown }).properties).filter(
      (f) => !visible || visible(f.fullName),
    );
    const byName = new Map(fields.map((f) => [f.fullName, f]));
    const mappings: Record<string, unknown> = {};
    const put = (key: string, f: MappedFieldJson) => {
      mappings[key] = { full_name: f.fullName, mapping: { [f.leaf]: f.mapping } };
    };
    for (const pattern of patterns) {
      if (pattern.includes('*')) {
        for (const f of fields) if (simpleMatch(pattern, f.fullName)) put(f.fullName, f);
      } else {
        const f = byName.get(pattern);
        if (f) put(pattern, f);
      }
    }
    out[meta.name] = { mappings };
  }
  return { status: targets.length === 0 && patterns.length > 0 ? 404 : 200, body: out };
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
  checkBlocks(targets, 'metadata_write');
  // Validate against every target before changing any, so a conflict leaves all of them as they were.
  for (const meta of targets) meta.mapping.merge(body as Record<string, unknown>);
  for (const meta of targets) await s.indices.mergeMapping(meta.name, body as Record<string, unknown>);
  return { status: 200, body: ack };
}

async function getSettings(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const targets = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  checkBlocks(targets, 'metadata_read');
  const names = req.params.name?.split(',');
  const includeDefaults = boolParam(req.query, 'include_defaults', false);
  const flat = boolParam(req.query, 'flat_settings', false);
  const out: Record<string, unknown> = {};
  for (const meta of targets) {
    const all = withHumanSettings(meta.settings, req.query);
    const filtered = names ? filterSettingKeys(all, names) : all;
    const entry: Record<string, unknown> = {
      settings: renderSettings(filtered, { flat, includeDefaults: false }),
    };
    if (includeDefaults) {
      // TransportGetSettingsAction filters the defaults by the requested names too.
      const defaults = renderSettings(filtered, { flat: true, includeDefaults: true, onlyDefaults: true });
      const shown = names ? filterSettingKeys(defaults as FlatSettings, names) : (defaults as FlatSettings);
      entry.defaults = renderSettings(shown, { flat, includeDefaults: false });
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
  const warnings = await s.indices.updateSettings(targets, 'settings' in body ? body.settings : body, {
    preserveExisting: boolParam(req.query, 'preserve_existing', false),
    reopen: boolParam(req.query, 'reopen', false),
  });
  req.warnings.push(...warnings);
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
        // Every started copy: reads go to replicas too.
        if (c.state !== 'STARTED' || !c.worker) return;
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
    {
      method: 'GET',
      path: '/_mapping/field/:fields',
      action: 'indices:admin/mappings/fields/get',
      handler: getFieldMapping,
    },
    {
      method: 'GET',
      path: '/:index/_mapping/field/:fields',
      action: 'indices:admin/mappings/fields/get',
      handler: getFieldMapping,
    },
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
