/**
 * `GET /_internal/memory` (mounted with `SHOAL_MEMORY_REPORT=1`, for the memory benchmark): the
 * node's memory after a full collection in every thread: RSS, the V8 heaps of the coordinator
 * and of each shard worker, ArrayBuffer memory, and what the segments keep resident or cached.
 */
import { readFileSync } from 'node:fs';
import { getHeapCodeStatistics, getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';

async function memory(_req: unknown, s: NodeServices): Promise<RestResponse> {
  const workers = await Promise.all(s.workers.map((w) => w.run({ t: 'memory' })));
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const m = process.memoryUsage();
  const sum = (f: (w: (typeof workers)[number]) => number) => workers.reduce((n, w) => n + f(w), 0);
  // RssAnon / RssFile: what the process allocated, against mapped files (the node binary).
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return {
    status: 200,
    body: {
      rss: m.rss,
      rss_anon: kb('RssAnon'),
      rss_file: kb('RssFile'),
      heap_total: m.heapTotal + sum((w) => w.heapTotal),
      heap_used: m.heapUsed + sum((w) => w.heapUsed),
      coordinator_heap_used: m.heapUsed,
      worker_heap_used: sum((w) => w.heapUsed),
      array_buffers: m.arrayBuffers,
      segment_resident_bytes: sum((w) => w.residentSegmentBytes),
      section_cache_bytes: sum((w) => w.sectionCacheBytes),
      workers,
      // Reply slots still taken (none while no search is in flight).
      reply_slots_in_use: s.workers.reduce((n, w) => n + w.replySlotsInUse, 0),
      // The coordinator thread's V8 spaces and compiled code, to tell JIT and compiler memory
      // (fixed per process) from what the data costs.
      coordinator_spaces: Object.fromEntries(
        getHeapSpaceStatistics().map((sp) => [sp.space_name, sp.physical_space_size]),
      ),
      coordinator_code: getHeapCodeStatistics(),
    },
  };
}

export function memoryReportRoutes(): Route<NodeServices>[] {
  if (process.env.SHOAL_MEMORY_REPORT !== '1') return [];
  return [{ method: 'GET', path: '/_internal/memory', action: 'cluster:monitor/memory', handler: memory }];
}
