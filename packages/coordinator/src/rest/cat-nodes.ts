/** `GET /_cat/nodes` and `GET /_cat/master`: the nodes of the applied cluster state. */
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { type CatColumn, catResponse } from './cat-table.ts';
import { filteredNodes } from './node-filter.ts';
import { gatherNodeInfo } from './nodes-info.ts';

const NODE_COLUMNS: CatColumn[] = [
  { name: 'id', aliases: ['nodeId'], desc: 'unique node id', default: false },
  { name: 'pid', aliases: ['p'], desc: 'process id', default: false },
  { name: 'ip', aliases: ['i'], desc: 'ip address', default: true },
  { name: 'port', aliases: ['po'], desc: 'bound transport port', default: false },
  { name: 'http_address', aliases: ['http'], desc: 'bound http address', default: false },
  { name: 'version', aliases: ['v'], desc: 'es version', default: false },
  { name: 'heap.current', aliases: ['hc', 'heapCurrent'], desc: 'used heap', default: false, right: true },
  {
    name: 'heap.percent',
    aliases: ['hp', 'heapPercent'],
    desc: 'used heap ratio',
    default: true,
    right: true,
  },
  { name: 'heap.max', aliases: ['hm', 'heapMax'], desc: 'max configured heap', default: false, right: true },
  {
    name: 'ram.percent',
    aliases: ['rp', 'ramPercent'],
    desc: 'used machine memory ratio',
    default: true,
    right: true,
  },
  { name: 'ram.max', aliases: ['rm', 'ramMax'], desc: 'total machine memory', default: false, right: true },
  { name: 'cpu', desc: 'recent cpu usage', default: true, right: true },
  { name: 'load_1m', aliases: ['l'], desc: '1m load avg', default: true, right: true },
  { name: 'load_5m', aliases: ['l'], desc: '5m load avg', default: true, right: true },
  { name: 'load_15m', aliases: ['l'], desc: '15m load avg', default: true, right: true },
  { name: 'uptime', aliases: ['u'], desc: 'node uptime', default: false, right: true },
  {
    name: 'node.role',
    aliases: ['r', 'role', 'nodeRole'],
    desc: 'm:master eligible node, d:data node, i:ingest node, -:coordinating node only',
    default: true,
  },
  { name: 'master', aliases: ['m'], desc: '*:current master', default: true },
  { name: 'name', aliases: ['n'], desc: 'node name', default: true },
];

const ROLE_LETTERS: Record<string, string> = {
  data: 'd',
  ingest: 'i',
  ml: 'l',
  master: 'm',
  remote_cluster_client: 'r',
  transform: 't',
  voting_only: 'v',
};

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : null);

async function catNodes(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const state = s.cluster.state();
  const nodes = filteredNodes(s, undefined);
  const infos = await gatherNodeInfo(s, nodes, 10_000, req.signal);
  const rows = nodes.map((n, i) => {
    const info = infos[i];
    const roles = [...n.roles]
      .sort()
      .map((r) => ROLE_LETTERS[r] ?? '')
      .join('');
    return {
      id: n.id.slice(0, 4),
      pid: info?.pid ?? null,
      ip: n.host,
      port: n.transportPort,
      http_address: `${n.host}:${n.httpPort}`,
      version: '8.17.0',
      'heap.current': info ? `${(info.heapUsed / 1024 / 1024).toFixed(1)}mb` : null,
      'heap.percent': info ? pct(info.heapUsed, info.heapMax) : null,
      'heap.max': info ? `${(info.heapMax / 1024 / 1024).toFixed(1)}mb` : null,
      'ram.percent': info ? pct(info.os.totalMemory - info.os.freeMemory, info.os.totalMemory) : null,
      'ram.max': info ? `${(info.os.totalMemory / 1024 ** 3).toFixed(1)}gb` : null,
      cpu: info?.cpuPercent ?? null,
      load_1m: info ? info.load[0]!.toFixed(2) : null,
      load_5m: info ? info.load[1]!.toFixed(2) : null,
      load_15m: info ? info.load[2]!.toFixed(2) : null,
      uptime: info ? `${Math.round(info.uptimeMs / 1000)}s` : null,
      'node.role': roles === '' ? '-' : roles,
      master: n.id === state.masterNodeId ? '*' : '-',
      name: n.name,
    };
  });
  return catResponse(req, NODE_COLUMNS, rows);
}

const MASTER_COLUMNS: CatColumn[] = [
  { name: 'id', desc: 'node id', default: true },
  { name: 'host', aliases: ['h'], desc: 'host name', default: true },
  { name: 'ip', desc: 'ip address', default: true },
  { name: 'node', aliases: ['n'], desc: 'node name', default: true },
];

function catMaster(req: RestRequest, s: NodeServices): RestResponse {
  const state = s.cluster.state();
  const m = state.masterNodeId ? state.nodes[state.masterNodeId] : undefined;
  const row = m
    ? { id: m.id, host: m.host, ip: m.host, node: m.name }
    : { id: '-', host: '-', ip: '-', node: '-' };
  return catResponse(req, MASTER_COLUMNS, [row]);
}

export function catNodesRoutes(): Route<NodeServices>[] {
  return [
    { method: 'GET', path: '/_cat/nodes', action: 'cluster:monitor/nodes/info', handler: catNodes },
    { method: 'GET', path: '/_cat/master', action: 'cluster:monitor/state', handler: catMaster },
  ];
}
