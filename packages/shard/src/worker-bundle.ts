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
 * The bundle is built once per process (esbuild, about 0.2 s) and written under the package's
 * `.cache/`, named by the hash of its text: processes of the same code share it, and changed
 * source gets a new file, never a stale one. Written next to the package, its npm imports
 * resolve from the project's node_modules.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

const require = createRequire(import.meta.url);

/** Shoal's own packages: bundled from their source, as the thread's own code. */
const SHOAL_PACKAGES = ['@shoal/engine', '@shoal/protocol', '@shoal/shard'];

let built: URL | undefined;

/**
 * The URL of the bundled module for the worker source `source` (built on first use). Throws
 * when the source does not build or the bundle cannot be written.
 */
export function bundledWorker(source: URL): URL {
  if (built) return built;
  const alias: Record<string, string> = {};
  for (const name of SHOAL_PACKAGES) alias[name] = require.resolve(name);
  const dir = join(dirname(fileURLToPath(source)), '..', '.cache');
  const out = buildSync({
    entryPoints: [fileURLToPath(source)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node}`,
    packages: 'external',
    alias,
    write: false,
    sourcemap: 'external',
    sourcesContent: false,
    // Where the map's source paths are relative to (the file is named after its hash below).
    outfile: join(dir, 'worker.mjs'),
    logLevel: 'silent',
  });
  const code = out.outputFiles.find((f) => f.path.endsWith('.mjs'))!.text;
  const map = out.outputFiles.find((f) => f.path.endsWith('.map'))?.text;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = join(dir, `worker-${hash}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    if (map !== undefined) writeAtomically(`${file}.map`, map);
    writeAtomically(file, `${code}//# sourceMappingURL=worker-${hash}.mjs.map\n`);
    pruneOldBundles(dir);
  }
  built = pathToFileURL(file);
  return built;
}

/** Written under a name of this process's own, then renamed: a process starting at the same time never reads half a file. */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/**
 * Bundles of older code that no process has written for a week. A running node may still
 * start a thread from its bundle (a replacement for one that died), so recent ones stay.
 */
const KEEP_MS = 7 * 24 * 60 * 60 * 1000;

function pruneOldBundles(dir: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!name.startsWith('worker-')) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { force: true });
    } catch {
      // Another process pruned it first.
    }
  }
}
