/**
 * `_validate/query` (Elasticsearch's RestValidateQueryAction and TransportValidateQueryAction):
 * whether a query — the body's `query`, or `q` — parses, and builds on each target index's
 * mapping as a shard would build it, without running it. An invalid query is a 200 with
 * `valid: false`; with `explain`, the reason comes as Elasticsearch words it (the exception's
 * Java name and message). The Lucene form of a valid query (`explanations[].explanation`) is not
 * produced yet: `explain` on a valid query answers 501.
 */
import { checkQuery } from '@shoal/engine';
import { isShoalError, notImplemented, parseCountRequest, type ShoalError } from '@shoal/protocol';
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

export function validateQuery(
  body: unknown,
  query: Record<string, string>,
  indices: IndexMetadata[],
): Record<string, unknown> {
  const explain = query.explain === 'true' || query.explain === '';
  if (query.rewrite === 'true') throw notImplemented('[rewrite] in _validate/query (query rewriting)');
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
  for (const meta of indices) {
    try {
      checkQuery(meta.mapping, parsed.query, {
        index: meta.name,
        indexUuid: meta.uuid,
        nowMillis: Date.now(),
      });
      explanations.push({ index: meta.name, valid: true });
    } catch (e) {
      if (!isShoalError(e) || e.status >= 500) throw e;
      valid = false;
      explanations.push({
        index: meta.name,
        valid: false,
        error: `[${meta.name}/${meta.uuid}] ${detailedMessage(e)}`,
      });
    }
  }
  if (explain && valid)
    throw notImplemented('query explanations (explain=true on a valid query) in _validate/query');
  const out: Record<string, unknown> = {
    _shards: { total: indices.length, successful: indices.length, failed: 0 },
    valid,
  };
  if (explain) out.explanations = explanations;
  return out;
}
