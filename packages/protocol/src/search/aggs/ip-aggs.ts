/**
 * ip_range and ip_prefix across shards and in the response (InternalBinaryRange,
 * InternalIpPrefix): ranges merge by position (every shard resolves the same ranges in the same
 * order), prefixes by network key. ip_range keys are the request's, or `from-to` with `*` for an
 * open bound; ip_prefix buckets carry `netmask` (IPv4 only), `is_ipv6` and `prefix_length`.
 */
import { formatIp } from '../../values/ip-text.ts';
import type { AggPartial } from './partial.ts';
import type {
  IpPrefixBucket,
  IpPrefixPartial,
  IpRangeBucket,
  IpRangePartial,
} from './partial-more-buckets.ts';
import type { Renderer } from './render.ts';
import type { AggSpec, IpPrefixSpec, IpRangeSpec } from './spec.ts';
import { compareText, ipText } from './value-text.ts';

type Merge = (subs: readonly AggSpec[], parts: readonly (readonly AggPartial[])[]) => AggPartial[];

export function mergeIpRanges(
  spec: IpRangeSpec,
  parts: readonly IpRangePartial[],
  merge: Merge,
): IpRangePartial {
  const first = parts.find((p) => p.buckets.length > 0) ?? parts[0]!;
  const buckets = first.buckets.map(
    (b, i): IpRangeBucket => ({
      ...b,
      docCount: parts.reduce((n, p) => n + (p.buckets[i]?.docCount ?? 0), 0),
      aggs: merge(
        spec.aggs,
        parts.filter((p) => p.buckets[i] !== undefined).map((p) => p.buckets[i]!.aggs),
      ),
    }),
  );
  return { t: 'ip_range', buckets };
}

export function renderIpRange(
  r: Renderer,
  spec: IpRangeSpec,
  p: IpRangePartial,
  out: Record<string, unknown>,
): void {
  r.consumeBuckets(p.buckets.length);
  const rendered = p.buckets.map((b) => {
    const from = b.from === undefined ? undefined : ipText(b.from);
    const to = b.to === undefined ? undefined : ipText(b.to);
    const key = b.key ?? `${from ?? '*'}-${to ?? '*'}`;
    const o: Record<string, unknown> = {};
    if (!spec.keyed) o.key = key;
    if (from !== undefined) o.from = from;
    if (to !== undefined) o.to = to;
    o.doc_count = b.docCount;
    r.renderAll(spec.aggs, b.aggs, o);
    return { key, o };
  });
  if (spec.keyed) {
    const keyed: Record<string, unknown> = {};
    for (const { key, o } of rendered) keyed[key] = o;
    out.buckets = keyed;
  } else {
    out.buckets = rendered.map((x) => x.o);
  }
}

export function mergeIpPrefixes(
  spec: IpPrefixSpec,
  parts: readonly IpPrefixPartial[],
  merge: Merge,
): IpPrefixPartial {
  const byKey = new Map<string, { docCount: number; aggs: (readonly AggPartial[])[] }>();
  for (const p of parts) {
    for (const b of p.buckets) {
      const acc = byKey.get(b.key);
      if (acc) {
        acc.docCount += b.docCount;
        acc.aggs.push(b.aggs);
      } else byKey.set(b.key, { docCount: b.docCount, aggs: [b.aggs] });
    }
  }
  const buckets: IpPrefixBucket[] = [];
  for (const [key, acc] of byKey)
    buckets.push({ key, docCount: acc.docCount, aggs: merge(spec.aggs, acc.aggs) });
  buckets.sort((a, b) => compareText(a.key, b.key));
  return { t: 'ip_prefix', buckets };
}

/** An IPv4 netmask of `bits` leading ones (IpPrefixAggregationBuilder.extractNetmask). */
export function ipv4Netmask(bits: number): string {
  const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(32 - bits);
  return formatIp(0xffff00000000n | mask);
}

export function renderIpPrefix(
  r: Renderer,
  spec: IpPrefixSpec,
  p: IpPrefixPartial,
  out: Record<string, unknown>,
): void {
  const buckets = p.buckets.filter((b) => b.docCount >= spec.minDocCount);
  r.consumeBuckets(buckets.length);
  const netmask = spec.isIpv6 ? undefined : ipv4Netmask(spec.prefixLength);
  const rendered = buckets.map((b) => {
    let key = ipText(b.key);
    if (spec.appendPrefixLength) key = `${key}/${spec.prefixLength}`;
    const o: Record<string, unknown> = {};
    if (!spec.keyed) o.key = key;
    if (netmask !== undefined) o.netmask = netmask;
    o.doc_count = b.docCount;
    o.is_ipv6 = spec.isIpv6;
    o.prefix_length = spec.prefixLength;
    r.renderAll(spec.aggs, b.aggs, o);
    return { key, o };
  });
  if (spec.keyed) {
    const keyed: Record<string, unknown> = {};
    for (const { key, o } of rendered) keyed[key] = o;
    out.buckets = keyed;
  } else {
    out.buckets = rendered.map((x) => x.o);
  }
}
