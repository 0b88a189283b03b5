/** Runs aggregations on test shards and renders them as a single-shard response would be. */
import {
  type AggregationsSpec,
  parseAggregations,
  reduceAggregations,
  type ShardAggregations,
} from '@shoal/protocol';
import { type Corpus, ctx } from '../search/test-corpus.test-support.ts';
import { aggDates } from './agg-dates.ts';
import { type AggDocs, aggregateShard, LIVE_DOCS } from './aggregate-shard.ts';

type Shard = Pick<Corpus, 'reader' | 'mapping'>;

export function specsOf(aggs: Record<string, unknown>): AggregationsSpec {
  return parseAggregations(aggs).aggs;
}

export function partialsOf(c: Shard, specs: AggregationsSpec, docs: AggDocs = LIVE_DOCS): ShardAggregations {
  return aggregateShard(c.reader, c.mapping, specs, docs, ctx);
}

/** The `aggregations` JSON of one shard's partials (what a one-shard search answers). */
export function aggregate(c: Shard, aggs: Record<string, unknown>, docs: AggDocs = LIVE_DOCS) {
  const specs = specsOf(aggs);
  // Partials cross threads: they must survive a structured clone unchanged.
  const partials = structuredClone(partialsOf(c, specs, docs));
  return reduceAggregations(specs, [partials], { dates: aggDates }) as Record<
    string,
    Record<string, unknown>
  >;
}

/** The buckets of a rendered bucket aggregation. */
export function bucketsOf(
  out: Record<string, Record<string, unknown>>,
  name: string,
): Record<string, unknown>[] {
  return out[name]!.buckets as Record<string, unknown>[];
}
