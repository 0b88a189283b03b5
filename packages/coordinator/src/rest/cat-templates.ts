/**
 * `GET /_cat/templates[/{name}]` (RestTemplatesAction): the legacy and composable index
 * templates, each with its patterns, order (a composable template's priority), version and
 * the component templates it is composed of.
 */
import { simpleMatch } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { type CatColumn, type CatRow, catResponse } from './cat-table.ts';

const COLUMNS: CatColumn[] = [
  { name: 'name', aliases: ['n'], desc: 'template name', default: true },
  { name: 'index_patterns', aliases: ['t'], desc: 'template index patterns', default: true },
  { name: 'order', aliases: ['o', 'p'], desc: 'template application order/priority number', default: true },
  { name: 'version', aliases: ['v'], desc: 'version', default: true },
  {
    name: 'composed_of',
    aliases: ['c'],
    desc: 'component templates comprising index template',
    default: true,
  },
];

const list = (items: readonly string[]) => `[${items.join(', ')}]`;

function catTemplates(req: RestRequest, s: NodeServices): RestResponse {
  const name = req.params.name;
  const wanted = (n: string) => name === undefined || simpleMatch(name, n);
  const rows: CatRow[] = [];
  for (const [n, t] of s.indices.templates.getLegacy(undefined)) {
    if (!wanted(n)) continue;
    rows.push({
      name: n,
      index_patterns: list(t.indexPatterns),
      order: t.order,
      version: t.version ?? null,
      composed_of: '',
    });
  }
  for (const [n, t] of s.indices.templates.getComposable(undefined)) {
    if (!wanted(n)) continue;
    rows.push({
      name: n,
      index_patterns: list(t.indexPatterns),
      order: t.priority ?? 0,
      version: t.version ?? null,
      composed_of: list(t.composedOf),
    });
  }
  return catResponse(req, COLUMNS, rows);
}

export function catTemplateRoutes(): Route<NodeServices>[] {
  return [
    {
      method: 'GET',
      path: '/_cat/templates',
      action: 'indices:admin/index_template/get',
      handler: catTemplates,
    },
    {
      method: 'GET',
      path: '/_cat/templates/:name',
      action: 'indices:admin/index_template/get',
      handler: catTemplates,
    },
  ];
}
