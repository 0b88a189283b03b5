/**
 * `GET /_cat/count[/{index}]` (RestCountAction of `_cat`): the number of documents in the
 * targets, as `_count` counts them (alias filters applied), with the time it was taken.
 */
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { executeCount } from '../search/count-action.ts';
import type { NodeServices } from '../services.ts';
import { type CatColumn, catResponse } from './cat-table.ts';

const COLUMNS: CatColumn[] = [
  {
    name: 'epoch',
    aliases: ['t', 'time'],
    desc: 'seconds since 1970-01-01 00:00:00',
    default: true,
    right: true,
  },
  { name: 'timestamp', aliases: ['ts', 'hms', 'hhmmss'], desc: 'time in HH:MM:SS', default: true },
  {
    name: 'count',
    aliases: ['dc', 'docs.count', 'docsCount'],
    desc: 'the document count',
    default: true,
    right: true,
  },
];

/** The `_count` parameters that also apply here; the table's own (`v`, `h`, `format`…) stay out. */
const COUNT_PARAMS = ['expand_wildcards', 'ignore_unavailable', 'allow_no_indices', 'ignore_throttled'];

async function catCount(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const query: Record<string, string> = {};
  for (const p of COUNT_PARAMS) if (req.query[p] !== undefined) query[p] = req.query[p]!;
  const r = await executeCount(req, s, query, undefined);
  const now = new Date();
  return catResponse(req, COLUMNS, [
    {
      epoch: Math.floor(now.getTime() / 1000),
      timestamp: now.toISOString().slice(11, 19),
      count: r.count as number,
    },
  ]);
}

export function catCountRoutes(): Route<NodeServices>[] {
  return [
    { method: 'GET', path: '/_cat/count', action: 'indices:data/read/search', handler: catCount },
    { method: 'GET', path: '/_cat/count/:index', action: 'indices:data/read/search', handler: catCount },
  ];
}
