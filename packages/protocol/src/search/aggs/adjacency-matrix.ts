/**
 * adjacency_matrix (AdjacencyMatrixAggregationBuilder, InternalAdjacencyMatrix): the body —
 * named `filters` (kept sorted by name, whatever the request's order) and a `separator` — and,
 * across shards, one bucket per filter and per pair of filters, merged by position. The
 * response lists only the buckets holding docs, ordered by key (`A`, `A&B`, `B`, …).
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import type { QueryNode } from '../../query/ast.ts';
import { illegalStateError } from '../../query/local-errors.ts';
import { isObject } from '../../query/parse-context.ts';
import { parseInnerQuery } from '../../query/parse-query.ts';
import { text } from '../../query/xcontent-values.ts';
import type { BodyContext, SpecDraft } from './body-context.ts';
import { readDeclared, TOKENS } from './object-parser.ts';
import type { AggPartial } from './partial.ts';
import type { AdjacencyMatrixPartial } from './partial-more-buckets.ts';
import type { Renderer } from './render.ts';
import type { AdjacencyMatrixSpec, AggSpec } from './spec.ts';
import { compareText } from './value-text.ts';

/**
 * Lucene's IndexSearcher.getMaxClauseCount, which bounds the filters: Elasticsearch 8 sizes it
 * from the heap; Shoal takes the value a node with a few GB of heap has.
 */
export const MAX_ADJACENCY_FILTERS = 4096;

export function parseAdjacencyMatrix(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  let separator = '&';
  let filters: { key: string; query: QueryNode }[] = [];
  readDeclared(ctx, 'adjacency_matrix', body, {
    separator: { tokens: TOKENS.STRING, read: (v) => (separator = text(ctx, v)) },
    filters: {
      tokens: TOKENS.OBJECT,
      read: (v) => {
        if (!isObject(v)) return;
        filters = Object.keys(v).map((key) => {
          ctx.path.push(key);
          const query = parseInnerQuery(ctx, v[key]);
          ctx.path.pop();
          return { key, query };
        });
      },
    },
  });
  if (filters.length === 0) throw illegalStateError(`[${name}] is missing : filters parameter`);
  if (filters.length > MAX_ADJACENCY_FILTERS) {
    throw illegalArgument(
      `Number of filters is too large, must be less than or equal to: [${MAX_ADJACENCY_FILTERS}] but was ` +
        `[${filters.length}].  You can increase this limit by scaling up your java heap`,
    );
  }
  filters.sort((x, y) => compareText(x.key, y.key));
  return { type: 'adjacency_matrix', filters, separator };
}

/** The keys of the buckets in partial order: each filter, then each pair (i < j) as `i<sep>j`. */
export function adjacencyKeys(spec: AdjacencyMatrixSpec): string[] {
  const keys = spec.filters.map((f) => f.key);
  const out = [...keys];
  for (let i = 0; i < keys.length; i++) {
    for (let j = i + 1; j < keys.length; j++) out.push(`${keys[i]}${spec.separator}${keys[j]}`);
  }
  return out;
}

type Merge = (subs: readonly AggSpec[], parts: readonly (readonly AggPartial[])[]) => AggPartial[];

export function mergeAdjacency(
  spec: AdjacencyMatrixSpec,
  parts: readonly AdjacencyMatrixPartial[],
  merge: Merge,
): AdjacencyMatrixPartial {
  const width = Math.max(...parts.map((p) => p.buckets.length));
  const buckets = Array.from({ length: width }, (_, i) => {
    const present = parts.filter((p) => p.buckets[i] !== undefined).map((p) => p.buckets[i]!);
    return {
      docCount: present.reduce((n, b) => n + b.docCount, 0),
      aggs: merge(
        spec.aggs,
        present.map((b) => b.aggs),
      ),
    };
  });
  return { t: 'adjacency_matrix', buckets };
}

export function emptyAdjacency(
  spec: AdjacencyMatrixSpec,
  empty: (s: AggSpec) => AggPartial,
): AdjacencyMatrixPartial {
  const aggs = spec.aggs.map(empty);
  return { t: 'adjacency_matrix', buckets: adjacencyKeys(spec).map(() => ({ docCount: 0, aggs })) };
}

export function renderAdjacency(
  r: Renderer,
  spec: AdjacencyMatrixSpec,
  p: AdjacencyMatrixPartial,
  out: Record<string, unknown>,
): void {
  const keys = adjacencyKeys(spec);
  const kept = p.buckets
    .map((b, i) => ({ key: keys[i]!, b }))
    .filter((x) => x.b.docCount > 0)
    .sort((x, y) => compareText(x.key, y.key));
  r.consumeBuckets(kept.length);
  out.buckets = kept.map(({ key, b }) => {
    const o: Record<string, unknown> = { key, doc_count: b.docCount };
    r.renderAll(spec.aggs, b.aggs, o);
    return o;
  });
}
