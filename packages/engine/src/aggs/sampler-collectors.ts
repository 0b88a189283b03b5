/**
 * sampler and diversified_sampler on one shard (SamplerAggregator, DiversifiedBytesHashSampler…):
 * per owning bucket, the `shard_size` docs with the best query scores (ties to the earlier doc,
 * as Lucene's TopScoreDocCollector keeps them), and for diversified_sampler no more than
 * `max_docs_per_value` of them per value of the field (Lucene's DiversifiedTopDocsCollector: a
 * doc whose value is full competes only with that value's weakest doc). The sub-aggregations
 * then see exactly those docs (deferred-replay.ts); the bucket's doc_count is their number.
 */
import {
  type AggPartial,
  type DiversifiedSamplerSpec,
  illegalArgument,
  type SamplerSpec,
} from '@shoal/protocol';
import type { SortedSetValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import type { AggCollector } from './collector.ts';
import { type DeferredDoc, replay } from './deferred-replay.ts';
import { DocScores } from './doc-scores.ts';
import {
  type AggEnv,
  type DoubleView,
  doubleView,
  type FieldSource,
  ordsView,
  resolveSource,
  TERMS_KINDS,
} from './field-source.ts';

interface Sampled {
  readonly segment: ReaderSegment;
  readonly doc: number;
  readonly score: number;
  readonly key: string | number | null;
}

/** Whether `a` ranks before `b`: a higher score, or the same score and an earlier doc. */
function better(a: Sampled, b: Sampled): boolean {
  if (a.score !== b.score) return a.score > b.score;
  return a.segment.ord !== b.segment.ord ? a.segment.ord < b.segment.ord : a.doc < b.doc;
}

/** One owner's sample: the best `size` docs, at most `perKey` per key. */
class Sample {
  readonly docs: Sampled[] = [];

  constructor(
    private readonly size: number,
    private readonly perKey: number,
  ) {}

  offer(s: Sampled): void {
    if (this.size === 0) return;
    const docs = this.docs;
    if (Number.isFinite(this.perKey)) {
      let sameKey = 0;
      let weakestOfKey = -1;
      for (let i = 0; i < docs.length; i++) {
        if (docs[i]!.key !== s.key) continue;
        sameKey++;
        if (weakestOfKey < 0 || better(docs[weakestOfKey]!, docs[i]!)) weakestOfKey = i;
      }
      if (sameKey >= this.perKey) {
        if (weakestOfKey >= 0 && better(s, docs[weakestOfKey]!)) docs[weakestOfKey] = s;
        return;
      }
    }
    if (docs.length < this.size) {
      docs.push(s);
      return;
    }
    let weakest = 0;
    for (let i = 1; i < docs.length; i++) if (better(docs[weakest]!, docs[i]!)) weakest = i;
    if (better(s, docs[weakest]!)) docs[weakest] = s;
  }
}

abstract class SamplingCollector implements AggCollector {
  private readonly scores: DocScores;
  private readonly samples: (Sample | undefined)[] = [];
  private segment: ReaderSegment | null = null;
  private replayed = false;

  constructor(
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
    private readonly shardSize: number,
    private readonly perKey: number,
  ) {
    this.scores = new DocScores(env.scores);
  }

  setSegment(rs: ReaderSegment): void {
    this.segment = rs;
    this.scores.setSegment(rs);
    this.keySegment(rs);
  }

  protected keySegment(_rs: ReaderSegment): void {}

  protected key(_doc: number): string | number | null {
    return null;
  }

  collect(doc: number, owner: number): void {
    let sample = this.samples[owner];
    if (sample === undefined) {
      sample = new Sample(this.shardSize, this.perKey);
      this.samples[owner] = sample;
    }
    sample.offer({ segment: this.segment!, doc, score: this.scores.score(doc), key: this.key(doc) });
  }

  build(owner: number): AggPartial {
    if (!this.replayed) {
      this.replayed = true;
      const docs: DeferredDoc[] = [];
      this.samples.forEach((s, bucket) => {
        for (const d of s?.docs ?? []) docs.push({ segment: d.segment, doc: d.doc, bucket });
      });
      replay(this.subs, docs);
    }
    const docCount = owner < 0 ? 0 : (this.samples[owner]?.docs.length ?? 0);
    return { t: 'single', docCount, aggs: this.subs.map((s) => s.build(owner)) };
  }
}

export class SamplerCollector extends SamplingCollector {
  constructor(spec: SamplerSpec, env: AggEnv, subs: readonly AggCollector[]) {
    super(env, subs, spec.shardSize, Number.POSITIVE_INFINITY);
  }
}

export class DiversifiedSamplerCollector extends SamplingCollector {
  private readonly src: FieldSource;
  private ss: SortedSetValues | null = null;
  private view: DoubleView | null = null;

  constructor(spec: DiversifiedSamplerSpec, env: AggEnv, subs: readonly AggCollector[]) {
    super(env, subs, spec.shardSize, spec.maxDocsPerValue);
    this.src = resolveSource(spec.source, 'diversified_sampler', TERMS_KINDS, env);
  }

  /** An unmapped field samples nothing (UnmappedSampler). */
  override collect(doc: number, owner: number): void {
    if (this.src.kind !== 'unmapped') super.collect(doc, owner);
  }

  protected override keySegment(rs: ReaderSegment): void {
    const k = this.src.kind;
    this.ss = k === 'keyword' || k === 'ip' ? ordsView(this.src, rs) : null;
    this.view = k === 'number' || k === 'date' || k === 'bool' ? doubleView(this.src, rs) : null;
  }

  protected override key(doc: number): string | number | null {
    const starts = this.ss?.starts ?? this.view?.starts;
    if (starts === undefined) return null;
    const s = starts[doc]!;
    const e = starts[doc + 1]!;
    if (s === e) return null;
    if (e - s > 1) throw illegalArgument('Sample diversifying key must be a single valued-field');
    return this.ss ? this.ss.terms[this.ss.ords[s]!]! : this.view!.values[s]!;
  }
}
