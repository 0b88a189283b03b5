/**
 * top_hits on a shard (TopHitsAggregator): per owning bucket, the best `from + size` docs by
 * the sort (the query score by default), fetched on the shard — id, `_source` filtered as
 * asked, version — so the reduce only picks among them.
 */
import type {
  AggPartial,
  SortValue,
  TopHit,
  TopHitsPartial,
  TopHitsSpec,
  TopMetric,
  TopMetricsPartial,
  TopMetricsSpec,
} from '@shoal/protocol';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { fetchDocs } from '../search/fetch-phase.ts';
import { type ValueReader, valueReader } from '../search/sort-doc-values.ts';
import { resolveSortKeys, type SortKey } from '../search/sort-keys.ts';
import { compareSortTuples, compareSortValues, floatValue } from '../search/sort-values.ts';
import type { AggCancel, AggCollector } from './collector.ts';
import { DocScores } from './doc-scores.ts';
import type { AggEnv } from './field-source.ts';

interface Cand {
  doc: number;
  sort: SortValue[];
  score: number;
}

interface OwnerHits {
  count: number;
  maxScore: number;
  /** Best first, at most `keep`. */
  cands: Cand[];
}

const decoder = new TextDecoder();
/** Where a 64-bit integer's high and low 32-bit halves sit in an Int32Array view of it. */
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
const LOW = 1 - HIGH;

export class TopHitsCollector implements AggCollector {
  private readonly keys: SortKey[];
  private readonly keep: number;
  private readonly needsScores: boolean;
  private readonly scores: DocScores;
  private readers: ValueReader[] = [];
  private base = 0;
  private readonly owners: (OwnerHits | undefined)[] = [];

  constructor(
    private readonly spec: TopHitsSpec,
    private readonly env: AggEnv,
  ) {
    this.keys = resolveSortKeys(spec.sort, env.mapping, env.ctx);
    this.keep = spec.from + spec.size;
    this.needsScores = spec.trackScores || spec.sort.some((s) => s.kind === 'score');
    this.scores = new DocScores(env.scores);
  }

  setSegment(rs: ReaderSegment): void {
    this.readers = this.keys.map((k) => valueReader(k, rs));
    this.base = rs.docBase;
    this.scores.setSegment(rs);
  }

  private compare(a: Cand, b: Cand): number {
    return compareSortTuples(a.sort, b.sort, this.spec.sort) || a.doc - b.doc;
  }

  collect(doc: number, owner: number): void {
    let o = this.owners[owner];
    if (o === undefined) {
      o = { count: 0, maxScore: Number.NaN, cands: [] };
      this.owners[owner] = o;
    }
    o.count++;
    const score = this.needsScores ? this.scores.score(doc) : Number.NaN;
    if (this.needsScores && !(score <= o.maxScore)) o.maxScore = score;
    if (this.keep === 0) return;
    const cands = o.cands;
    if (cands.length === this.keep) {
      // Most docs lose to the worst kept one on the first key: no allocation for them.
      const worst = cands[cands.length - 1]!;
      const c = compareSortValues(this.readers[0]!(doc, score), worst.sort[0] ?? null, this.spec.sort[0]!);
      if (c > 0 || (c === 0 && this.readers.length === 1)) return;
    }
    const cand: Cand = { doc: this.base + doc, sort: this.readers.map((r) => r(doc, score)), score };
    if (cands.length === this.keep && this.compare(cand, cands[cands.length - 1]!) >= 0) return;
    let i = cands.length;
    while (i > 0 && this.compare(cand, cands[i - 1]!) < 0) i--;
    cands.splice(i, 0, cand);
    if (cands.length > this.keep) cands.pop();
  }

