/**
 * What an alias must satisfy before it is added (AliasValidator): a single index routing
 * value, and a filter that parses as a query and builds against the mapping of each index
 * the alias is added to. Failures are Elasticsearch's illegal_argument_exception, with the
 * reason the filter failed as its cause.
 */
import { checkQuery } from '@shoal/engine';
import { illegalArgument, isShoalError, parseQuery, type QueryNode, type ShoalError } from '@shoal/protocol';
import type { AliasMetadata, IndexMetadata } from './index-metadata.ts';

/** AliasValidator.validateAliasStandalone: the routing part. */
export function checkIndexRouting(alias: string, a: AliasMetadata): void {
  if (a.indexRouting?.includes(',')) {
    throw illegalArgument(`alias [${alias}] has several index routing values associated with it`);
  }
}

function filterFailure(alias: string, cause: unknown): ShoalError {
  if (!isShoalError(cause)) throw cause;
  // A search reports a query that cannot be built as a query_shard_exception around the cause;
  // the alias validator builds it directly, so the cause is what it reports.
  const reported =
    cause.type === 'query_shard_exception' &&
    cause.causedBy &&
    cause.reason.startsWith('failed to create query')
      ? cause.causedBy
      : cause;
  return illegalArgument(`failed to parse filter for alias [${alias}]`, reported);
}

/** The filter of an alias as a query, or the error that refuses the alias. */
export function parseAliasFilter(alias: string, filter: Record<string, unknown>): QueryNode {
  try {
    return parseQuery(filter);
  } catch (e) {
    throw filterFailure(alias, e);
  }
}

/** AliasValidator.validateAliasFilter: the filter builds against the mapping of `meta`. */
export function checkAliasFilter(alias: string, query: QueryNode, meta: IndexMetadata): void {
  try {
    checkQuery(meta.mapping, query, { index: meta.name, indexUuid: meta.uuid, nowMillis: Date.now() });
  } catch (e) {
    throw filterFailure(alias, e);
  }
}

/** Every check of an alias being added to `meta`. */
export function validateAlias(alias: string, a: AliasMetadata, meta: IndexMetadata): void {
  checkIndexRouting(alias, a);
  if (a.filter) checkAliasFilter(alias, parseAliasFilter(alias, a.filter), meta);
}
