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

/** What significant_terms and significant_text share, as read from the body. */
interface Significance {
  size: number;
  shardSize: number | undefined;
  minDocCount: number;
  shardMinDocCount: number;
  include: JsonScalar[] | undefined;
  exclude: JsonScalar[] | undefined;
  regex: { include?: string; exclude?: string };
  heuristic: SignificanceHeuristic;
  backgroundFilter: QueryNode | undefined;
}

/** The fields both significance aggregations declare, writing into `st`. */
function significanceFields(ctx: ParseCtx, name: string, st: Significance): Record<string, DeclaredField> {
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
  return {
    size: { tokens: TOKENS.NUMBER, read: (v) => (st.size = count('size', intValue(ctx, v), 1)) },
    shard_size: {
      tokens: TOKENS.NUMBER,
      read: (v) => (st.shardSize = count('shardSize', intValue(ctx, v), 1)),
    },
    min_doc_count: { tokens: TOKENS.NUMBER, read: (v) => (st.minDocCount = count('minDocCount', v, 0)) },
    shard_min_doc_count: {
      tokens: TOKENS.NUMBER,
      read: (v) => (st.shardMinDocCount = count('shardMinDocCount', v, 0)),
    },
    execution_hint: { tokens: TOKENS.STRING, read: (v) => text(ctx, v) },
    include: {
      tokens: TOKENS.OBJECT_ARRAY_OR_STRING,
      read: (v) => {
        if (typeof v === 'string') st.regex.include = v;
        else st.include = exactValues(ctx, v, 'include');
      },
    },
    exclude: {
      tokens: TOKENS.STRING_ARRAY,
      read: (v) => {
        if (typeof v === 'string') st.regex.exclude = v;
        else st.exclude = exactValues(ctx, v, 'exclude');
      },
    },
    background_filter: object((v) => (st.backgroundFilter = parseInnerQuery(ctx, v))),
    jlh: object((v) => {
      readDeclared(ctx, 'jlh', v, {});
      st.heuristic = { kind: 'jlh' };
    }),
    percentage: object((v) => {
      readDeclared(ctx, 'percentage', v, {});
      st.heuristic = { kind: 'percentage' };
    }),
    mutual_information: object((v) => (st.heuristic = nxyHeuristic(ctx, 'mutual_information', v))),
    chi_square: object((v) => (st.heuristic = nxyHeuristic(ctx, 'chi_square', v))),
    gnd: object((v) => {
      let backgroundIsSuperset = true;
      readDeclared(ctx, 'gnd', v, {
        background_is_superset: {
          tokens: TOKENS.BOOLEAN,
          read: (x) => (backgroundIsSuperset = booleanValue(ctx, x)),
        },
      });
      st.heuristic = { kind: 'gnd', backgroundIsSuperset };
    }),
    script_heuristic: object(() => {
      throw notImplemented('the [script_heuristic] significance heuristic');
    }),
  };
}

function newSignificance(): Significance {
  return {
    size: 10,
    shardSize: undefined,
    minDocCount: 3,
    shardMinDocCount: 0,
    include: undefined,
    exclude: undefined,
    regex: {},
    heuristic: { kind: 'jlh' },
    backgroundFilter: undefined,
  };
}

/** The spec fields both share, defaults resolved. */
function finishSignificance(st: Significance) {
  const out: {
    size: number;
    shardSize: number;
    minDocCount: number;
    shardMinDocCount: number;
    heuristic: SignificanceHeuristic;
    backgroundFilter?: QueryNode;
    include?: JsonScalar[];
    exclude?: JsonScalar[];
    regex?: { include?: string; exclude?: string };
  } = {
    size: st.size,
    // Significance is judged late: shards send twice what terms would (SignificantTermsAggregatorFactory).
    shardSize: Math.max(st.shardSize ?? 2 * suggestShardSize(st.size), st.size),
    minDocCount: st.minDocCount,
    shardMinDocCount: st.shardMinDocCount,
    heuristic: st.heuristic,
  };
  if (st.backgroundFilter !== undefined) out.backgroundFilter = st.backgroundFilter;
  if (st.include !== undefined) out.include = st.include;
  if (st.exclude !== undefined) out.exclude = st.exclude;
  if (st.regex.include !== undefined || st.regex.exclude !== undefined) out.regex = st.regex;
  return out;
}

export function parseSignificantTerms(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const draft: SourceDraft = {};
  const st = newSignificance();
  const seen = readDeclared(ctx, 'significant_terms', body, {
    ...sourceFields(ctx, 'significant_terms', draft, { formattable: true, timeZoneAware: false }),
    ...significanceFields(ctx, name, st),
  });
  const spec: DraftOf<'significant_terms'> = {
    type: 'significant_terms',
    source: finishSource(draft, seen),
    ...finishSignificance(st),
  };
  return spec;
}

/**
 * The `significant_text` body (SignificantTextAggregationBuilder.PARSER): `field` (required),
 * `source_fields`, `filter_duplicate_text` (501 when on) and the fields significant_terms has
 * besides its values source.
 */
export function parseSignificantText(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const st = newSignificance();
  let field: string | undefined;
  let sourceFieldNames: string[] | undefined;
  readDeclared(ctx, 'significant_text', body, {
    field: { tokens: TOKENS.STRING, read: (v) => (field = text(ctx, v)) },
    source_fields: {
      tokens: TOKENS.STRING_ARRAY,
      read: (v) => (sourceFieldNames = (Array.isArray(v) ? v : [v]).map((x, i) => text(ctx, x, i))),
    },
    filter_duplicate_text: {
      tokens: TOKENS.BOOLEAN,
      read: (v) => {
        if (booleanValue(ctx, v))
          throw notImplemented('[filter_duplicate_text] in the [significant_text] aggregation');
      },
    },
    ...significanceFields(ctx, name, st),
  });
  if (field === undefined) throw illegalArgument(`[field] must not be null: [${name}]`);
  const spec: DraftOf<'significant_text'> = { type: 'significant_text', field, ...finishSignificance(st) };
  if (sourceFieldNames !== undefined) spec.sourceFields = sourceFieldNames;
  return spec;
}