  /**
   * Top-level docs sorted on one numeric field, without scores: a tight loop over the doc
   * values that hands collect() only the docs that beat the worst hit kept so far.
   */
  collectAll(
    rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    const key = this.keys[0]!;
    const fs = key.field;
    if (this.keys.length !== 1 || this.needsScores || fs === undefined || fs.source !== 'numeric')
      return false;
    const asc = !key.reverse;
    if (fs.mode !== (asc ? 'min' : 'max') || fs.unmapped || fs.conversion !== 'none') return false;
    const n = rs.segment.field(fs.path)?.numeric;
    if (n === undefined) return false;
    const { starts } = n;
    // Doubles as they are; longs (dates …) through their two 32-bit halves, no BigInt made per
    // doc, as doubles while they are exact ones (|high half| < 2^21); past that collect() decides.
    const doubles = n.kind === 'double' ? n.values : null;
    const halves =
      n.kind === 'long' ? new Int32Array(n.values.buffer, n.values.byteOffset, n.values.length * 2) : null;
    let o = this.owners[0];
    if (o === undefined) {
      o = { count: 0, maxScore: Number.NaN, cands: [] };
      this.owners[0] = o;
    }
    const cands = o.cands;
    const keep = this.keep;
    const worst = () => {
      const w = cands.length === keep ? cands[cands.length - 1]!.sort[0] : null;
      const x = typeof w === 'number' || typeof w === 'bigint' ? Number(w) : Number.NaN;
      return Math.abs(x) < 2 ** 53 ? x : Number.NaN;
    };
    let threshold = worst();
    let count = 0;
    const n0 = docs === null ? starts.length - 1 : docs.length;
    for (let i = 0; i < n0; i++) {
      const d = docs === null ? i : docs[i]!;
      if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
      cancel.step();
      const st = starts[d]!;
      const e = starts[d + 1]!;
      // Ties lose: docs come in ascending order. A doc without a value goes the slow way.
      if (st < e && !Number.isNaN(threshold)) {
        const j = asc ? st : e - 1;
        let v: number;
        if (doubles !== null) v = doubles[j]!;
        else {
          const hi = halves![2 * j + HIGH]!;
          v = hi >= -2097152 && hi < 2097152 ? hi * 4294967296 + (halves![2 * j + LOW]! >>> 0) : Number.NaN;
        }
        if (asc ? v >= threshold : v <= threshold) {
          count++;
          continue;
        }
      }
      o.count += count;
      count = 0;
      this.collect(d, 0);
      threshold = worst();
    }
    o.count += count;
    return true;
  }

  build(owner: number): AggPartial {
    const o = owner >= 0 ? this.owners[owner] : undefined;
    const floatingKeys = this.floatingKeys();
    if (o === undefined) return { t: 'top_hits', total: 0, maxScore: Number.NaN, hits: [], floatingKeys };
    const spec = this.spec;
    const fetched = fetchDocs(this.env.reader, {
      docs: o.cands.map((c) => c.doc),
      source: spec.source,
      version: spec.version,
      seqNoPrimaryTerm: spec.seqNoPrimaryTerm,
    });
    const hits: TopHit[] = o.cands.map((c, i) => {
      const hit: {
        -readonly [K in keyof TopHit]: TopHit[K];
      } = {
        index: this.env.ctx.index,
        id: fetched.ids[i]!,
        score: this.needsScores ? floatValue(c.score) : Number.NaN,
        sort: c.sort,
        display: c.sort.map((v, k) => this.keys[k]!.field?.display?.(v) ?? v),
        doc: c.doc,
      };
      if (spec.source.enabled) hit.source = decoder.decode(fetched.sources[i]!);
      if (spec.version) hit.version = fetched.versions[i]!;
      if (spec.seqNoPrimaryTerm) {
        hit.seqNo = fetched.seqNos[i]!;
        hit.primaryTerm = fetched.primaryTerms[i]!;
      }
      const routing = fetched.routing[i];
      if (routing !== null && routing !== undefined) hit.routing = routing;
      return hit;
    });
    const partial: TopHitsPartial = {
      t: 'top_hits',
      total: o.count,
      maxScore: this.needsScores ? floatValue(o.maxScore) : Number.NaN,
      hits,
      floatingKeys,
    };
    return partial;
  }

