import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** A sample data set: its index, explicit mappings and documents (with their `_id`). */
export interface SampleDataset<T = unknown> {
  name: string;
  index: string;
  mappings: Record<string, unknown>;
  count(): number;
  docs(): Iterable<{ id: string; source: T }>;
}

/**
 * The folder of vega-datasets' data files. The package's `exports` map exposes only its
 * build, so locate the package through it and step over to `data/`.
 */
export function vegaDataDir(): string {
  return join(dirname(require.resolve('vega-datasets')), '..', 'data');
}

export function readDatasetFile<T>(file: string): T {
  return JSON.parse(readFileSync(join(vegaDataDir(), file), 'utf8')) as T;
}
