/**
 * Benchmarks, against servers started here on 127.0.0.1 and stopped at the end:
 *
 *   npm run bench -- search [--duration 10] [--warmup 2] [--connections 4]
 *   npm run bench -- bulk   [--duration 10] [--warmup 2] [--connections 4]
 *   npm run bench -- memory
 *   npm run bench -- paging
 *   npm run bench -- reindex [--connections 4]
 *   npm run bench -- scripts [--duration 10] [--warmup 2] [--connections 4]
 *   npm run bench -- auth   [--duration 10] [--warmup 2] [--connections 4]
 *   npm run bench -- transforms [--connections 4]
 *   npm run bench -- queries [--rounds 1] [--shape-seconds 3] [--logs] [--logs-docs 2000000] [--rss-wait 0] [--compare <checkout>] [--shapes id,id]
 *
 * `search` measures two ceilings and three searches on a node holding flights-200k (see
 * search.ts); `bulk` measures `_bulk` indexing against the cost of just POSTing the same bytes
 * (see bulk.ts); `queries` measures ≥ 20 query shapes with random values against match_all
 * (see queries.ts). Results are printed and written to `.bench/<scenario>-<timestamp>.json`.
 */
import { parseArgs } from 'node:util';
import { runAuth } from './auth.ts';
import { runBulk } from './bulk.ts';
import type { LoadOptions } from './measure.ts';
import { runMemory } from './memory.ts';
import { runPaging } from './paging.ts';
import { stopAll } from './processes.ts';
import { runQueries } from './queries.ts';
import { runReindex } from './reindex.ts';
import { runScripts } from './scripts.ts';
import { runSearch } from './search.ts';
import { runTransforms } from './transforms.ts';

const usage =
  'usage: npm run bench -- search|bulk|memory|paging|scripts|reindex|auth|transforms|queries [--duration 10] [--warmup 2] [--connections 4]\n' +
  '       (queries: [--rounds 1] [--shape-seconds 3] [--logs] [--logs-docs 2000000] [--rss-wait 0] [--compare <checkout>] [--shapes id,id])';

type Flags = Record<string, string | boolean | undefined>;

const scenarios: Record<string, (load: LoadOptions, flags: Flags) => Promise<void>> = {
  search: runSearch,
  bulk: runBulk,
  memory: () => runMemory(),
  paging: () => runPaging(),
  reindex: runReindex,
  scripts: runScripts,
  auth: runAuth,
  transforms: runTransforms,
  queries: (_load, flags) =>
    runQueries({
      rounds: positive('rounds', flags.rounds as string, 20, true) || 1,
      shapeSeconds: positive('shape-seconds', flags['shape-seconds'] as string, 60, false) || 3,
      logs: flags.logs === true,
      logsDocs: positive('logs-docs', flags['logs-docs'] as string, 20_000_000, true) || 2_000_000,
      rssWaitS: positive('rss-wait', flags['rss-wait'] as string, 600, false),
      ...(typeof flags.compare === 'string' ? { compare: flags.compare } : {}),
      ...(typeof flags.shapes === 'string' ? { only: flags.shapes.split(',').map((s) => s.trim()) } : {}),
    }),
};

function positive(name: string, value: string | undefined, max: number, integer: boolean): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > max || (integer && !Number.isInteger(n))) {
    throw new Error(
      `--${name} must be ${integer ? 'an integer' : 'a number'} between 0 and ${max}\n${usage}`,
    );
  }
  return n;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '4' },
      rounds: { type: 'string', default: '1' },
      'shape-seconds': { type: 'string', default: '3' },
      logs: { type: 'boolean', default: false },
      'logs-docs': { type: 'string', default: '2000000' },
      'rss-wait': { type: 'string', default: '0' },
      compare: { type: 'string' },
      shapes: { type: 'string' },
    },
  });
  const name = positionals[0];
  const scenario = name === undefined ? undefined : scenarios[name];
  if (!scenario || positionals.length !== 1) throw new Error(usage);
  const load: LoadOptions = {
    durationS: positive('duration', values.duration, 60, false),
    warmupS: positive('warmup', values.warmup, 30, false),
    connections: positive('connections', values.connections, 256, true),
  };
  if (load.durationS === 0 || load.connections === 0)
    throw new Error(`--duration and --connections must be > 0`);

  // A hard stop for the whole run: servers started, data loaded and 5 measured runs, with room.
  const limitMs = name === 'queries' ? 60 * 60 * 1000 : (5 * (load.durationS + load.warmupS) + 180) * 1000;
  const watchdog = setTimeout(() => {
    console.error(`bench: still running after ${limitMs / 1000} s; stopping`);
    stopAll().finally(() => process.exit(2));
  }, limitMs);
  watchdog.unref();

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      console.error(`bench: ${signal}; stopping the servers`);
      stopAll().finally(() => process.exit(130));
    });
  }
  try {
    await scenario(load, values);
  } finally {
    await stopAll();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  stopAll().finally(() => process.exit(1));
});
