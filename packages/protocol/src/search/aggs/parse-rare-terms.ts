/**
 * The `rare_terms` body (RareTermsAggregationBuilder.PARSER): the values-source fields,
 * `max_doc_count` (1 to 100, default 1), `include`/`exclude` as in terms, and `precision` (the
 * cuckoo filters' false-positive rate; Shoal counts exactly, so it only checks it).
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import type { JsonScalar } from '../../query/ast.ts';
import { doubleValue } from '../../query/xcontent-values.ts';
import type { BodyContext, DraftOf, SpecDraft } from './body-context.ts';
import { longValue, readDeclared, TOKENS } from './object-parser.ts';
import { exactValues } from './parse-terms.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

const MAX_MAX_DOC_COUNT = 100;

export function parseRareTerms(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const draft: SourceDraft = {};
  let maxDocCount = 1;
  let include: JsonScalar[] | undefined;
  let exclude: JsonScalar[] | undefined;
  const regex: { include?: string; exclude?: string } = {};
  const fields = sourceFields(ctx, 'rare_terms', draft, { formattable: true, timeZoneAware: false });
  Object.assign(fields, {
    max_doc_count: {
      tokens: TOKENS.NUMBER,
      read: (v: unknown) => {
        const n = longValue(ctx, v);
        if (n <= 0)
          throw illegalArgument(`[max_doc_count] must be greater than 0. Found [${n}] in [${name}]`);
        // Elasticsearch's own text, spacing included.
        if (n > MAX_MAX_DOC_COUNT) {
          throw illegalArgument(`[max_doc_count] must be smallerthan ${MAX_MAX_DOC_COUNT}in [${name}]`);
        }
        maxDocCount = n;
      },
    },
    precision: {
      tokens: TOKENS.NUMBER,
      read: (v: unknown) => {
        if (doubleValue(ctx, v) < 0.00001) throw illegalArgument('[precision] must be greater than 0.00001');
      },
    },
    include: {
      tokens: TOKENS.OBJECT_ARRAY_OR_STRING,
      read: (v: unknown) => {
        if (typeof v === 'string') regex.include = v;
        else include = exactValues(ctx, v, 'include');
      },
    },
    exclude: {
      tokens: TOKENS.STRING_ARRAY,
      read: (v: unknown) => {
        if (typeof v === 'string') regex.exclude = v;
        else exclude = exactValues(ctx, v, 'exclude');
      },
    },
  });
  const seen = readDeclared(ctx, 'rare_terms', body, fields);
  const spec: DraftOf<'rare_terms'> = { type: 'rare_terms', source: finishSource(draft, seen), maxDocCount };
  if (include !== undefined) spec.include = include;
  if (exclude !== undefined) spec.exclude = exclude;
  if (regex.include !== undefined || regex.exclude !== undefined) spec.regex = regex;
  return spec;
}
