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

/** How many cells a matrix of `n` filters has: each filter and each pair of them. */
export function adjacencyCells(n: number): number {
  return n + (n * (n - 1)) / 2;
}

/** The first pair cell of row i (pairs (i, j > i) follow the n filters, row by row). */
export function adjacencyRowStart(n: number, i: number): number {
  return n + i * (n - 1) - (i * (i - 1)) / 2;
}

/** The key of a cell: a filter's key, or `a<separator>b` for a pair. */
export function adjacencyCellKey(spec: AdjacencyMatrixSpec, cell: number): string {
  const keys = spec.filters;
  const n = keys.length;
  if (cell < n) return keys[cell]!.key;
  let i = 0;
  while (i + 1 < n && adjacencyRowStart(n, i + 1) <= cell) i++;
  const j = i + 1 + (cell - adjacencyRowStart(n, i));
  return `${keys[i]!.key}${spec.separator}${keys[j]!.key}`;
}

type Merge = (subs: readonly AggSpec[], parts: readonly (readonly AggPartial[])[]) => AggPartial[];

export function mergeAdjacency(
  spec: AdjacencyMatrixSpec,
  parts: readonly AdjacencyMatrixPartial[],
  merge: Merge,
): AdjacencyMatrixPartial {
  const byCell = new Map<number, { docCount: number; aggs: (readonly AggPartial[])[] }>();
  for (const p of parts) {
    for (const b of p.buckets) {
      const acc = byCell.get(b.cell);
      if (acc) {
        acc.docCount += b.docCount;
        acc.aggs.push(b.aggs);
      } else byCell.set(b.cell, { docCount: b.docCount, aggs: [b.aggs] });
    }
  }
  const buckets = [...byCell]
    .sort((a, b) => a[0] - b[0])
    .map(([cell, acc]) => ({ cell, docCount: acc.docCount, aggs: merge(spec.aggs, acc.aggs) }));
  return { t: 'adjacency_matrix', buckets };
}

export function renderAdjacency(
  r: Renderer,
  spec: AdjacencyMatrixSpec,
  p: AdjacencyMatrixPartial,
  out: Record<string, unknown>,
): void {
  const kept = p.buckets
    .filter((b) => b.docCount > 0)
    .map((b) => ({ key: adjacencyCellKey(spec, b.cell), b }))
    .sort((x, y) => compareText(x.key, y.key));
  r.consumeBuckets(kept.length);
  out.buckets = kept.map(({ key, b }) => {
    const o: Record<string, unknown> = { key, doc_count: b.docCount };
    r.renderAll(spec.aggs, b.aggs, o);
    return o;
  });
}
