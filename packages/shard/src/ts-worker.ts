import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * execArgv for a Piscina pool whose worker file is TypeScript source. On Node 20, tsx's ESM
 * hooks are not registered inside worker threads; its CommonJS hook is, and Piscina
 * `require()`s the worker file, so the worker source runs as CommonJS (no top-level await).
 */
export function tsExecArgv(workerUrl: URL): string[] | undefined {
  if (!workerUrl.pathname.endsWith('.ts')) return undefined;
  return [...process.execArgv, '--require', require.resolve('tsx/cjs')];
}
