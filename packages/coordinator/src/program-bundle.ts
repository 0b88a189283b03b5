/**
 * The node program (main.ts) bundled into one ES module under the package's `.cache/`
 * (module-bundle.ts in the shard package). Loading TypeScript through tsx costs a node about
 * 1.5 s of start-up for the few hundred files it compiles and resolves one by one; the bundle
 * loads in about 0.3 s and runs on plain Node. `npm run cluster` and the end-to-end tests start
 * nodes from it; `node --import tsx packages/coordinator/src/main.ts` runs the same program
 * from source.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleModule } from '@shoal/shard';

/** Every Shoal package: the program's own code. */
const SHOAL_PACKAGES = [
  '@shoal/cluster',
  '@shoal/coordinator',
  '@shoal/engine',
  '@shoal/protocol',
  '@shoal/security',
  '@shoal/shard',
];

/** Builds the bundle of the node program and returns its path. Throws when it does not build. */
export function bundledProgram(): string {
  const source = new URL('./main.ts', import.meta.url);
  return fileURLToPath(
    bundleModule({
      source,
      cacheDir: join(dirname(fileURLToPath(source)), '..', '.cache'),
      prefix: 'main',
      packages: SHOAL_PACKAGES,
      resolveFrom: import.meta.url,
    }),
  );
}

/**
 * How to start the node program (what follows `node` and its V8 flags): its bundle, or, when
 * the bundle cannot be made, its TypeScript source through tsx (the same program, slower to
 * start), with a warning saying why.
 */
export function programArgs(): string[] {
  try {
    return [bundledProgram()];
  } catch (e) {
    process.emitWarning(
      `the node program runs from its TypeScript source: ${e instanceof Error ? e.message : String(e)}`,
    );
    const require = createRequire(import.meta.url);
    return ['--import', require.resolve('tsx'), fileURLToPath(new URL('./main.ts', import.meta.url))];
  }
}
