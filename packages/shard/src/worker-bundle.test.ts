import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ShardWorker } from './shard-worker.ts';
import { bundledWorker } from './worker-bundle.ts';

const source = new URL('./worker.ts', import.meta.url);

describe('the bundled shard worker', () => {
  const workers: ShardWorker[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
  });

  it('is one ES module named by the hash of its text, with Shoal bundled in and npm packages imported', () => {
    const url = bundledWorker(source);
    expect(bundledWorker(source).href).toBe(url.href);
    expect(url.pathname).toMatch(/\/packages\/shard\/\.cache\/worker-[0-9a-f]{16}\.mjs$/);
    const text = readFileSync(fileURLToPath(url), 'utf8');
    expect(text).toMatch(/export \{\s*handle as default\s*\}/);
    expect(text).not.toMatch(/from ["']@shoal\//);
    expect(text).toMatch(/from ["']piscina["']/);
    expect(text).not.toContain('__name(');
  });

  it('is what a shard worker thread runs', async () => {
    const w = new ShardWorker(0);
    workers.push(w);
    expect(w.module.href).toBe(bundledWorker(source).href);
    // A real task, answered by the engine code in the bundle: a thread that holds no shard.
    const memory = await w.run({ t: 'memory' });
    expect(memory.heapUsed).toBeGreaterThan(0);
    expect(memory.heapTotal).toBeGreaterThanOrEqual(memory.heapUsed);
    expect(memory.residentSegmentBytes).toBe(0);
  });
});