  /** The sort keys whose values print as Java floats or doubles. */
  private floatingKeys(): number {
    let mask = 0;
    this.keys.forEach((k, i) => {
      if (
        i < 31 &&
        (k.spec.kind === 'score' || (k.field?.kind === 'double' && k.field.display === undefined))
      ) {
        mask |= 1 << i;
      }
    });
    return mask;
  }
}

/**
 * top_metrics on a shard (TopMetricsAggregator): per owning bucket, the `size` best docs by
 * the one sort, with the values of the metric fields read from their doc values.
 */
export class TopMetricsCollector implements AggCollector {
  private readonly keys: SortKey[];
  private readonly metricKeys: SortKey[];
  private readers: ValueReader[] = [];
  private metricReaders: ValueReader[] = [];
  private metricStarts: (Uint32Array | null)[] = [];
  private readonly scores: DocScores;
  private readonly needsScores: boolean;
  private base = 0;
  private readonly owners: (TopMetric[] | undefined)[] = [];

  constructor(
    private readonly spec: TopMetricsSpec,
    private readonly env: AggEnv,
  ) {
    this.keys = resolveSortKeys(spec.sort, env.mapping, env.ctx);
    this.metricKeys = resolveSortKeys(
      spec.metrics.map((field) => ({
        kind: 'field',
        field,
        order: 'asc',
        missing: '_last',
        unmappedType: 'double',
      })),
      env.mapping,
      env.ctx,
    );
    this.needsScores = spec.sort.some((s) => s.kind === 'score');
    this.scores = new DocScores(env.scores);
  }

  setSegment(rs: ReaderSegment): void {
    this.readers = this.keys.map((k) => valueReader(k, rs));
    this.metricReaders = this.metricKeys.map((k) => valueReader(k, rs));
    this.metricStarts = this.spec.metrics.map((f) => {
      const sf = rs.segment.field(f);
      return sf?.numeric?.starts ?? sf?.sortedSet?.starts ?? null;
    });
    this.base = rs.docBase;
    this.scores.setSegment(rs);
  }

  collect(doc: number, owner: number): void {
    let top = this.owners[owner];
    if (top === undefined) {
      top = [];
      this.owners[owner] = top;
    }
    const score = this.needsScores ? this.scores.score(doc) : Number.NaN;
    const sort = this.readers.map((r) => r(doc, score));
    const cand = { sort, doc: this.base + doc };
    const cmp = (a: { sort: SortValue[]; doc: number }, b: { sort: readonly SortValue[]; doc: number }) =>
      compareSortTuples(a.sort, b.sort, this.spec.sort) || a.doc - b.doc;
    if (top.length === this.spec.size && cmp(cand, top[top.length - 1]!) >= 0) return;
    const metrics = this.metricReaders.map((r, i) => {
      const st = this.metricStarts[i];
      return st && st[doc]! < st[doc + 1]! ? r(doc, score) : null;
    });
    const m: TopMetric = {
      sort,
      display: sort.map((v, k) => this.keys[k]!.field?.display?.(v) ?? v),
      index: this.env.ctx.index,
      doc: cand.doc,
      metrics: metrics.map((v, i) => (v === null ? null : (this.metricKeys[i]!.field?.display?.(v) ?? v))),
    };
    let i = top.length;
    while (i > 0 && cmp(cand, top[i - 1]!) < 0) i--;
    top.splice(i, 0, m);
    if (top.length > this.spec.size) top.pop();
  }

  build(owner: number): AggPartial {
    const top = (owner >= 0 ? this.owners[owner] : undefined) ?? [];
    let floatingKeys = 0;
    this.keys.forEach((k, i) => {
      if (k.spec.kind === 'score' || (k.field?.kind === 'double' && k.field.display === undefined))
        floatingKeys |= 1 << i;
    });
    let floatingMetrics = 0;
    this.metricKeys.forEach((k, i) => {
      if (i < 31 && k.field?.kind === 'double') floatingMetrics |= 1 << i;
    });
    const partial: TopMetricsPartial = { t: 'top_metrics', top, floatingKeys, floatingMetrics };
    return partial;
  }
}
