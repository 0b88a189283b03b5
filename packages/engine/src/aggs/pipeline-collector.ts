/** A pipeline aggregation's place on a shard: it collects nothing and builds the pipeline partial. */
import type { AggPartial } from '@shoal/protocol';
import type { AggCollector } from './collector.ts';

const PARTIAL: AggPartial = Object.freeze({ t: 'pipeline' });

export const PIPELINE_COLLECTOR: AggCollector = {
  setSegment: () => {},
  collect: () => {},
  collectAll: () => true,
  build: () => PARTIAL,
  inert: true,
};
