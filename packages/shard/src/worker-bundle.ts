/**
 * The shard worker thread's code, bundled into one ES module when it runs from TypeScript
 * source. On Node 20 a worker thread can only load TypeScript through tsx's CommonJS hook
 * (ts-worker.ts), and CommonJS as esbuild writes it costs the thread on every task: each use of
 * an imported function is a call to a getter on the exporting module (two through a package's
 * index), and every named closure is renamed by a `defineProperty` each time it is made. A
 * sorted search's shard task paid about a tenth of its time for them. In one scope-hoisted
 * module, the thread's own code calls its functions directly; Shoal's packages are bundled,
 * npm packages stay imports.
 *
 * The bundle is built once per process (about 0.2 s) under the package's `.cache/`
 * (module-bundle.ts).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleModule } from './module-bundle.ts';

/** Shoal's own packages: bundled from their source, as the thread's own code. */
const SHOAL_PACKAGES = ['@shoal/engine', '@shoal/protocol', '@shoal/shard'];

let built: URL | undefined;

/**
 * The URL of the bundled module for the worker source `source` (built on first use). Throws
 * when the source does not build or the bundle cannot be written.
 */
export function bundledWorker(source: URL): URL {
  built ??= bundleModule({
    source,
    cacheDir: join(dirname(fileURLToPath(source)), '..', '.cache'),
    prefix: 'worker',
    packages: SHOAL_PACKAGES,
    resolveFrom: source.href,
  });
  return built;
}
