/**
 * One ES module bundled from TypeScript source by esbuild and written under a `.cache/` folder,
 * named by the hash of its text: processes of the same code share the file, and changed source
 * gets a new file, never a stale one. Shoal's own packages are bundled in; npm packages stay
 * imports, resolved from the project's node_modules (the cache folder sits inside a package).
 * Used for the shard worker thread (worker-bundle.ts) and the node program (the coordinator's
 * program-bundle.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

export interface ModuleBundle {
  /** The TypeScript entry module. */
  source: URL;
  /** The `.cache/` folder the bundle is written to. */
  cacheDir: string;
  /** The file name's prefix: `<prefix>-<hash>.mjs`. */
  prefix: string;
  /** Shoal packages bundled from their source (resolved from `resolveFrom`). */
  packages: readonly string[];
  /** A module URL the package names resolve from. */
  resolveFrom: string;
}

/** Builds the bundle (esbuild, well under a second) and returns its URL. Throws when the source does not build or the file cannot be written. */
export function bundleModule(spec: ModuleBundle): URL {
  const require = createRequire(spec.resolveFrom);
  const alias: Record<string, string> = {};
  for (const name of spec.packages) alias[name] = require.resolve(name);
  const out = buildSync({
    entryPoints: [fileURLToPath(spec.source)],
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
    outfile: join(spec.cacheDir, `${spec.prefix}.mjs`),
    logLevel: 'silent',
  });
  const code = out.outputFiles.find((f) => f.path.endsWith('.mjs'))!.text;
  const map = out.outputFiles.find((f) => f.path.endsWith('.map'))?.text;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const name = `${spec.prefix}-${hash}.mjs`;
  const file = join(spec.cacheDir, name);
  if (!existsSync(file)) {
    mkdirSync(spec.cacheDir, { recursive: true });
    if (map !== undefined) writeAtomically(`${file}.map`, map);
    writeAtomically(file, `${code}//# sourceMappingURL=${name}.map\n`);
    pruneOldBundles(spec.cacheDir, `${spec.prefix}-`);
  }
  return pathToFileURL(file);
}

/** Written under a name of this process's own, then renamed: a process starting at the same time never reads half a file. */
function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/**
 * Bundles of older code that no process has written for a week. A running node may still
 * load its bundle (a replacement worker thread), so recent ones stay.
 */
const KEEP_MS = 7 * 24 * 60 * 60 * 1000;

function pruneOldBundles(dir: string, prefix: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(prefix)) continue;
    const path = join(dir, name);
    try {
      if (now - statSync(path).mtimeMs > KEEP_MS) rmSync(path, { force: true });
    } catch {
      // Another process pruned it first.
    }
  }
}
