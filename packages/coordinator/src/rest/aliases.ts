/**
 * Aliases: `POST /_aliases` (atomic add/remove/remove_index actions), `PUT|DELETE
 * /{index}/_alias/{name}`, `GET /_alias…`, `HEAD /_alias/{name}`. Every action of a request is
 * validated before any is applied.
 */
import {
  type AliasActionSpec,
  actionRequestValidation,
  illegalArgument,
  parseAliasActions,
  ShoalError,
  simpleMatch,
  validateIndexName,
} from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { aliasFromJson } from '../state/alias-specs.ts';
import { validateAlias } from '../state/alias-validation.ts';
import { checkBlocks } from '../state/index-blocks.ts';
import type { AliasMetadata, IndexMetadata } from '../state/index-metadata.ts';
import {
  indicesOptionsFrom,
  SEARCH_INDICES_OPTIONS,
  STRICT_SINGLE_INDEX_OPTIONS,
} from '../state/resolve-indices.ts';

export function aliasesJson(meta: IndexMetadata): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, a] of [...meta.aliases].sort(([x], [y]) => (x < y ? -1 : 1))) {
    // A data stream's own alias is the stream, not an alias of its backing index.
    if (a.dataStream) continue;
    const j: Record<string, unknown> = {};
    if (a.filter) j.filter = a.filter;
    if (a.indexRouting) j.index_routing = a.indexRouting;
    if (a.searchRouting) j.search_routing = a.searchRouting;
    if (a.isWriteIndex !== undefined) j.is_write_index = a.isWriteIndex;
    if (a.isHidden !== undefined) j.is_hidden = a.isHidden;
    out[name] = j;
  }
  return out;
}

type Action = AliasActionSpec;

async function applyActions(s: NodeServices, actions: Action[]): Promise<void> {
  const next = new Map<string, Map<string, AliasMetadata>>();
  const current = (m: IndexMetadata) => {
    let a = next.get(m.name);
    if (!a) {
      a = new Map(m.aliases);
      next.set(m.name, a);
    }
    return a;
  };
  const removeIndices: IndexMetadata[] = [];
  for (const act of actions) {
    if (act.indices.length === 0) throw actionRequestValidation(['One of [index] or [indices] is required']);
    const targets = s.indices.resolve(act.indices.join(','), STRICT_SINGLE_INDEX_OPTIONS);
    checkBlocks(targets, 'metadata_write');
    if (act.kind === 'remove_index') {
      removeIndices.push(...targets);
      continue;
    }
    if (act.aliases.length === 0) throw actionRequestValidation(['One of [alias] or [aliases] is required']);
    for (const meta of targets) {
      const aliases = current(meta);
      for (const alias of act.aliases) {
        if (s.indices.dataStreams.get(alias) || meta.aliases.get(alias)?.dataStream) {
          throw illegalArgument(
            `aliases, including data stream aliases, cannot refer to the data stream [${alias}]`,
          );
        }
        if (act.kind === 'add') {
          if (s.indices.get(alias)) {
            throw new ShoalError(
              'invalid_alias_name_exception',
              `Invalid alias name [${alias}]: an index or data stream exists with the same name as the alias`,
              400,
              { index_uuid: '_na_', index: alias },
            );
          }
          validateIndexName(alias);
          const added = aliasFromJson(act.spec);
          validateAlias(alias, added, meta);
          aliases.set(alias, added);
        } else {
          const matched = [...aliases.keys()].filter((n) => simpleMatch(alias, n));
          if (matched.length === 0 && act.mustExist !== false) {
            throw new ShoalError('aliases_not_found_exception', `aliases [${alias}] missing`, 404, {
              'resource.type': 'aliases',
              'resource.id': alias,
            });
          }
          for (const n of matched) aliases.delete(n);
        }
      }
    }
  }
  // Several write indices for one alias are an error, checked on the result before applying.
  const writers = new Map<string, number>();
  for (const aliases of next.values()) {
    for (const [n, a] of aliases) if (a.isWriteIndex) writers.set(n, (writers.get(n) ?? 0) + 1);
  }
  for (const [n, c] of writers) {
    if (c > 1) throw illegalArgument(`alias [${n}] has more than one write index`);
  }
  await s.indices.applyAliases(next);
  for (const meta of removeIndices) await s.indices.delete(meta);
}

