/**
 * significant_text on one shard (SignificantTextAggregatorFactory): each doc's `_source` text at
 * the field (or its `source_fields`) is analysed again with the field's index analyzer; every
 * distinct token of a doc counts once in the owning bucket, and the doc's sub-aggregations
 * collect under that (owner, token) bucket. The background is the field's inverted index: a
 * token's doc frequency over the shard (deleted docs included, as Lucene's docFreq counts them)
 * among all live docs, or — with `background_filter` — the docs holding the token that the filter
 * matches. Keyword fields take their values as they are.
 */
import {
  type AggPartial,
  illegalArgument,
  type SignificantTermsPartial,
  type SignificantTextSpec,
  topSignificant,
} from '@shoal/protocol';
import { getAnalyzer } from '../analysis/index.ts';
import { sourceValues } from '../highlight/hit-highlighter.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { findTerm } from '../index/term-order.ts';
import { type CompiledRegExp, compileRegExp } from '../search/regexp-automaton.ts';
import { docFreq } from '../search/term-stats.ts';
import type { Weight } from '../search/weights.ts';
import { type AggCollector, BucketDoubles, BucketOrds } from './collector.ts';
import type { AggEnv } from './field-source.ts';
import { compileFilter, isSet, matchBits } from './single-bucket-collectors.ts';

const TEXT_TYPES: ReadonlySet<string> = new Set(['text', 'match_only_text', 'keyword']);
const decoder = new TextDecoder();
/** RegExp.ALL: every optional syntax Lucene has. */
const LUCENE_ALL_FLAGS = 0xff;

export class SignificantTextCollector implements AggCollector {
  private readonly path: string;
  private readonly sourcePaths: readonly string[];
  private readonly tokens: (text: string) => string[];
  private readonly ords = new BucketOrds<string>();
  private readonly counts = new BucketDoubles();
  private readonly subsetSizes = new BucketDoubles();
  private readonly include: ReadonlySet<string> | null;
  private readonly exclude: ReadonlySet<string> | null;
  private readonly background: Weight | null;
  private backgroundBits: Map<number, Uint32Array> | null = null;
  private segment: ReaderSegment | null = null;
  private readonly unmapped: boolean;
  private readonly includeRegex: CompiledRegExp | null;
  private readonly excludeRegex: CompiledRegExp | null;
  private superset: number | null = null;

  constructor(
    private readonly spec: SignificantTextSpec,
    private readonly env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    const field = env.mapping.field(spec.field);
    if (field && !TEXT_TYPES.has(field.type)) {
      throw illegalArgument(
        `Field [${spec.field}] of type [${field.type}] is not supported for aggregation [significant_text]`,
      );
    }
    // IncludeExclude: a string include/exclude is a Lucene regular expression over whole terms.
    const regex = (pattern: string | undefined) =>
      pattern === undefined ? null : compileRegExp(pattern, LUCENE_ALL_FLAGS, false);
    this.includeRegex = regex(spec.regex?.include);
    this.excludeRegex = regex(spec.regex?.exclude);
    this.path = field?.path ?? spec.field;
    this.sourcePaths = spec.sourceFields ?? [spec.field];
    if (field === undefined || field.type === 'keyword') this.tokens = (t) => [t];
    else {
      const analyzer = getAnalyzer(field.analyzer ?? 'default');
      if (!analyzer)
        throw illegalArgument(`analyzer [${field.analyzer}] has not been configured in mappings`);
      this.tokens = (t) => analyzer.analyze(t).map((tok) => tok.term);
    }
    this.include = spec.include ? new Set(spec.include.map(String)) : null;
    this.exclude = spec.exclude ? new Set(spec.exclude.map(String)) : null;
    this.background = spec.backgroundFilter ? compileFilter(spec.backgroundFilter, env) : null;
    this.unmapped = field === undefined;
  }

  setSegment(rs: ReaderSegment): void {
    this.segment = rs;
    for (const s of this.subs) s.setSegment(rs);
  }

  collect(doc: number, owner: number): void {
    this.subsetSizes.add(owner, 1);
    if (this.unmapped) return;
    const source: unknown = JSON.parse(decoder.decode(this.segment!.segment.source(doc)));
    const seen = new Set<string>();
    for (const p of this.sourcePaths) {
      for (const text of sourceValues(source, p)) {
        for (const token of this.tokens(text)) {
          if (seen.has(token)) continue;
          seen.add(token);
          if (this.include && !this.include.has(token)) continue;
          if (this.exclude?.has(token)) continue;
          if (this.includeRegex !== null && !this.includeRegex.matches(token)) continue;
          if (this.excludeRegex?.matches(token)) continue;
          const bucket = this.ords.ord(owner, token);
          this.counts.add(bucket, 1);
          for (const s of this.subs) s.collect(doc, bucket);
        }
      }
    }
  }

  /** The background's size: the shard's live docs, or those the filter matches. */
  private supersetSize(): number {
    let n = 0;
    for (const rs of this.env.reader.segments) {
      const deleted = rs.liveDocs.deletedBits;
      const bits = this.filterBits(rs);
      for (let d = 0; d < rs.segment.maxDoc; d++) {
        if (deleted !== null && isSet(deleted, d)) continue;
        if (bits === null || isSet(bits, d)) n++;
      }
    }
    return n;
  }

  private filterBits(rs: ReaderSegment): Uint32Array | null {
    if (this.background === null) return null;
    this.backgroundBits ??= new Map();
    let bits = this.backgroundBits.get(rs.ord);
    if (bits === undefined) {
      bits = matchBits(this.background, rs);
      this.backgroundBits.set(rs.ord, bits);
    }
    return bits;
  }

  /** A token's background frequency. */
  private bgCount(token: string): number {
    if (this.background === null) return docFreq(this.env.reader, this.path, token);
    let n = 0;
    for (const rs of this.env.reader.segments) {
      const p = rs.segment.field(this.path)?.postings;
      if (!p) continue;
      const t = findTerm(p.terms, token);
      if (t < 0) continue;
      const bits = this.filterBits(rs)!;
      const deleted = rs.liveDocs.deletedBits;
      for (let i = p.starts[t]!; i < p.starts[t + 1]!; i++) {
        const d = p.docs[i]!;
        if (isSet(bits, d) && (deleted === null || !isSet(deleted, d))) n++;
      }
    }
    return n;
  }

  build(owner: number): AggPartial {
    this.superset ??= this.supersetSize();
    const partial: SignificantTermsPartial = {
      t: 'significant_terms',
      kind: 'string',
      fmt: { kind: 'raw' },
      subsetSize: this.subsetSizes.get(owner),
      supersetSize: this.superset,
      buckets: this.ords.ordsOf(owner).map((o) => {
        const key = this.ords.key(o);
        return {
          key,
          docCount: this.counts.get(o),
          bgCount: this.bgCount(key),
          aggs: this.subs.map((s) => s.build(o)),
        };
      }),
    };
    const top = topSignificant(this.spec, partial, this.spec.shardMinDocCount, this.spec.shardSize, true);
    const out: SignificantTermsPartial = { ...partial, buckets: top.map((t) => t.bucket) };
    return this.unmapped ? { ...out, unmapped: true } : out;
  }
}
