/**
 * terms on one shard (GlobalOrdinalsStringTermsAggregator, NumericTermsAggregator): a bucket per
 * distinct value of each owning bucket, the shard's top `shard_size` by the requested order
 * returned, with what the coordinator needs for `sum_other_doc_count` and
 * `doc_count_error_upper_bound`. Keyword and ip values are read as segment ordinals, mapped to
 * buckets through a per-segment table at the top level; numbers, dates and booleans as values.
 */

import {
  type AggPartial,
  bucketComparator,
  checkOrderPaths,
  illegalArgument,
  isCountDesc,
  isKeyOrder,
  type JsonScalar,
  type TermsBucket,
  type TermsKind,
  type TermsSpec,
} from '@shoal/protocol';
import type { NumericValues, SortedSetValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { FLOATING_TYPES } from '../mapping/params.ts';
import { type CompiledRegExp, compileRegExp } from '../search/regexp-automaton.ts';
import {
  type AggCancel,
  type AggCollector,
  BucketDoubles,
  BucketOrds,
  collectsDocs,
  NO_OWNER,
} from './collector.ts';
import { docCountsOf } from './doc-counts.ts';
import {
  type AggEnv,
  type DoubleView,
  doubleView,
  exactLong,
  type FieldSource,
  ipKeyFor,
  ipKeys,
  longValues,
  normalizeLong,
  numberFor,
  resolveSource,
  TERMS_KINDS,
} from './field-source.ts';
import { ScriptValues, scriptDouble, scriptString } from './script-values.ts';

type Key = string | number | bigint;

export function termsKind(src: FieldSource): TermsKind {
  switch (src.kind) {
    case 'keyword':
      return 'string';
    case 'ip':
      return 'ip';
    case 'date':
      return 'date';
    case 'bool':
      return 'bool';
    case 'number':
      return FLOATING_TYPES.has(src.type ?? '') ? 'double' : 'long';
    default:
      // An unmapped field: a `value_type` hint decides what its `missing` value is.
      switch (src.spec.valueType) {
        case 'long':
          return 'long';
        case 'double':
          return 'double';
        case 'date':
          return 'date';
        case 'boolean':
          return 'bool';
        case 'ip':
          return 'ip';
        default:
          return 'string';
      }
  }
}

/**
 * A regular-expression include/exclude (TermsAggregatorFactory): numbers, dates and booleans
 * refuse it, and so do ips (bytes with a format other than raw); string terms are matched whole
 * against the Lucene expression (IncludeExclude's RegExp with every syntax flag).
 * An unmapped field without `missing` has no values to filter.
 */
function checkRegex(spec: TermsSpec, src: FieldSource, kind: TermsKind): void {
  if (src.kind === 'unmapped' && src.constant === undefined && spec.source.missing == null) return;
  const prefix =
    `Aggregation [${spec.name}] cannot support regular expression style include/exclude settings as they ` +
    'can only be applied to string fields. ';
  if (kind === 'ip') throw illegalArgument(`${prefix}Use an array of values for include/exclude clauses`);
  if (kind !== 'string') {
    throw illegalArgument(
      `${prefix}Use an array of numeric values for include/exclude clauses used to filter numeric fields`,
    );
  }
}

/** RegExp.ALL: every optional syntax Lucene has. */
const LUCENE_ALL_FLAGS = 0xff;

function compiledOrNull(pattern: string | undefined): CompiledRegExp | null {
  return pattern === undefined ? null : compileRegExp(pattern, LUCENE_ALL_FLAGS, false);
}

export class TermsCollector implements AggCollector {
  private readonly src: FieldSource;
  readonly kind: TermsKind;
  private readonly buckets = new BucketOrds<Key>();
  private readonly counts = new BucketDoubles();
  private readonly include: ReadonlySet<Key> | null;
  private readonly exclude: ReadonlySet<Key> | null;
  private readonly includeRegex: CompiledRegExp | null;
  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;
  private readonly excludeRegex: CompiledRegExp | null;
  private readonly missingKey: Key | undefined;
  // The segment being collected.
  private ords: SortedSetValues | null = null;
  private segKeys: readonly string[] = [];
  private allowed: Uint8Array | null = null;
  private topBuckets: Int32Array | null = null;
  private longs: Extract<NumericValues, { kind: 'long' }> | null = null;
  private doubles: DoubleView | null = null;
  private readonly script: ScriptValues | null;

  constructor(
    private readonly spec: TermsSpec,
    private readonly env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    checkOrderPaths(spec.order, spec.aggs);
    this.src = resolveSource(spec.source, 'terms', TERMS_KINDS, env);
    this.kind = termsKind(this.src);
    this.script = spec.source.script ? new ScriptValues(spec.source.script, spec.source.field, env) : null;
    if (spec.regex) checkRegex(spec, this.src, this.kind);
    this.includeRegex = compiledOrNull(spec.regex?.include);
    this.excludeRegex = compiledOrNull(spec.regex?.exclude);
    this.include = spec.include ? new Set(spec.include.map((v) => this.keyOf(v))) : null;
    this.exclude = spec.exclude ? new Set(spec.exclude.map((v) => this.keyOf(v))) : null;
    const m = this.src.constant ?? spec.source.missing;
    this.missingKey = m === undefined || m === null ? undefined : this.keyOf(m);
  }

  /** A request value (include, exclude, missing) as a key of this aggregation's kind. */
  private keyOf(v: JsonScalar): Key {
    switch (this.kind) {
      case 'string':
        return String(v);
      case 'ip':
        return ipKeyFor(v);
      case 'long':
        return exactLong(v);
      default:
        return numberFor(this.src, v, this.env);
    }
  }

  /** A script value as a key: a string for string terms (a script alone gives those), else a number. */
  private scriptKey(v: unknown): Key {
    if (this.kind === 'string') return scriptString(v);
    const d = scriptDouble(v);
    return this.kind === 'long' ? normalizeLong(BigInt(Math.trunc(d))) : d;
  }

  private accepts(key: Key): boolean {
    return (
      (this.include === null || this.include.has(key)) &&
      (this.exclude === null || !this.exclude.has(key)) &&
      (this.includeRegex === null || this.includeRegex.matches(String(key))) &&
      (this.excludeRegex === null || !this.excludeRegex.matches(String(key)))
    );
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    this.ords = null;
    this.longs = null;
    this.doubles = null;
    this.allowed = null;
    this.topBuckets = null;
    this.docCounts = docCountsOf(rs);
    const src = this.src;
    if (this.script !== null) {
      this.script.setSegment(rs);
      return;
    }
    if (src.kind === 'unmapped') return;
    if (src.kind === 'keyword' || src.kind === 'ip') {
      const ss = rs.segment.field(src.path)?.sortedSet ?? null;
      if (ss === null) return;
      this.ords = ss;
      this.segKeys = src.kind === 'ip' ? ipKeys(src, rs, ss.terms) : ss.terms;
      if (
        this.include !== null ||
        this.exclude !== null ||
        this.includeRegex !== null ||
        this.excludeRegex !== null
      ) {
        const allowed = new Uint8Array(ss.terms.length);
        for (let o = 0; o < allowed.length; o++) allowed[o] = this.accepts(this.segKeys[o]!) ? 1 : 0;
        this.allowed = allowed;
      }
      this.topBuckets = new Int32Array(ss.terms.length).fill(-1);
      return;
    }
    if (this.kind === 'long') this.longs = longValues(src, rs);
    if (this.longs === null) this.doubles = doubleView(src, rs);
  }

  collect(doc: number, owner: number): void {
    let found = false;
    const ss = this.ords;
    if (this.script !== null) {
      const n = this.script.fill(doc);
      const buf = this.script.buf;
      found = n > 0;
      if (n === 1) {
        const key = this.scriptKey(buf[0]);
        if (this.accepts(key)) this.collectBucket(doc, this.buckets.ord(owner, key));
      } else if (n > 1) {
        const keys = new Set<Key>();
        for (let i = 0; i < n; i++) keys.add(this.scriptKey(buf[i]));
        for (const key of keys) if (this.accepts(key)) this.collectBucket(doc, this.buckets.ord(owner, key));
      }
    } else if (ss !== null) {
      const s = ss.starts[doc]!;
      const e = ss.starts[doc + 1]!;
      found = s < e;
      for (let i = s; i < e; i++) {
        const ord = ss.ords[i]!;
        if (this.allowed !== null && this.allowed[ord] === 0) continue;
        this.collectBucket(doc, this.ordBucket(owner, ord));
      }
    } else if (this.longs !== null) {
      const n = this.longs;
      const s = n.starts[doc]!;
      const e = n.starts[doc + 1]!;
      found = s < e;
      for (let i = s; i < e; i++) {
        const raw = n.values[i]!;
        if (i > s && raw === n.values[i - 1]) continue;
        const key = normalizeLong(raw);
        if (this.accepts(key)) this.collectBucket(doc, this.buckets.ord(owner, key));
      }
    } else if (this.doubles !== null) {
      const n = this.doubles;
      const s = n.starts[doc]!;
      const e = n.starts[doc + 1]!;
      found = s < e;
      for (let i = s; i < e; i++) {
        const key = n.values[i]!;
        if (i > s && key === n.values[i - 1]) continue;
        if (this.accepts(key)) this.collectBucket(doc, this.buckets.ord(owner, key));
      }
    }
    if (!found && this.missingKey !== undefined && this.accepts(this.missingKey)) {
      this.collectBucket(doc, this.buckets.ord(owner, this.missingKey));
    }
  }

  /**
   * Keyword and ip terms without sub-aggregations: the segment's docs counted per ordinal in one
   * loop, then each ordinal with docs turned into its bucket once.
   */
  collectAll(
    _rs: ReaderSegment,
    docs: Int32Array | null,
    excluded: Uint32Array | null,
    cancel: AggCancel,
  ): boolean {
    const ss = this.ords;
    // A script's values are computed per doc (collect).
    // Pre-aggregated docs (`_doc_count`) count per doc too.
    if (ss === null || collectsDocs(this.subs) || this.script !== null || this.docCounts !== null)
      return false;
    // Every doc of the segment: its counts per ordinal, computed once per segment and field.
    const all = docs === null && excluded === null;
    const counted = all
      ? _rs.segment.cached(`agg:ordcounts:${this.src.path}`, () => ordCounts(ss, null, null, cancel))
      : ordCounts(ss, docs, excluded, cancel);
    const { perOrd, without } = counted;
    for (let ord = 0; ord < perOrd.length; ord++) {
      const c = perOrd[ord]!;
      if (c === 0 || (this.allowed !== null && this.allowed[ord] === 0)) continue;
      this.counts.add(this.ordBucket(0, ord), c);
    }
    if (without > 0 && this.missingKey !== undefined && this.accepts(this.missingKey))
      this.counts.add(this.buckets.ord(0, this.missingKey), without);
    return true;
  }

  /** The bucket of a segment ordinal; at the top level through the segment's table. */
  private ordBucket(owner: number, ord: number): number {
    const top = this.topBuckets;
    if (owner === 0 && top !== null) {
      let b = top[ord]!;
      if (b < 0) {
        b = this.buckets.ord(0, this.segKeys[ord]!);
        top[ord] = b;
      }
      return b;
    }
    return this.buckets.ord(owner, this.segKeys[ord]!);
  }

  private collectBucket(doc: number, bucket: number): void {
    this.counts.add(bucket, this.docCounts === null ? 1 : this.docCounts[doc]!);
    for (const s of this.subs) s.collect(doc, bucket);
  }

  build(owner: number): AggPartial {
    const spec = this.spec;
    if (spec.minDocCount === 0 && owner !== NO_OWNER) this.addEmptyTerms(owner);
    const candidates = this.buckets.ordsOf(owner).filter((b) => this.counts.get(b) >= spec.shardMinDocCount);
    const byPath = spec.order.some((o) => o.kind === 'path');
    const entries = candidates.map((b) => ({
      ord: b,
      key: this.buckets.key(b),
      docCount: this.counts.get(b),
      aggs: byPath ? this.subs.map((s) => s.build(b)) : [],
    }));
    entries.sort(bucketComparator(spec.order, spec.aggs));
    const top = entries.slice(0, spec.shardSize);
    let otherDocCount = 0;
    for (let i = top.length; i < entries.length; i++) otherDocCount += entries[i]!.docCount;
    let docCountError = 0;
    if (top.length >= spec.shardSize && !isKeyOrder(spec.order)) {
      docCountError = isCountDesc(spec.order) ? top[top.length - 1]!.docCount : -1;
    }
    const presentError = Math.max(0, docCountError);
    const buckets: TermsBucket[] = top.map((x) => ({
      key: x.key,
      docCount: x.docCount,
      presentError,
      aggs: byPath ? x.aggs : this.subs.map((s) => s.build(x.ord)),
    }));
    const out: AggPartial = {
      t: 'terms',
      kind: this.kind,
      buckets,
      otherDocCount,
      docCountError,
      fmt: this.src.fmt,
    };
    return this.src.kind === 'unmapped' && this.src.constant === undefined && this.script === null
      ? { ...out, unmapped: true }
      : out;
  }

  /** min_doc_count 0: every value of the field on the shard gets a bucket, empty or not. */
  private addEmptyTerms(owner: number): void {
    const src = this.src;
    if (this.script !== null) return;
    if (src.kind === 'unmapped') return;
    for (const rs of this.env.reader.segments) {
      const sf = rs.segment.field(src.path);
      if (!sf) continue;
      if (src.kind === 'keyword' || src.kind === 'ip') {
        if (!sf.sortedSet) continue;
        const keys = src.kind === 'ip' ? ipKeys(src, rs, sf.sortedSet.terms) : sf.sortedSet.terms;
        for (const k of keys) if (this.accepts(k) && !this.buckets.has(owner, k)) this.buckets.ord(owner, k);
        continue;
      }
      const live = rs.liveDocs;
      const longs = this.kind === 'long' ? longValues(src, rs) : null;
      const view = longs ?? doubleView(src, rs);
      if (!view) continue;
      for (let d = 0; d < rs.segment.maxDoc; d++) {
        if (!live.isLive(d)) continue;
        for (let i = view.starts[d]!; i < view.starts[d + 1]!; i++) {
          const v = view.values[i]!;
          const k = typeof v === 'bigint' ? normalizeLong(v) : v;
          if (this.accepts(k) && !this.buckets.has(owner, k)) this.buckets.ord(owner, k);
        }
      }
    }
  }
}

/** Per ordinal, how many of the docs hold it; and how many docs hold none. */
function ordCounts(
  ss: SortedSetValues,
  docs: Int32Array | null,
  excluded: Uint32Array | null,
  cancel: AggCancel,
): { perOrd: Int32Array; without: number } {
  const perOrd = new Int32Array(ss.terms.length);
  const { starts, ords } = ss;
  let without = 0;
  const n = docs === null ? starts.length - 1 : docs.length;
  for (let i = 0; i < n; i++) {
    const d = docs === null ? i : docs[i]!;
    if (excluded !== null && (excluded[d >>> 5]! & (1 << (d & 31))) !== 0) continue;
    cancel.step();
    const s = starts[d]!;
    const e = starts[d + 1]!;
    if (s === e) without++;
    for (let j = s; j < e; j++) perOrd[ords[j]!]!++;
  }
  return { perOrd, without };
}
