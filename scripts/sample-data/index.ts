/**
 * Sample data for Shoal: vega-datasets' movies and flights-200k as Elasticsearch indices,
 * with explicit mappings, served as `_bulk` NDJSON batches.
 */
import type { SampleDataset } from './dataset.ts';
import { flights } from './flights.ts';
import { movies } from './movies.ts';

export type { SampleDataset } from './dataset.ts';
export { type FlightDoc, type FlightRow, flightDoc, flightRows, flightSummary, flights } from './flights.ts';
export { movieRows, movies } from './movies.ts';

export const datasets = { flights, movies } as const;
export type DatasetName = keyof typeof datasets;

export function isDatasetName(name: string): name is DatasetName {
  return Object.hasOwn(datasets, name);
}

/** One `_bulk` request body: `docs` index actions, NDJSON, ending with a newline. */
export interface BulkBatch {
  body: Buffer;
  docs: number;
  /** `_id` of the first document of the batch (for error messages). */
  firstId: string;
}

/**
 * Yields the data set as `_bulk` bodies of at most `batchSize` documents. Each action names
 * its index (`{"index":{"_index":…,"_id":…}}`), so the bodies go to `POST /_bulk`.
 */
export function* bulkBatches(
  dataset: SampleDataset,
  batchSize = 5000,
  index = dataset.index,
): Generator<BulkBatch> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batch size must be a positive integer`);
  const indexJson = JSON.stringify(index);
  let lines: string[] = [];
  let docs = 0;
  let firstId = '';
  for (const { id, source } of dataset.docs()) {
    if (docs === 0) firstId = id;
    lines.push(`{"index":{"_index":${indexJson},"_id":${JSON.stringify(id)}}}`, JSON.stringify(source));
    docs++;
    if (docs === batchSize) {
      yield { body: Buffer.from(`${lines.join('\n')}\n`), docs, firstId };
      lines = [];
      docs = 0;
    }
  }
  if (docs > 0) yield { body: Buffer.from(`${lines.join('\n')}\n`), docs, firstId };
}

/** The index body for `PUT /{index}`. */
export function createIndexBody(dataset: SampleDataset, shards: number): Record<string, unknown> {
  return {
    settings: { number_of_shards: shards, number_of_replicas: 0 },
    mappings: dataset.mappings,
  };
}

export function allDatasets(): SampleDataset[] {
  return [datasets.flights, datasets.movies];
}
