/**
 * ip_range (BinaryRangeAggregator) and ip_prefix (IpPrefixAggregator) on one shard. An ip
 * field's values are segment ordinals into its sorted terms; each term's hex key (ordering like
 * the address) is computed once per segment, and with it the ranges the term falls in or the
 * network it belongs to. A doc counts once per range and once per network, however many of its
 * values fall there.
 */
import type {
  AggPartial,
  IpPrefixBucket,
  IpPrefixSpec,
  IpRangeBucket,
  IpRangeEntry,
  IpRangeSpec,
} from '@shoal/protocol';
import { illegalArgument } from '@shoal/protocol';
import type { SortedSetValues } from '../index/segment.ts';
import type { ReaderSegment } from '../index/shard-reader.ts';
import { ipSortKey, parseCidr } from '../search/ip.ts';
import { type AggCollector, BucketDoubles, BucketOrds, NO_OWNER } from './collector.ts';
import { docCountsOf } from './doc-counts.ts';
import { type AggEnv, type FieldSource, ipKeyFor, ipKeys, ordsView, resolveSource } from './field-source.ts';

const IP_KIND: ReadonlySet<FieldSource['kind']> = new Set(['ip']);
const MAX_ADDRESS = (1n << 128n) - 1n;

interface HexRange {
  readonly key?: string;
  readonly from?: string;
  readonly to?: string;
}

/** IpRangeAggregationBuilder.Range: a mask becomes [network, next network), open at the ends of the address space. */
export function resolveIpRange(r: IpRangeEntry): HexRange {
  const out: { key?: string; from?: string; to?: string } = {};
  if (r.key !== undefined) out.key = r.key;
  if (r.mask !== undefined) {
    const cidr = parseCidr(r.mask);
    if (cidr === undefined) throw illegalArgument(`Expected [ip/prefix] but was [${r.mask}]`);
    const [lo, hi] = cidr;
    if (lo !== 0n) out.from = ipSortKey(lo);
    if (hi !== MAX_ADDRESS) out.to = ipSortKey(hi + 1n);
    return out;
  }
  if (r.from !== undefined) out.from = ipKeyFor(r.from);
  if (r.to !== undefined) out.to = ipKeyFor(r.to);
  return out;
}

/** BinaryRangeAggregator.RANGE_COMPARATOR: by `from` (open first), then `to` (open last). */
function compareRanges(a: HexRange, b: HexRange): number {
  const bound = (x: string | undefined, y: string | undefined, open: number) =>
    x === undefined ? (y === undefined ? 0 : open) : y === undefined ? -open : x < y ? -1 : x > y ? 1 : 0;
  return bound(a.from, b.from, -1) || bound(a.to, b.to, 1);
}

export class IpRangeCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly ranges: HexRange[];
  private readonly counts = new BucketDoubles();
  private readonly missingRanges: readonly number[] | null;
  private ss: SortedSetValues | null = null;
  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;
  /** Per term ordinal of the segment, the ranges it falls in. */
  private termRanges: (readonly number[])[] = [];
  private readonly lastCall: Int32Array;
  private call = 0;

  constructor(
    spec: IpRangeSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    this.src = resolveSource(spec.source, 'ip_range', IP_KIND, env);
    this.ranges = spec.ranges.map(resolveIpRange).sort(compareRanges);
    this.lastCall = new Int32Array(this.ranges.length);
    const m = spec.source.missing;
    this.missingRanges = m === undefined || m === null ? null : this.rangesOf(ipKeyFor(m));
  }

  private rangesOf(hex: string): number[] {
    const out: number[] = [];
    this.ranges.forEach((r, i) => {
      if ((r.from === undefined || hex >= r.from) && (r.to === undefined || hex < r.to)) out.push(i);
    });
    return out;
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    this.docCounts = docCountsOf(rs);
    this.ss = this.src.kind === 'ip' ? ordsView(this.src, rs) : null;
    this.termRanges = this.ss ? ipKeys(this.src, rs, this.ss.terms).map((k) => this.rangesOf(k)) : [];
  }

  collect(doc: number, owner: number): void {
    if (++this.call === 0x7fffffff) {
      this.call = 1;
      this.lastCall.fill(0);
    }
    const ss = this.ss;
    const s = ss ? ss.starts[doc]! : 0;
    const e = ss ? ss.starts[doc + 1]! : 0;
    if (s === e) {
      if (this.missingRanges) for (const r of this.missingRanges) this.collectRange(doc, owner, r);
      return;
    }
    for (let i = s; i < e; i++) {
      for (const r of this.termRanges[ss!.ords[i]!]!) this.collectRange(doc, owner, r);
    }
  }

  private collectRange(doc: number, owner: number, r: number): void {
    if (this.lastCall[r] === this.call) return;
    this.lastCall[r] = this.call;
    const bucket = owner * this.ranges.length + r;
    this.counts.add(bucket, this.docCounts === null ? 1 : this.docCounts[doc]!);
    for (const s of this.subs) s.collect(doc, bucket);
  }

  build(owner: number): AggPartial {
    const n = this.ranges.length;
    const buckets = this.ranges.map((r, i): IpRangeBucket => {
      const bucket = owner < 0 ? NO_OWNER : owner * n + i;
      return { ...r, docCount: this.counts.get(bucket), aggs: this.subs.map((s) => s.build(bucket)) };
    });
    return { t: 'ip_range', buckets };
  }
}

