/**
 * rare_terms on one shard (StringRareTermsAggregator, LongRareTermsAggregator): every term of
 * the owning bucket counted exactly (the terms collector, keeping all its buckets), those held
 * by at most `max_doc_count` docs returned as buckets and the others as keys the reduce must
 * drop wherever they appear. Floating-point fields are refused, as Elasticsearch does.
 */

import {
  type AggPartial,
  illegalArgument,
  type RareTermsSpec,
  type TermsBucket,
  type TermsPartial,
  type TermsSpec,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { AggCancel, AggCollector } from './collector.ts';
import type { AggEnv } from './field-source.ts';
import { TermsCollector } from './terms-collector.ts';

const ALL = 2147483647;

export class RareTermsCollector implements AggCollector {
  private readonly terms: TermsCollector;

  constructor(
    private readonly spec: RareTermsSpec,
    env: AggEnv,
    subs: readonly AggCollector[],
  ) {
    const asTerms: TermsSpec = {
      type: 'terms',
      name: spec.name,
      aggs: spec.aggs,
      source: spec.source,
      size: ALL,
      shardSize: ALL,
      minDocCount: 1,
      shardMinDocCount: 0,
      order: [
        { kind: 'count', asc: true },
        { kind: 'key', asc: true },
      ],
      showTermDocCountError: false,
      ...(spec.include ? { include: spec.include } : {}),
      ...(spec.exclude ? { exclude: spec.exclude } : {}),
      ...(spec.regex ? { regex: spec.regex } : {}),
    };
    this.terms = new TermsCollector(asTerms, env, subs);
    if (this.terms.kind === 'double') {
      throw illegalArgument('RareTerms aggregation does not support floating point fields.');
    }
  }

  setSegment(rs: ReaderSegment): void {
    this.terms.setSegment(rs);
  }

  collect(doc: number, owner: number): void {
    this.terms.collect(doc, owner);
  }

  collectAll(
    rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    return this.terms.collectAll(rs, docs, excluded, cancel);
  }

  build(owner: number): AggPartial {
    const all = this.terms.build(owner) as TermsPartial;
    const buckets: TermsBucket[] = [];
    const frequent: (string | number | bigint)[] = [];
    for (const b of all.buckets) {
      if (b.docCount <= this.spec.maxDocCount) buckets.push(b);
      else frequent.push(b.key);
    }
    const out: AggPartial = { t: 'rare_terms', kind: all.kind, buckets, frequent, fmt: all.fmt };
    return all.unmapped ? { ...out, unmapped: true } : out;
  }
}
