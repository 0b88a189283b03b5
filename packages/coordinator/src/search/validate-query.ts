/**
 * `_validate/query` (Elasticsearch's RestValidateQueryAction and TransportValidateQueryAction):
 * whether a query — the body's `query`, or `q` — parses, and builds on each target index's
 * mapping as a shard would build it, without running it. An invalid query is a 200 with
 * `valid: false`; with `explain`, the reason comes as Elasticsearch words it (the exception's
 * Java name and message). A valid query's explanation is its Lucene form (Query#toString): built
 * on the mapping alone, or with `rewrite` on one shard's reader per index (every shard's with
 * `all_shards`, each then named by its `shard`), as the shard's rewritten query prints.
 */
import { checkQuery, describeQuery } from '@shoal/engine';
import {
  isShoalError,
  paramAsBoolean,
  parseCountRequest,
  type QueryNode,
  type ShoalError,
} from '@shoal/protocol';
import type { IndexMetadata } from '../state/index-metadata.ts';

/** `parsing_exception` → `ParsingException`, as Elasticsearch's messages name exceptions. */
function javaName(type: string): string {
  return type
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/** ExceptionsHelper.detailedMessage: `Name[reason]; nested: Cause[reason]`. */
function detailedMessage(e: ShoalError): string {
  let out = `${javaName(e.type)}[${e.reason}]`;
  for (let c = e.causedBy; c; c = c.causedBy) out += `; nested: ${javaName(c.type)}[${c.reason}]`;
  return out;
}

const PACKAGES: Record<string, string> = {
  parsing_exception: 'org.elasticsearch.common.ParsingException',
  x_content_parse_exception: 'org.elasticsearch.xcontent.XContentParseException',
  illegal_argument_exception: 'java.lang.IllegalArgumentException',
};

/** The query's Lucene form on one shard of the index (`rewrite`), or on each shard (`all_shards`). */
export type DescribeOnShards = (
  meta: IndexMetadata,
  query: QueryNode,
  allShards: boolean,
) => Promise<{ shard: number; explanation: string }[]>;

export async function validateQuery(
  body: unknown,
  query: Record<string, string>,
  indices: IndexMetadata[],
  onShards: DescribeOnShards,
): Promise<Record<string, unknown>> {
  const explain = paramAsBoolean(query, 'explain') ?? false;
  const rewrite = paramAsBoolean(query, 'rewrite') ?? false;
  const allShards = paramAsBoolean(query, 'all_shards') ?? false;
  let parsed: ReturnType<typeof parseCountRequest>;
  try {
    parsed = parseCountRequest(body, query, { path: '/_validate/query' });
  } catch (e) {
    if (!isShoalError(e) || e.status >= 500) throw e;
    // The request itself: only `query` is allowed at the top (RestValidateQueryAction).
    if (/^request does not support/.test(e.reason)) {
      const out: Record<string, unknown> = { valid: false };
      if (explain) out.error = `${PACKAGES[e.type] ?? javaName(e.type)}: ${e.reason}`;
      return out;
    }
    const out: Record<string, unknown> = { _shards: { total: 0, successful: 0, failed: 0 }, valid: false };
    if (explain) out.error = detailedMessage(e);
    return out;
  }
  const explanations: Record<string, unknown>[] = [];
  let valid = true;
  let shards = 0;
  for (const meta of indices) {
    const ctx = { index: meta.name, indexUuid: meta.uuid, nowMillis: Date.now() };
    try {
      checkQuery(meta.mapping, parsed.query, ctx);
      if (!explain) {
        explanations.push({ index: meta.name, valid: true });
        shards += allShards ? meta.numberOfShards : 1;
      } else if (rewrite || allShards) {
        const described = await onShards(meta, parsed.query, allShards);
        shards += described.length;
        for (const d of described) {
          const e: Record<string, unknown> = { index: meta.name };
          if (allShards) e.shard = d.shard;
          explanations.push({ ...e, valid: true, explanation: d.explanation });
        }
      } else {
        shards += 1;
        const explanation = describeQuery(null, meta.mapping, parsed.query, ctx);
        explanations.push({ index: meta.name, valid: true, explanation });
      }
    } catch (e) {
      if (!isShoalError(e) || e.status >= 500) throw e;
      valid = false;
      shards += 1;
      explanations.push({
        index: meta.name,
        valid: false,
        error: `[${meta.name}/${meta.uuid}] ${detailedMessage(e)}`,
      });
    }
  }
  const out: Record<string, unknown> = {
    _shards: { total: shards, successful: shards, failed: 0 },
    valid,
  };
  if (explain) out.explanations = explanations;
  return out;
}
