/**
 * multi_terms on one shard (MultiTermsAggregator): a bucket per combination of the sources'
 * values a doc holds (every combination of multi-valued docs; a source without a value gives its
 * `missing`, else the doc has no key), the shard's top `shard_size` by the requested order
 * returned with what the coordinator needs for `sum_other_doc_count` and the doc-count error.
 */

import {
  type AggPartial,
  type CompositeValue,
  checkOrderPaths,
  isCountDesc,
  isKeyOrder,
  type MultiTermsBucket,
  type MultiTermsSpec,
  multiTermsComparator,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { type AggCollector, BucketDoubles, BucketOrds } from './collector.ts';
import { SourceValues } from './composite-collector.ts';
import { docCountsOf } from './doc-counts.ts';
import type { AggEnv } from './field-source.ts';
import { termsKind } from './terms-collector.ts';

type Key = string | number | bigint;

export class MultiTermsCollector implements AggCollector {
  private readonly sources: SourceValues[];
  /** Per source: the key a doc without a value takes (`missing`), if any. */
  private readonly missing: (Key | undefined)[];
  private readonly buckets = new BucketOrds<string>();
  private readonly keys: Key[][] = [];
  private readonly counts = new BucketDoubles();
  private readonly scratch: CompositeValue[][];

  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;

  constructor(
    private readonly spec: MultiTermsSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    checkOrderPaths(spec.order, spec.aggs);
    this.sources = spec.terms.map(
      (source, i) =>
        new SourceValues({ name: String(i), kind: 'terms', source, asc: true, missingBucket: false }, env),
    );
    this.missing = this.sources.map((s) => {
      const m = s.spec.source.missing;
      return m === undefined || m === null ? undefined : (s.afterValue(m) as Key);
    });
    this.scratch = this.sources.map(() => []);
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    for (const s of this.sources) s.setSegment(rs);
    this.docCounts = docCountsOf(rs);
  }

  collect(doc: number, owner: number): void {
    const values = this.scratch;
    for (let i = 0; i < this.sources.length; i++) {
      const out = values[i]!;
      this.sources[i]!.values(doc, out);
      if (out.length === 0) {
        const m = this.missing[i];
        if (m === undefined) return;
        out.push(m);
      }
    }
    // Every combination, the last source varying fastest.
    const at = new Array<number>(values.length).fill(0);
    for (;;) {
      const key = at.map((j, i) => values[i]![j] as Key);
      this.collectBucket(doc, owner, key);
      let i = values.length - 1;
      while (i >= 0 && ++at[i]! >= values[i]!.length) at[i--] = 0;
      if (i < 0) return;
    }
  }

  private collectBucket(doc: number, owner: number, key: Key[]): void {
    const id = JSON.stringify(key.map((k) => (typeof k === 'bigint' ? `${k}n` : k)));
    const before = this.buckets.size;
    const b = this.buckets.ord(owner, id);
    if (this.buckets.size > before) this.keys[b] = key;
    this.counts.add(b, this.docCounts === null ? 1 : this.docCounts[doc]!);
    for (const s of this.subs) s.collect(doc, b);
  }

  build(owner: number): AggPartial {
    const spec = this.spec;
    const byPath = spec.order.some((o) => o.kind === 'path');
    const entries = this.buckets
      .ordsOf(owner)
      .filter((b) => this.counts.get(b) >= spec.shardMinDocCount)
      .map((b) => ({
        ord: b,
        key: this.keys[b]!,
        docCount: this.counts.get(b),
        aggs: byPath ? this.subs.map((s) => s.build(b)) : [],
      }));
    entries.sort(multiTermsComparator(spec.order, spec.aggs));
    const top = entries.slice(0, spec.shardSize);
    let otherDocCount = 0;
    for (let i = top.length; i < entries.length; i++) otherDocCount += entries[i]!.docCount;
    // InternalMultiTerms: a shard's error is 0, never unknown, so by count descending the reduce
    // takes it as it is (AbstractInternalTerms.getDocCountError); other orders of a full shard
    // leave it unknown.
    const docCountError =
      top.length >= spec.shardSize && !isKeyOrder(spec.order) && !isCountDesc(spec.order) ? -1 : 0;
    const presentError = 0;
    const buckets: MultiTermsBucket[] = top.map((x) => ({
      key: x.key,
      docCount: x.docCount,
      presentError,
      aggs: byPath ? x.aggs : this.subs.map((s) => s.build(x.ord)),
    }));
    return {
      t: 'multi_terms',
      kinds: this.sources.map((s) => termsKind(s.src)),
      formats: this.sources.map((s) => s.fmt),
      buckets,
      otherDocCount,
      docCountError,
    };
  }
}
