/** Table printing and the JSON result files (`.bench/`, git-ignored). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, release } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './processes.ts';

export function int(n: number | undefined): string {
  return n === undefined || !Number.isFinite(n) ? '-' : Math.round(n).toLocaleString('en-US');
}

export function fixed(n: number | undefined, digits = 2): string {
  return n === undefined || !Number.isFinite(n) ? '-' : n.toFixed(digits);
}

/** The median of several runs by `key` (the upper one of an even count). */
export function medianRun<T>(runs: readonly T[], key: (run: T) => number): T {
  return [...runs].sort((a, b) => key(a) - key(b))[Math.floor(runs.length / 2)]!;
}

/**
 * The median of `xs[i] / base[i]` over the rounds both were measured in: each ratio compares
 * two runs of the same round, seconds apart, so a slow minute of the machine cancels out.
 */
export function medianRatio(xs: readonly number[], base: readonly number[]): number | undefined {
  const n = Math.min(xs.length, base.length);
  if (n === 0) return undefined;
  const ratios = Array.from({ length: n }, (_, i) => xs[i]! / base[i]!).sort((a, b) => a - b);
  return n % 2 === 1 ? ratios[(n - 1) / 2]! : (ratios[n / 2 - 1]! + ratios[n / 2]!) / 2;
}

/** Prints rows as an aligned text table (numbers right-aligned). */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 || /^[a-z(]/i.test(c) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

export function environment(): Record<string, unknown> {
  return {
    node: process.version,
    platform: `${process.platform} ${release()}`,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model,
  };
}

/** Writes `.bench/<name>-<timestamp>.json` and returns its path. */
export function writeResults(name: string, data: unknown): string {
  const dir = join(repoRoot, '.bench');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = join(dir, `${name}-${stamp}.json`);
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
  return file;
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