const LOW_32 = 0xffffffffn;

/** The network key of an address: its first `bits` bits, of the IPv6 form or of the IPv4 part. */
export function ipPrefixKey(address: bigint, bits: number, isIpv6: boolean): string {
  if (isIpv6) {
    const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(128 - bits);
    return ipSortKey(address & mask);
  }
  const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(32 - bits);
  return ipSortKey(0xffff00000000n | (address & LOW_32 & mask));
}

export class IpPrefixCollector implements AggCollector {
  private readonly src: FieldSource;
  private readonly ords = new BucketOrds<string>();
  private readonly counts = new BucketDoubles();
  private readonly missingKey: string | null;
  private ss: SortedSetValues | null = null;
  /** The segment's `_doc_count` weights, null when it has none. */
  private docCounts: Float64Array | null = null;
  private termKeys: readonly string[] = [];

  constructor(
    private readonly spec: IpPrefixSpec,
    env: AggEnv,
    private readonly subs: readonly AggCollector[],
  ) {
    this.src = resolveSource(spec.source, 'ip_prefix', IP_KIND, env);
    const m = spec.source.missing;
    this.missingKey = m === undefined || m === null ? null : this.keyOf(ipKeyFor(m));
  }

  private keyOf(hex: string): string {
    return ipPrefixKey(BigInt(`0x${hex}`), this.spec.prefixLength, this.spec.isIpv6);
  }

  setSegment(rs: ReaderSegment): void {
    for (const s of this.subs) s.setSegment(rs);
    this.docCounts = docCountsOf(rs);
    this.ss = this.src.kind === 'ip' ? ordsView(this.src, rs) : null;
    this.termKeys = this.ss ? ipKeys(this.src, rs, this.ss.terms).map((k) => this.keyOf(k)) : [];
  }

  collect(doc: number, owner: number): void {
    const ss = this.ss;
    const s = ss ? ss.starts[doc]! : 0;
    const e = ss ? ss.starts[doc + 1]! : 0;
    if (s === e) {
      if (this.missingKey !== null) this.collectKey(doc, owner, this.missingKey);
      return;
    }
    if (e - s === 1) {
      this.collectKey(doc, owner, this.termKeys[ss!.ords[s]!]!);
      return;
    }
    const seen = new Set<string>();
    for (let i = s; i < e; i++) {
      const key = this.termKeys[ss!.ords[i]!]!;
      if (seen.has(key)) continue;
      seen.add(key);
      this.collectKey(doc, owner, key);
    }
  }

  private collectKey(doc: number, owner: number, key: string): void {
    const bucket = this.ords.ord(owner, key);
    this.counts.add(bucket, this.docCounts === null ? 1 : this.docCounts[doc]!);
    for (const s of this.subs) s.collect(doc, bucket);
  }

  build(owner: number): AggPartial {
    const buckets: IpPrefixBucket[] = this.ords
      .ordsOf(owner)
      .map((o) => ({
        key: this.ords.key(o),
        docCount: this.counts.get(o),
        aggs: this.subs.map((s) => s.build(o)),
      }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { t: 'ip_prefix', buckets };
  }
}
