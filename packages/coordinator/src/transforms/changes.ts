/**
 * What changed since the last checkpoint of a continuous transform (Elasticsearch's
 * CompositeBucketsChangeCollector): the documents whose sync time field falls between the last
 * checkpoint's upper bound and the new one are grouped by the transform's own keys, and the
 * keys they reach become a filter — a `terms` filter per terms key, a lower bound per
 * histogram key — so that the next pass recomputes only the buckets (or latest documents) those
 * documents belong to, each of them whole.
 */
import type { LatestConfig } from './latest-config.ts';
import type { PivotConfig } from './pivot-config.ts';

/** Above this many changed terms of one key, that key is not filtered on (TermsQuery's limit). */
const MAX_TERMS = 65_536;
const CHANGES_AGG = '_changes';

interface ChangeSource {
  name: string;
  field: string;
  kind: 'terms' | 'date_histogram' | 'histogram';
  body: Record<string, unknown>;
}

export function changeSources(
  pivot: PivotConfig | undefined,
  latest: LatestConfig | undefined,
): ChangeSource[] {
  if (latest) {
    return latest.uniqueKey.map((field, i) => ({ name: `k${i}`, field, kind: 'terms', body: { field } }));
  }
  const out: ChangeSource[] = [];
  for (const g of pivot?.groups ?? []) {
    if (g.field === undefined || g.type === 'geotile_grid' || g.body.script !== undefined) continue;
    out.push({ name: g.name, field: g.field, kind: g.type, body: { ...g.body, missing_bucket: true } });
  }
  return out;
}

export function changesPageBody(
  sources: ChangeSource[],
  changedQuery: Record<string, unknown>,
  size: number,
  after: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const composite: Record<string, unknown> = {
    size,
    sources: sources.map((c) => ({ [c.name]: { [c.kind]: c.body } })),
  };
  if (after) composite.after = after;
  return { size: 0, query: changedQuery, aggregations: { [CHANGES_AGG]: { composite } } };
}

/** Collects one page of changed keys; returns the next position (undefined: done). */
export class ChangeCollector {
  private readonly terms = new Map<string, Set<unknown>>();
  private readonly min = new Map<string, number>();
  private readonly max = new Map<string, number>();
  private readonly unfiltered = new Set<string>();

  constructor(readonly sources: ChangeSource[]) {}

  collect(response: Record<string, unknown>): Record<string, unknown> | undefined {
    const agg = (response.aggregations as Record<string, unknown> | undefined)?.[CHANGES_AGG] as
      | { buckets?: { key: Record<string, unknown> }[]; after_key?: Record<string, unknown> }
      | undefined;
    const buckets = agg?.buckets ?? [];
    for (const b of buckets) {
      for (const c of this.sources) {
        const v = b.key[c.name];
        if (v === null || v === undefined) {
          // A document without the key belongs to the missing bucket: no filter can reach it.
          this.unfiltered.add(c.name);
          continue;
        }
        if (c.kind === 'terms') {
          const set = this.terms.get(c.name) ?? new Set();
          this.terms.set(c.name, set);
          if (set.size < MAX_TERMS) set.add(v);
          else this.unfiltered.add(c.name);
        } else if (typeof v === 'number') {
          this.min.set(c.name, Math.min(this.min.get(c.name) ?? v, v));
          this.max.set(c.name, Math.max(this.max.get(c.name) ?? v, v));
        }
      }
    }
    return buckets.length === 0 ? undefined : agg?.after_key;
  }

  /** Whether any document changed at all. */
  get any(): boolean {
    return this.terms.size > 0 || this.min.size > 0 || this.unfiltered.size > 0;
  }

  /** The filter that reaches every changed bucket whole. */
  filters(): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (const c of this.sources) {
      if (this.unfiltered.has(c.name)) continue;
      if (c.kind === 'terms') {
        const set = this.terms.get(c.name);
        if (set) out.push({ terms: { [c.field]: [...set] } });
      } else {
        const lo = this.min.get(c.name);
        if (lo === undefined) continue;
        // A bucket starts at its key: every document of the lowest changed bucket is at or above it.
        out.push({
          range: {
            [c.field]: c.kind === 'date_histogram' ? { gte: lo, format: 'epoch_millis' } : { gte: lo },
          },
        });
      }
    }
    return out;
  }
}
