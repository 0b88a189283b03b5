import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { startWithExecArgv, tsExecArgv, workerResourceLimits } from './ts-worker.ts';

const tsFile = new URL('file:///shoal/worker.ts');
const jsFile = new URL('file:///shoal/worker.js');

describe('worker thread options from the process flags', () => {
  it('keeps the flags a worker accepts and adds the TypeScript hook for .ts workers', () => {
    const argv = tsExecArgv(tsFile, ['--enable-source-maps', '--cpu-prof'])!;
    expect(argv.slice(0, 2)).toEqual(['--enable-source-maps', '--cpu-prof']);
    expect(argv[2]).toBe('--require');
    expect(argv[3]).toMatch(/tsx/);
    expect(tsExecArgv(jsFile, ['--enable-source-maps'])).toBeUndefined();
  });

  it('gives a JavaScript worker no tsx preload, and keeps the others', () => {
    const tsxPath = '/app/node_modules/tsx/dist/loader.mjs';
    expect(tsExecArgv(jsFile, ['--import', 'tsx', '--enable-source-maps'])).toEqual(['--enable-source-maps']);
    expect(tsExecArgv(jsFile, ['--no-memory-reducer', '--import', tsxPath])).toEqual(['--no-memory-reducer']);
    expect(tsExecArgv(jsFile, ['--require=tsx/cjs', '-r', 'tsx', '--import=./otel.mjs'])).toEqual([
      '--import=./otel.mjs',
    ]);
    expect(tsExecArgv(jsFile, ['--require', './setup.cjs'])).toBeUndefined();
  });

  it('turns heap-size flags, which a worker refuses, into resource limits', () => {
    const flags = ['--max-old-space-size=2048', '--enable-source-maps', '--max-semi-space-size', '16'];
    expect(tsExecArgv(tsFile, flags)!.slice(0, 2)).toEqual(['--enable-source-maps', '--require']);
    expect(tsExecArgv(jsFile, flags)).toEqual(['--enable-source-maps']);
    expect(workerResourceLimits(flags)).toEqual({
      maxOldGenerationSizeMb: 2048,
      maxYoungGenerationSizeMb: 48,
    });
    expect(workerResourceLimits(['--max_old_space_size=512'])).toEqual({ maxOldGenerationSizeMb: 512 });
    expect(workerResourceLimits(['--max-old-space-size=x'])).toEqual({});
  });

  it('starts worker threads without the flags Node refuses in a worker, naming the rest', async () => {
    const seen: (string[] | undefined)[] = [];
    const worker = startWithExecArgv(['--expose-gc', '--no-warnings', '--trace-gc'], (argv) => {
      seen.push(argv);
      return new Worker('', { eval: true, execArgv: argv });
    });
    await worker.terminate();
    expect(seen).toEqual([['--expose-gc', '--no-warnings', '--trace-gc'], ['--no-warnings']]);
    // Any other failure is the caller's.
    expect(() =>
      startWithExecArgv([], () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
  });
});
