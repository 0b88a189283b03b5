/**
 * The routing of a single-document operation addressed to an alias (Metadata.resolveIndexRouting
 * and resolveWriteIndexRouting): the alias's `index_routing` routes the document, and a request
 * that names a different routing is refused.
 */
import { illegalArgument } from '@shoal/protocol';
import type { AliasMetadata } from '../state/index-metadata.ts';

export function aliasIndexRouting(
  routing: string | undefined,
  aliasName: string,
  alias: AliasMetadata | undefined,
): string | undefined {
  const aliasRouting = alias?.indexRouting;
  if (aliasRouting === undefined) return routing;
  if (aliasRouting.includes(',')) {
    throw illegalArgument(
      `index/alias [${aliasName}] provided with routing value [${aliasRouting}] that resolved to several routing values, rejecting operation`,
    );
  }
  // An empty routing is no routing (IndexRequest.routing).
  if (routing !== undefined && routing !== '' && routing !== aliasRouting) {
    throw illegalArgument(
      `Alias [${aliasName}] has index routing associated with it [${aliasRouting}], and was provided with routing value [${routing}], rejecting operation`,
    );
  }
  return aliasRouting;
}
