/**
 * `PUT|GET|DELETE /_data_stream/{name}` and `GET /_data_stream[/{name}]/_stats`
 * (state/data-streams.ts).
 */
import { actionRequestValidation, illegalArgument, notImplemented } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { internalSearch } from '../search/internal-search.ts';
import type { NodeServices } from '../services.ts';
import { type DataStreamMetadata, TIMESTAMP_FIELD } from '../state/data-streams.ts';
import { indexHealth } from './health.ts';
import { allShardStats } from './index-stats.ts';

const ack = { acknowledged: true };

async function putDataStream(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  await s.indices.dataStreams.create(req.params.name!);
  return { status: 200, body: ack };
}

function includeHidden(q: Record<string, string>): boolean {
  const w = q.expand_wildcards?.split(',') ?? [];
  return w.includes('hidden') || w.includes('all');
}

const HEALTH_ORDER = ['green', 'yellow', 'red'] as const;

function streamJson(s: NodeServices, d: DataStreamMetadata): Record<string, unknown> {
  let worst = 0;
  const indices = d.indices.flatMap((name) => {
    const meta = s.indices.get(name);
    if (!meta) return [];
    worst = Math.max(worst, HEALTH_ORDER.indexOf(indexHealth(s, meta)));
    return [{ index_name: name, index_uuid: meta.uuid, prefer_ilm: true, managed_by: 'Unmanaged' }];
  });
  return {
    name: d.name,
    timestamp_field: { name: TIMESTAMP_FIELD },
    indices,
    generation: d.generation,
    status: HEALTH_ORDER[worst]!.toUpperCase(),
    template: d.template,
    next_generation_managed_by: 'Unmanaged',
    prefer_ilm: true,
    hidden: d.hidden,
    system: false,
    allow_custom_routing: d.allowCustomRouting,
    replicated: false,
    rollover_on_write: false,
  };
}

function getDataStreams(req: RestRequest, s: NodeServices): RestResponse {
  const streams = s.indices.dataStreams.select(req.params.name, includeHidden(req.query));
  return { status: 200, body: { data_streams: streams.map((d) => streamJson(s, d)) } };
}

async function deleteDataStreams(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const streams = s.indices.dataStreams.select(req.params.name, includeHidden(req.query));
  await s.indices.dataStreams.delete(streams);
  return { status: 200, body: ack };
}

async function dataStreamStats(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const streams = s.indices.dataStreams.select(req.params.name, includeHidden(req.query));
  const stats = await allShardStats(s);
  let shards = 0;
  let backing = 0;
  let total = 0;
  const entries: Record<string, unknown>[] = [];
  for (const d of streams) {
    let bytes = 0;
    for (const name of d.indices) {
      const meta = s.indices.get(name);
      if (!meta) continue;
      backing++;
      for (const [key, st] of stats) {
        if (!key.startsWith(`${meta.uuid}/`)) continue;
        shards++;
        bytes += st.detail?.storeBytes ?? st.docs.sizeInBytes;
      }
    }
    total += bytes;
    const found = await internalSearch(s, d.name, {
      size: 0,
      track_total_hits: false,
      aggs: { max_ts: { max: { field: TIMESTAMP_FIELD } } },
    });
    const max = (found.aggregations as { max_ts?: { value?: number | null } } | undefined)?.max_ts?.value;
    entries.push({
      data_stream: d.name,
      backing_indices: d.indices.length,
      store_size_bytes: bytes,
      maximum_timestamp: typeof max === 'number' ? max : 0,
    });
  }
  return {
    status: 200,
    body: {
      _shards: { total: shards, successful: shards, failed: 0 },
      data_stream_count: streams.length,
      backing_indices: backing,
      total_store_size_bytes: total,
      data_streams: entries,
    },
  };
}

async function modifyDataStreams(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const body = req.json() as { actions?: unknown } | undefined;
  if (!body || !Array.isArray(body.actions) || body.actions.length === 0) {
    throw actionRequestValidation(['must specify at least one data stream modification action']);
  }
  const actions = body.actions.map((a) => {
    const entries = Object.entries((a ?? {}) as Record<string, { data_stream?: string; index?: string }>);
    const [kind, spec] = entries[0] ?? [];
    if (entries.length !== 1 || (kind !== 'add_backing_index' && kind !== 'remove_backing_index')) {
      throw illegalArgument(`Unsupported action [${kind ?? ''}]`);
    }
    if (!spec?.data_stream || !spec.index) {
      throw actionRequestValidation(['data stream name and backing index name are required']);
    }
    return {
      kind: kind === 'add_backing_index' ? ('add' as const) : ('remove' as const),
      stream: spec.data_stream,
      index: spec.index,
    };
  });
  await s.indices.dataStreams.modify(actions);
  return { status: 200, body: ack };
}

async function migrateToDataStream(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  await s.indices.dataStreams.migrate(req.params.name!);
  return { status: 200, body: ack };
}

/** Index lifecycle management: not in Shoal; a clear 501 rather than a 404 taken for an index. */
function ilm(): never {
  throw notImplemented(
    'index lifecycle management (the [_ilm] APIs); roll over with POST /{target}/_rollover',
  );
}

export function dataStreamRoutes(): Route<NodeServices>[] {
  return [
    {
      method: 'GET',
      path: '/_data_stream/_stats',
      action: 'indices:monitor/data_stream/stats',
      handler: dataStreamStats,
    },
    {
      method: 'GET',
      path: '/_data_stream/:name/_stats',
      action: 'indices:monitor/data_stream/stats',
      handler: dataStreamStats,
    },
    {
      method: 'POST',
      path: '/_data_stream/_modify',
      action: 'indices:admin/data_stream/modify',
      handler: modifyDataStreams,
    },
    {
      method: 'POST',
      path: '/_data_stream/_migrate/:name',
      action: 'indices:admin/data_stream/migrate',
      handler: migrateToDataStream,
    },
    ...(['GET', 'PUT', 'POST', 'DELETE'] as const).flatMap((method) => [
      { method, path: '/_ilm/:rest', action: 'cluster:admin/ilm', handler: ilm },
      { method, path: '/_ilm/:rest/:more', action: 'cluster:admin/ilm', handler: ilm },
    ]),
    {
      method: 'PUT',
      path: '/_data_stream/:name',
      action: 'indices:admin/data_stream/create',
      handler: putDataStream,
    },
    {
      method: 'GET',
      path: '/_data_stream',
      action: 'indices:admin/data_stream/get',
      handler: getDataStreams,
    },
    {
      method: 'GET',
      path: '/_data_stream/:name',
      action: 'indices:admin/data_stream/get',
      handler: getDataStreams,
    },
    {
      method: 'DELETE',
      path: '/_data_stream/:name',
      action: 'indices:admin/data_stream/delete',
      handler: deleteDataStreams,
    },
  ];
}