async function postAliases(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  await applyActions(s, parseAliasActions(req.json()));
  return { status: 200, body: { acknowledged: true, errors: false } };
}

async function putAlias(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const body = (req.json() ?? {}) as Record<string, unknown>;
  await applyActions(s, [
    { kind: 'add', indices: [req.params.index!], aliases: req.params.name!.split(','), spec: body },
  ]);
  return { status: 200, body: { acknowledged: true } };
}

async function deleteAlias(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  await applyActions(s, [
    { kind: 'remove', indices: [req.params.index!], aliases: req.params.name!.split(','), spec: {} },
  ]);
  return { status: 200, body: { acknowledged: true, errors: false } };
}

function getAliases(req: RestRequest, s: NodeServices): RestResponse {
  const indices = s.indices.resolve(req.params.index, indicesOptionsFrom(req.query, SEARCH_INDICES_OPTIONS));
  const names = req.params.name?.split(',');
  const out: Record<string, unknown> = {};
  const found = new Set<string>();
  for (const meta of indices) {
    const all = aliasesJson(meta);
    const picked: Record<string, unknown> = {};
    for (const [n, v] of Object.entries(all)) {
      if (!names || names.some((pattern) => simpleMatch(pattern, n))) {
        picked[n] = v;
        found.add(n);
      }
    }
    if (!names || Object.keys(picked).length > 0) out[meta.name] = { aliases: picked };
  }
  if (names) {
    const missing = names.filter((n) => !n.includes('*') && n !== '_all' && !found.has(n));
    if (missing.length > 0) {
      const body =
        Object.keys(out).length === 0
          ? { error: `alias [${missing.join(',')}] missing`, status: 404 }
          : { error: `alias [${missing.join(',')}] missing`, status: 404, ...out };
      return { status: 404, body };
    }
  }
  return { status: 200, body: out };
}

export function aliasRoutes(): Route<NodeServices>[] {
  return [
    { method: 'POST', path: '/_aliases', action: 'indices:admin/aliases', handler: postAliases },
    { method: 'PUT', path: '/:index/_alias/:name', action: 'indices:admin/aliases', handler: putAlias },
    { method: 'POST', path: '/:index/_alias/:name', action: 'indices:admin/aliases', handler: putAlias },
    { method: 'PUT', path: '/:index/_aliases/:name', action: 'indices:admin/aliases', handler: putAlias },
    { method: 'POST', path: '/:index/_aliases/:name', action: 'indices:admin/aliases', handler: putAlias },
    { method: 'DELETE', path: '/:index/_alias/:name', action: 'indices:admin/aliases', handler: deleteAlias },
    {
      method: 'DELETE',
      path: '/:index/_aliases/:name',
      action: 'indices:admin/aliases',
      handler: deleteAlias,
    },
    { method: 'GET', path: '/_alias', action: 'indices:admin/aliases/get', handler: getAliases },
    { method: 'GET', path: '/_alias/:name', action: 'indices:admin/aliases/get', handler: getAliases },
    { method: 'HEAD', path: '/_alias/:name', action: 'indices:admin/aliases/get', handler: getAliases },
    { method: 'GET', path: '/:index/_alias', action: 'indices:admin/aliases/get', handler: getAliases },
    { method: 'GET', path: '/:index/_alias/:name', action: 'indices:admin/aliases/get', handler: getAliases },
    {
      method: 'HEAD',
      path: '/:index/_alias/:name',
      action: 'indices:admin/aliases/get',
      handler: getAliases,
    },
    { method: 'GET', path: '/_aliases', action: 'indices:admin/aliases/get', handler: getAliases },
  ];
}
