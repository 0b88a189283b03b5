/**
 * The `significant_terms` body (SignificantTermsAggregationBuilder.PARSER): the values-source
 * fields, size (10), shard_size, min_doc_count (3), shard_min_doc_count (0), include/exclude as
 * in terms, `background_filter` (a query), `execution_hint`, and one significance heuristic —
 * `jlh` (the default), `mutual_information`, `chi_square`, `gnd` or `percentage`;
 * `script_heuristic` answers 501.
 */
import { illegalArgument, notImplemented } from '../../errors/catalogue.ts';
import type { JsonScalar, QueryNode } from '../../query/ast.ts';
import type { ParseCtx } from '../../query/parse-context.ts';
import { parseInnerQuery } from '../../query/parse-query.ts';
import { booleanValue, intValue, text } from '../../query/xcontent-values.ts';
import type { BodyContext, DraftOf, SpecDraft } from './body-context.ts';
import { type DeclaredField, longValue, readDeclared, TOKENS } from './object-parser.ts';
import { exactValues, suggestShardSize } from './parse-terms.ts';
import type { SignificanceHeuristic } from './spec.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

function nxyHeuristic(
  ctx: ParseCtx,
  kind: 'mutual_information' | 'chi_square',
  body: Record<string, unknown>,
): SignificanceHeuristic {
  let includeNegatives = false;
  let backgroundIsSuperset = true;
  readDeclared(ctx, kind, body, {
    include_negatives: { tokens: TOKENS.BOOLEAN, read: (v) => (includeNegatives = booleanValue(ctx, v)) },
    background_is_superset: {
      tokens: TOKENS.BOOLEAN,
      read: (v) => (backgroundIsSuperset = booleanValue(ctx, v)),
    },
  });
  return { kind, includeNegatives, backgroundIsSuperset };
}

export function parseSignificantTerms(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const draft: SourceDraft = {};
  let size = 10;
  let shardSize: number | undefined;
  let minDocCount = 3;
  let shardMinDocCount = 0;
  let include: JsonScalar[] | undefined;
  let exclude: JsonScalar[] | undefined;
  const regex: { include?: string; exclude?: string } = {};
  let heuristic: SignificanceHeuristic = { kind: 'jlh' };
  let backgroundFilter: QueryNode | undefined;
  const count = (field: string, v: unknown, least: number) => {
    const n = longValue(ctx, v);
    if (n < least) {
      const relation = least === 0 ? 'greater than or equal to 0' : 'greater than 0';
      throw illegalArgument(`[${field}] must be ${relation}. Found [${n}] in [${name}]`);
    }
    return n;
  };
  const object = (read: (v: Record<string, unknown>) => void): DeclaredField => ({
    tokens: TOKENS.OBJECT,
    read: (v) => read(v as Record<string, unknown>),
  });
  const seen = readDeclared(ctx, 'significant_terms', body, {
    ...sourceFields(ctx, 'significant_terms', draft, { formattable: true, timeZoneAware: false }),
    size: { tokens: TOKENS.NUMBER, read: (v) => (size = count('size', intValue(ctx, v), 1)) },
    shard_size: { tokens: TOKENS.NUMBER, read: (v) => (shardSize = count('shardSize', intValue(ctx, v), 1)) },
    min_doc_count: { tokens: TOKENS.NUMBER, read: (v) => (minDocCount = count('minDocCount', v, 0)) },
    shard_min_doc_count: {
      tokens: TOKENS.NUMBER,
      read: (v) => (shardMinDocCount = count('shardMinDocCount', v, 0)),
    },
    execution_hint: { tokens: TOKENS.STRING, read: (v) => text(ctx, v) },
    include: {
      tokens: TOKENS.OBJECT_ARRAY_OR_STRING,
      read: (v) => {
        if (typeof v === 'string') regex.include = v;
        else include = exactValues(ctx, v, 'include');
      },
    },
    exclude: {
      tokens: TOKENS.STRING_ARRAY,
      read: (v) => {
        if (typeof v === 'string') regex.exclude = v;
        else exclude = exactValues(ctx, v, 'exclude');
      },
    },
    background_filter: object((v) => (backgroundFilter = parseInnerQuery(ctx, v))),
    jlh: object((v) => {
      readDeclared(ctx, 'jlh', v, {});
      heuristic = { kind: 'jlh' };
    }),
    percentage: object((v) => {
      readDeclared(ctx, 'percentage', v, {});
      heuristic = { kind: 'percentage' };
    }),
    mutual_information: object((v) => (heuristic = nxyHeuristic(ctx, 'mutual_information', v))),
    chi_square: object((v) => (heuristic = nxyHeuristic(ctx, 'chi_square', v))),
    gnd: object((v) => {
      let backgroundIsSuperset = true;
      readDeclared(ctx, 'gnd', v, {
        background_is_superset: {
          tokens: TOKENS.BOOLEAN,
          read: (x) => (backgroundIsSuperset = booleanValue(ctx, x)),
        },
      });
      heuristic = { kind: 'gnd', backgroundIsSuperset };
    }),
    script_heuristic: object(() => {
      throw notImplemented('the [script_heuristic] significance heuristic');
    }),
  });
  const spec: DraftOf<'significant_terms'> = {
    type: 'significant_terms',
    source: finishSource(draft, seen),
    size,
    // Significance is judged late: shards send twice what terms would (SignificantTermsAggregatorFactory).
    shardSize: Math.max(shardSize ?? 2 * suggestShardSize(size), size),
    minDocCount,
    shardMinDocCount,
    heuristic,
  };
  if (backgroundFilter !== undefined) spec.backgroundFilter = backgroundFilter;
  if (include !== undefined) spec.include = include;
  if (exclude !== undefined) spec.exclude = exclude;
  if (regex.include !== undefined || regex.exclude !== undefined) spec.regex = regex;
  return spec;
}
