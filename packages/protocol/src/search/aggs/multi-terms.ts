/**
 * multi_terms across shards and in the response (InternalMultiTerms): the shards' buckets
 * summed by key, cut to `size` in the requested order with `sum_other_doc_count` and the
 * doc-count error as terms has them; a key prints as an array of its values and
 * `key_as_string` as their texts joined with `|`.
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { javaDouble } from '../../values/java-double.ts';
import { pathValue } from './order-path.ts';
import {
  type AggPartial,
  type MultiTermsBucket,
  type MultiTermsPartial,
  RAW_FORMAT,
  type TermsKind,
} from './partial.ts';
import type { Renderer } from './render.ts';
import type { AggSpec, BucketOrder, MultiTermsSpec } from './spec.ts';
import { compareDoubles, compareKeys, ipText, valueText } from './value-text.ts';

type Key = string | number | bigint;
type Merge = (subs: readonly AggSpec[], parts: readonly (readonly AggPartial[])[]) => AggPartial[];

const NUMERIC: ReadonlySet<TermsKind> = new Set(['long', 'double', 'date', 'bool']);

export function emptyMultiTerms(spec: MultiTermsSpec): MultiTermsPartial {
  return {
    t: 'multi_terms',
    kinds: spec.terms.map(() => 'string'),
    formats: spec.terms.map(() => RAW_FORMAT),
    buckets: [],
    otherDocCount: 0,
    docCountError: 0,
  };
}

/** Per source, the kind of the merged keys: doubles where shards disagree on numeric kinds. */
function mergedKinds(spec: MultiTermsSpec, parts: readonly MultiTermsPartial[]): TermsKind[] {
  const withBuckets = parts.filter((p) => p.buckets.length > 0);
  const from = withBuckets.length > 0 ? withBuckets : parts.slice(0, 1);
  return spec.terms.map((_, i) => {
    const kinds = new Set(from.map((p) => p.kinds[i]!));
    if (kinds.size <= 1) return kinds.values().next().value ?? 'string';
    if ([...kinds].every((k) => NUMERIC.has(k))) return 'double';
    throw illegalArgument(
      `Merging/Reducing the aggregations failed when computing the aggregation [${spec.name}] because the field ` +
        'you gave in the aggregation query existed as two different types in two different indices',
    );
  });
}

export function mergeMultiTerms(
  spec: MultiTermsSpec,
  parts: readonly MultiTermsPartial[],
  merge: Merge,
): MultiTermsPartial {
  if (parts.length === 0) return emptyMultiTerms(spec);
  const kinds = mergedKinds(spec, parts);
  const byKey = new Map<
    string,
    { key: Key[]; docCount: number; presentError: number; aggs: AggPartial[][] }
  >();
  let otherDocCount = 0;
  let docCountError = 0;
  for (const p of parts) {
    otherDocCount += p.otherDocCount;
    docCountError = docCountError === -1 || p.docCountError === -1 ? -1 : docCountError + p.docCountError;
    for (const b of p.buckets) {
      const key = b.key.map((k, i) => (kinds[i] === 'double' ? Number(k) : k));
      const id = JSON.stringify(key.map((k) => (typeof k === 'bigint' ? `${k}n` : k)));
      const acc = byKey.get(id);
      if (acc) {
        acc.docCount += b.docCount;
        acc.presentError += b.presentError;
        acc.aggs.push(b.aggs as AggPartial[]);
      } else {
        byKey.set(id, {
          key,
          docCount: b.docCount,
          presentError: b.presentError,
          aggs: [b.aggs as AggPartial[]],
        });
      }
    }
  }
  const buckets: MultiTermsBucket[] = [...byKey.values()].map((acc) => ({
    key: acc.key,
    docCount: acc.docCount,
    presentError: acc.presentError,
    aggs: merge(spec.aggs, acc.aggs),
  }));
  const formatted = parts.find((p) => p.buckets.length > 0) ?? parts[0]!;
  const formats = formatted.formats.map((f, i) => (kinds[i] === 'double' ? RAW_FORMAT : f));
  return { t: 'multi_terms', kinds, formats, buckets, otherDocCount, docCountError };
}

interface Ordered {
  readonly key: readonly Key[];
  readonly docCount: number;
  readonly aggs: readonly AggPartial[];
}

/** The order of multi_terms buckets; keys compare value by value. */
export function multiTermsComparator(
  orders: readonly BucketOrder[],
  subs: readonly AggSpec[],
): (a: Ordered, b: Ordered) => number {
  return (a, b) => {
    for (const o of orders) {
      let c = 0;
      if (o.kind === 'count') c = a.docCount - b.docCount;
      else if (o.kind === 'key') {
        for (let i = 0; i < a.key.length && c === 0; i++) c = compareKeys(a.key[i]!, b.key[i]!);
      } else c = compareDoubles(pathValue(o.path, subs, a.aggs), pathValue(o.path, subs, b.aggs));
      if (c !== 0) return o.asc ? c : -c;
    }
    return 0;
  };
}

export function renderMultiTerms(
  r: Renderer,
  spec: MultiTermsSpec,
  p: MultiTermsPartial,
  out: Record<string, unknown>,
): void {
  const kept = p.buckets.filter((b) => b.docCount >= spec.minDocCount);
  kept.sort(multiTermsComparator(spec.order, spec.aggs));
  let other = p.otherDocCount;
  for (let i = spec.size; i < kept.length; i++) other += kept[i]!.docCount;
  const top = kept.slice(0, spec.size);
  r.consumeBuckets(top.length);
  out.doc_count_error_upper_bound = p.docCountError;
  out.sum_other_doc_count = other;
  out.buckets = top.map((b) => {
    const o: Record<string, unknown> = {};
    const keys: unknown[] = [];
    const texts: string[] = [];
    b.key.forEach((k, i) => {
      const kind = p.kinds[i]!;
      const fmt = p.formats[i]!;
      if (kind === 'string') {
        keys.push(k);
        texts.push(String(k));
      } else if (kind === 'ip') {
        const ip = ipText(k as string);
        keys.push(ip);
        texts.push(ip);
      } else {
        // KeyConverter LONG/DOUBLE: the value through its format (a date's text, a boolean).
        const t = valueText(Number(k), fmt, r.dates);
        if (fmt.kind === 'bool') keys.push(Number(k) !== 0);
        else if (t !== undefined) keys.push(t);
        else keys.push(kind === 'double' ? r.double(Number(k)) : k);
        texts.push(t ?? (kind === 'double' ? javaDouble(Number(k)) : String(k)));
      }
    });
    o.key = keys;
    o.key_as_string = texts.join('|');
    o.doc_count = b.docCount;
    if (spec.showTermDocCountError) {
      o.doc_count_error_upper_bound = p.docCountError === -1 ? -1 : p.docCountError - b.presentError;
    }
    r.renderAll(spec.aggs, b.aggs, o);
    return o;
  });
}
