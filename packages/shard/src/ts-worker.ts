import { createRequire } from 'node:module';
import type { ResourceLimits } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/**
 * V8 heap-size flags of the process. A worker thread refuses them in its execArgv (its heap is
 * sized by `resourceLimits` instead), so they are taken out and turned into those limits: a
 * node started with `--max-old-space-size=4096` gives its shard workers the same old space.
 */
const HEAP_FLAGS: Record<string, keyof ResourceLimits> = {
  '--max-old-space-size': 'maxOldGenerationSizeMb',
  '--max_old_space_size': 'maxOldGenerationSizeMb',
  '--max-semi-space-size': 'maxYoungGenerationSizeMb',
  '--max_semi_space_size': 'maxYoungGenerationSizeMb',
};

/** V8's young generation is three semi-spaces (two for scavenging, one for promotion). */
const SEMI_SPACES_PER_YOUNG_GENERATION = 3;

function splitHeapFlags(argv: readonly string[]): { rest: string[]; limits: ResourceLimits } {
  const rest: string[] = [];
  const limits: ResourceLimits = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    const limit = HEAP_FLAGS[name];
    if (!limit) {
      rest.push(arg);
      continue;
    }
    const raw = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    const mb = Number(raw);
    if (!Number.isFinite(mb) || mb <= 0) continue;
    limits[limit] = name.includes('semi') ? mb * SEMI_SPACES_PER_YOUNG_GENERATION : mb;
  }
  return { rest, limits };
}

/** Whether a preload names tsx (`tsx`, `tsx/cjs`, or a path into its package). */
function isTsx(module: string): boolean {
  return module === 'tsx' || module.startsWith('tsx/') || /[\\/]node_modules[\\/]tsx[\\/]/.test(module);
}

/** `argv` without its tsx preloads (`--import tsx`, `--require=…/tsx/…`, `-r tsx/cjs`). */
function withoutTsx(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (name === '--import' || name === '--require' || name === '-r') {
      const module = eq < 0 ? argv[i + 1] : arg.slice(eq + 1);
      if (module !== undefined && isTsx(module)) {
        if (eq < 0) i++;
        continue;
      }
    }
    out.push(arg);
  }
  return out;
}

/**
 * execArgv for a Piscina pool. A worker file that is TypeScript source gets tsx's CommonJS
 * hook: on Node 20, tsx's ESM hooks are not registered inside worker threads, and Piscina
 * `require()`s the worker file, so the worker source runs as CommonJS (no top-level await).
 * A JavaScript worker file (compiled, or bundled: worker-bundle.ts) gets no tsx at all, which
 * would only cost the thread its start-up and turn on source maps for its error stacks. The
 * process's heap-size flags are left out (see workerResourceLimits).
 */
export function tsExecArgv(
  workerUrl: URL,
  execArgv: readonly string[] = process.execArgv,
): string[] | undefined {
  const { rest } = splitHeapFlags(execArgv);
  if (!workerUrl.pathname.endsWith('.ts')) {
    const plain = withoutTsx(rest);
    return plain.length === execArgv.length ? undefined : plain;
  }
  return [...rest, '--require', require.resolve('tsx/cjs')];
}

/** The worker heap limits that match the process's own heap-size flags. */
export function workerResourceLimits(execArgv: readonly string[] = process.execArgv): ResourceLimits {
  return splitHeapFlags(execArgv).limits;
}

/** The flags Node named in a worker's ERR_WORKER_INVALID_EXEC_ARGV error, if that was it. */
function refusedFlags(e: unknown): string[] {
  if ((e as { code?: unknown })?.code !== 'ERR_WORKER_INVALID_EXEC_ARGV') return [];
  const m = /flags: (.*)$/.exec((e as Error).message);
  return m ? m[1]!.split(', ') : [];
}

/**
 * Runs `start` (something that creates worker threads) with `execArgv`; when Node refuses
 * some of the flags in a worker (V8 options such as `--trace-gc` or `--expose-gc`, which a
 * developer may start the node with), starts again without them.
 */
export function startWithExecArgv<T>(
  execArgv: string[] | undefined,
  start: (argv: string[] | undefined) => T,
): T {
  try {
    return start(execArgv);
  } catch (e) {
    const refused = refusedFlags(e);
    if (refused.length === 0) throw e;
    const argv = execArgv ?? [...process.execArgv];
    return start(argv.filter((a) => !refused.includes(a)));
  }
}
