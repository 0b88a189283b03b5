/**
 * The `multi_terms` body (MultiTermsAggregationBuilder.PARSER): `terms`, two or more field
 * sources (MultiValuesSourceFieldConfig: field, missing, format, time_zone), and the terms
 * bucket settings: size, shard_size, min_doc_count, shard_min_doc_count, order,
 * show_term_doc_count_error, collect_mode.
 */
import { illegalArgument, notImplemented, parseException } from '../../errors/catalogue.ts';
import { here, type ParseCtx } from '../../query/parse-context.ts';
import { booleanValue, intValue, text } from '../../query/xcontent-values.ts';
import type { BodyContext, DraftOf, SpecDraft } from './body-context.ts';
import { COUNT_DESC_KEY_ASC, readOrder } from './bucket-order.ts';
import { longValue, readDeclared, TOKENS } from './object-parser.ts';
import { suggestShardSize } from './parse-terms.ts';
import type { BucketOrder, ValuesSourceSpec } from './spec.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

export function parseMultiTerms(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  let terms: ValuesSourceSpec[] | undefined;
  let size = 10;
  let shardSize: number | undefined;
  let minDocCount = 1;
  let shardMinDocCount = 0;
  let order: readonly BucketOrder[] = COUNT_DESC_KEY_ASC;
  let showError = false;
  const atLeast = (what: string, n: number, min: number) => {
    if (n < min) {
      const bound = min === 0 ? 'greater than or equal to 0' : 'greater than 0';
      throw illegalArgument(`[${what}] must be ${bound}. Found [${n}] in [${name}]`);
    }
  };
  readDeclared(ctx, 'multi_terms', body, {
    terms: { tokens: TOKENS.ARRAY, read: (v: unknown) => (terms = readSources(ctx, v)) },
    size: {
      tokens: TOKENS.NUMBER,
      read: (v: unknown) => {
        size = intValue(ctx, v);
        atLeast('size', size, 1);
      },
    },
    shard_size: {
      tokens: TOKENS.NUMBER,
      read: (v: unknown) => {
        shardSize = intValue(ctx, v);
        atLeast('shardSize', shardSize, 1);
      },
    },
    min_doc_count: {
      tokens: TOKENS.NUMBER,
      read: (v: unknown) => {
        minDocCount = longValue(ctx, v);
        atLeast('minDocCount', minDocCount, 0);
      },
    },
    shard_min_doc_count: {
      tokens: TOKENS.NUMBER,
      read: (v: unknown) => {
        shardMinDocCount = longValue(ctx, v);
        atLeast('shardMinDocCount', shardMinDocCount, 0);
      },
    },
    show_term_doc_count_error: {
      tokens: TOKENS.BOOLEAN,
      read: (v: unknown) => (showError = booleanValue(ctx, v)),
    },
    collect_mode: { tokens: TOKENS.STRING, read: (v: unknown) => collectMode(ctx, text(ctx, v)) },
    order: { tokens: TOKENS.OBJECT_ARRAY, read: (v: unknown) => (order = readOrder(ctx, v, b.warnings)) },
  });
  if (terms === undefined || terms.length < 2) {
    throw illegalArgument(
      `The [terms] parameter in the aggregation [${name}] must be present and have at least 2 fields or scripts.`,
    );
  }
  if (minDocCount === 0) throw notImplemented('[min_doc_count] 0 in a multi_terms aggregation');
  const spec: DraftOf<'multi_terms'> = {
    type: 'multi_terms',
    terms,
    size,
    shardSize: Math.max(shardSize ?? suggestShardSize(size), size),
    minDocCount,
    shardMinDocCount,
    order,
    showTermDocCountError: showError,
  };
  return spec;
}

function readSources(ctx: ParseCtx, v: unknown): ValuesSourceSpec[] {
  return (v as unknown[]).map((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      here(ctx, 'value', i);
      throw parseException('[terms] must be an array of objects');
    }
    const draft: SourceDraft = {};
    const fields = sourceFields(ctx, 'multi_terms', draft, { formattable: true, timeZoneAware: true });
    // A term source has no value_type.
    delete fields.value_type;
    const seen = readDeclared(ctx, 'field_config', item as Record<string, unknown>, fields);
    return finishSource(draft, seen);
  });
}

function collectMode(ctx: ParseCtx, v: string): void {
  if (v === 'depth_first' || v === 'breadth_first') return;
  here(ctx, 'value');
  throw parseException(`no [collect_mode] found for value [${v}]`);
}
