/**
 * significant_terms on one shard (SignificantTermsAggregatorFactory and its collectors): each
 * owning bucket's terms counted exactly (the terms collector, keeping all its buckets) with the
 * number of docs the bucket holds (the subset), and once per search the background — every
 * live doc of the shard, or those `background_filter` matches — counted the same way (the
 * superset). A shard returns its `shard_size` best terms by the heuristic's shard-level score,
 * among those held by at least `shard_min_doc_count` subset docs; the reduce adds up the counts
 * and scores again. Floating-point fields are refused, as Elasticsearch does.
 */
import {
  type AggPartial,
  illegalArgument,
  type SignificantTermsPartial,
  type SignificantTermsSpec,
  type TermsPartial,
  type TermsSpec,
  topSignificant,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { Weight } from '../search/weights.ts';
import { AggCancel, type AggCollector, BucketDoubles } from './collector.ts';
import { docCountsOf } from './doc-counts.ts';
import type { AggEnv } from './field-source.ts';
import { compileFilter, isSet, matchBits } from './single-bucket-collectors.ts';
import { TermsCollector } from './terms-collector.ts';

const ALL = 2147483647;
type Key = string | number | bigint;

function allTerms(spec: SignificantTermsSpec, aggs: TermsSpec['aggs']): TermsSpec {
  return {
    type: 'terms',
    name: spec.name,
    aggs,
    source: spec.source,
    size: ALL,
    shardSize: ALL,
    minDocCount: 1,
    shardMinDocCount: 0,
    order: [
      { kind: 'count', asc: false },
      { kind: 'key', asc: true },
    ],
    showTermDocCountError: false,
    ...(spec.include ? { include: spec.include } : {}),
    ...(spec.exclude ? { exclude: spec.exclude } : {}),
    ...(spec.regex ? { regex: spec.regex } : {}),
  };
}

export class SignificantTermsCollector implements AggCollector {
  private readonly subset: TermsCollector;
  private readonly subsetSizes = new BucketDoubles();
  private readonly background: Weight | null;
  private superset: { size: number; counts: Map<Key, number> } | null = null;
  private docCounts: Float64Array | null = null;

  constructor(
    private readonly spec: SignificantTermsSpec,
    private readonly env: AggEnv,
    subs: readonly AggCollector[],
  ) {
    this.subset = new TermsCollector(allTerms(spec, spec.aggs), env, subs);
    if (this.subset.kind === 'double')
      throw illegalArgument('No support for examining floating point numerics');
    this.background = spec.backgroundFilter ? compileFilter(spec.backgroundFilter, env) : null;
  }

  setSegment(rs: ReaderSegment): void {
    this.subset.setSegment(rs);
    this.docCounts = docCountsOf(rs);
  }

  collect(doc: number, owner: number): void {
    // Term counts weigh `_doc_count` (the terms collector does): so do the sizes.
    this.subsetSizes.add(owner, this.docCounts === null ? 1 : this.docCounts[doc]!);
    this.subset.collect(doc, owner);
  }

  /** The background's size and term counts, computed on first use. */
  private backgroundCounts(): { size: number; counts: Map<Key, number> } {
    if (this.superset !== null) return this.superset;
    const terms = new TermsCollector(allTerms(this.spec, []), this.env, []);
    const cancel = new AggCancel(this.env.ctx.isCancelled);
    let size = 0;
    for (const rs of this.env.reader.segments) {
      terms.setSegment(rs);
      const deleted = rs.liveDocs.deletedBits;
      const bits = this.background ? matchBits(this.background, rs) : null;
      // Every live doc: the terms collector's own loop over the doc values, where it has one.
      const weights = docCountsOf(rs);
      if (bits === null && terms.collectAll(rs, null, deleted, cancel)) {
        size += rs.liveDocs.numLive;
        continue;
      }
      for (let d = 0; d < rs.segment.maxDoc; d++) {
        cancel.step();
        if (deleted !== null && isSet(deleted, d)) continue;
        if (bits !== null && !isSet(bits, d)) continue;
        size += weights === null ? 1 : weights[d]!;
        terms.collect(d, 0);
      }
    }
    const counts = new Map<Key, number>();
    for (const b of (terms.build(0) as TermsPartial).buckets) counts.set(b.key, b.docCount);
    this.superset = { size, counts };
    return this.superset;
  }

  build(owner: number): AggPartial {
    const sub = this.subset.build(owner) as TermsPartial;
    const bg = this.backgroundCounts();
    const partial: SignificantTermsPartial = {
      t: 'significant_terms',
      kind: sub.kind,
      fmt: sub.fmt,
      subsetSize: this.subsetSizes.get(owner),
      supersetSize: bg.size,
      buckets: sub.buckets.map((b) => ({
        key: b.key,
        docCount: b.docCount,
        bgCount: bg.counts.get(b.key) ?? 0,
        aggs: b.aggs,
      })),
    };
    const top = topSignificant(this.spec, partial, this.spec.shardMinDocCount, this.spec.shardSize, true);
    const out: SignificantTermsPartial = { ...partial, buckets: top.map((t) => t.bucket) };
    return sub.unmapped ? { ...out, unmapped: true } : out;
  }
}
