/**
 * How the benchmarks fill a node: flights-200k, bulk-loaded in batches of 5,000 with two
 * requests in flight, into an index of `shards` shards.
 */
import { type LoadDatasetResult, loadDataset } from '../load-sample.ts';
import { flights } from '../sample-data/index.ts';

export function loadFlights(url: string, shards: number, progress = false): Promise<LoadDatasetResult> {
  console.log(`loading flights-200k into ${shards} shards on ${url} …`);
  return loadDataset({ url, dataset: flights, shards, batch: 5000, concurrency: 2, progress });
}
