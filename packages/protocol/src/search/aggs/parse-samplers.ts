/**
 * The `sampler` body (SamplerAggregationBuilder: `shard_size`, default 100) and the
 * `diversified_sampler` body (DiversifiedAggregationBuilder: the values-source fields,
 * `shard_size`, `max_docs_per_value` (default 1) and `execution_hint`).
 */
import { illegalArgument } from '../../errors/catalogue.ts';
import { intValue, text } from '../../query/xcontent-values.ts';
import type { BodyContext, SpecDraft } from './body-context.ts';
import { readDeclared, TOKENS } from './object-parser.ts';
import { finishSource, type SourceDraft, sourceFields } from './values-source.ts';

const DEFAULT_SHARD_SIZE = 100;
const EXECUTION_HINTS = ['map', 'global_ordinals', 'bytes_hash'];

function atLeastZero(field: string, value: number, name: string): number {
  if (value < 0)
    throw illegalArgument(`[${field}] must be greater than or equal to 0. Found [${value}] in [${name}]`);
  return value;
}

export function parseSampler(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  let shardSize = DEFAULT_SHARD_SIZE;
  readDeclared(ctx, 'sampler', body, {
    shard_size: {
      tokens: TOKENS.NUMBER,
      read: (v) => (shardSize = atLeastZero('shardSize', intValue(ctx, v), name)),
    },
  });
  return { type: 'sampler', shardSize };
}

export function parseDiversifiedSampler(b: BodyContext, body: Record<string, unknown>): SpecDraft {
  const { ctx, name } = b;
  const draft: SourceDraft = {};
  let shardSize = DEFAULT_SHARD_SIZE;
  let maxDocsPerValue = 1;
  const seen = readDeclared(ctx, 'diversified_sampler', body, {
    ...sourceFields(ctx, 'diversified_sampler', draft, { formattable: false, timeZoneAware: false }),
    shard_size: {
      tokens: TOKENS.NUMBER,
      read: (v) => (shardSize = atLeastZero('shardSize', intValue(ctx, v), name)),
    },
    max_docs_per_value: {
      tokens: TOKENS.NUMBER,
      read: (v) => (maxDocsPerValue = atLeastZero('maxDocsPerValue', intValue(ctx, v), name)),
    },
    execution_hint: {
      tokens: TOKENS.STRING,
      read: (v) => {
        const hint = text(ctx, v);
        if (!EXECUTION_HINTS.includes(hint)) {
          throw illegalArgument(
            `Unknown \`execution_hint\`: [${hint}], expected any of [${EXECUTION_HINTS.join(', ')}]`,
          );
        }
      },
    },
  });
  return { type: 'diversified_sampler', source: finishSource(draft, seen), shardSize, maxDocsPerValue };
}
