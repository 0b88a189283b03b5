/**
 * `GET /_cat/aliases[/{name}]` (RestAliasAction): one row per alias of each index, with
 * whether it filters (`*`), its routing and whether it is the write index (`-` when unset).
 * The aliases data streams read through are not listed (they are not the alias APIs').
 */
import { simpleMatch } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { indicesOptionsFrom, SEARCH_INDICES_OPTIONS } from '../state/resolve-indices.ts';
import { type CatColumn, type CatRow, catResponse } from './cat-table.ts';

const COLUMNS: CatColumn[] = [
  { name: 'alias', aliases: ['a'], desc: 'alias name', default: true },
  { name: 'index', aliases: ['i', 'idx'], desc: 'index alias points to', default: true },
  { name: 'filter', aliases: ['f', 'fi'], desc: 'filter', default: true },
  { name: 'routing.index', aliases: ['ri', 'routingIndex'], desc: 'index routing', default: true },
  { name: 'routing.search', aliases: ['rs', 'routingSearch'], desc: 'search routing', default: true },
  { name: 'is_write_index', aliases: ['w', 'isWriteIndex'], desc: 'write index', default: true },
];

function catAliases(req: RestRequest, s: NodeServices): RestResponse {
  const names = req.params.name?.split(',');
  // Every index by default, closed and hidden ones too (expand_wildcards=all).
  const options = indicesOptionsFrom(req.query, {
    ...SEARCH_INDICES_OPTIONS,
    expandWildcards: new Set(['all']),
  });
  const rows: CatRow[] = [];
  for (const meta of s.indices.resolve(undefined, options)) {
    for (const [alias, a] of meta.aliases) {
      if (a.dataStream) continue;
      if (names && !names.some((n) => n === '_all' || simpleMatch(n, alias))) continue;
      rows.push({
        alias,
        index: meta.name,
        filter: a.filter ? '*' : '-',
        'routing.index': a.indexRouting ?? '-',
        'routing.search': a.searchRouting ?? '-',
        is_write_index: a.isWriteIndex === undefined ? '-' : String(a.isWriteIndex),
      });
    }
  }
  return catResponse(req, COLUMNS, rows);
}

export function catAliasRoutes(): Route<NodeServices>[] {
  return [
    { method: 'GET', path: '/_cat/aliases', action: 'indices:admin/aliases/get', handler: catAliases },
    { method: 'GET', path: '/_cat/aliases/:name', action: 'indices:admin/aliases/get', handler: catAliases },
  ];
}
