/**
 * One factory per Elasticsearch exception type, with Elasticsearch's status and the extra
 * fields it writes. Reasons are the caller's (they vary by situation); the type, status and
 * metadata layout are fixed here.
 */
import { ShoalError } from './shoal-error.ts';

export function illegalArgument(reason: string, causedBy?: ShoalError): ShoalError {
  return new ShoalError('illegal_argument_exception', reason, 400, {}, causedBy);
}

/** A malformed or unknown query DSL element. `line`/`col` are written when known. */
export function parsingException(reason: string, pos?: { line: number; col: number }): ShoalError {
  return new ShoalError('parsing_exception', reason, 400, pos ? { line: pos.line, col: pos.col } : {});
}

/** `Validation Failed: 1: …;2: …;` */
export function actionRequestValidation(messages: string[]): ShoalError {
  const reason = `Validation Failed: ${messages.map((m, i) => `${i + 1}: ${m};`).join('')}`;
  return new ShoalError('action_request_validation_exception', reason, 400, {}, undefined, {
    validationErrors: messages,
  });
}

/**
 * `detail` completes the reason as IndexNotFoundException(message, index) does:
 * `no such index [x] and [action.auto_create_index] is [false]`.
 */
export function indexNotFound(index: string, detail?: string): ShoalError {
  const reason = detail === undefined ? `no such index [${index}]` : `no such index [${index}] and ${detail}`;
  return new ShoalError('index_not_found_exception', reason, 404, {
    'resource.type': 'index_or_alias',
    'resource.id': index,
    index_uuid: '_na_',
    index,
  });
}

export function mapperParsing(reason: string, causedBy?: ShoalError): ShoalError {
  return new ShoalError('mapper_parsing_exception', reason, 400, {}, causedBy);
}

export function documentParsing(reason: string, causedBy?: ShoalError): ShoalError {
  return new ShoalError('document_parsing_exception', reason, 400, {}, causedBy);
}

export function strictDynamicMapping(reason: string): ShoalError {
  return new ShoalError('strict_dynamic_mapping_exception', reason, 400);
}

/** Raised while executing a query on a shard (unmapped sort field, wrong field type…). */
export function queryShardException(reason: string, index: string, indexUuid: string): ShoalError {
  return new ShoalError('query_shard_exception', reason, 400, { index_uuid: indexUuid, index });
}

export function versionConflict(
  id: string,
  reason: string,
  index: string,
  indexUuid: string,
  shard: number,
): ShoalError {
  return new ShoalError('version_conflict_engine_exception', `[${id}]: ${reason}`, 409, {
    index_uuid: indexUuid,
    shard: String(shard),
    index,
  });
}

/** Tasks cancelled because the client went away. */
export function taskCancelled(reason: string): ShoalError {
  return new ShoalError('task_cancelled_exception', reason, 400);
}

/** `PUT /{index}` on an existing index (ResourceAlreadyExistsException with the Index). */
export function resourceAlreadyExists(index: string, indexUuid: string): ShoalError {
  return new ShoalError(
    'resource_already_exists_exception',
    `index [${index}/${indexUuid}] already exists`,
    400,
    {
      index_uuid: indexUuid,
      index,
    },
  );
}

/** ResourceAlreadyExistsException for something other than an index (`Transform with id [t] already exists`). */
export function resourceAlreadyExistsFor(reason: string): ShoalError {
  return new ShoalError('resource_already_exists_exception', reason, 400);
}

/** `Invalid index name [<name>], <description>`; validateIndexName in values/index-name.ts builds the descriptions. */
export function invalidIndexName(index: string, description: string): ShoalError {
  return new ShoalError(
    'invalid_index_name_exception',
    `Invalid index name [${index}], ${description}`,
    400,
    {
      index_uuid: '_na_',
      index,
    },
  );
}

/** `_update` of a document that does not exist. */
export function documentMissing(id: string, index: string, indexUuid: string, shard: number): ShoalError {
  return new ShoalError('document_missing_exception', `[${id}]: document missing`, 404, {
    index_uuid: indexUuid,
    shard: String(shard),
    index,
  });
}

/** A read or write of a closed index (IndexClosedException). */
export function indexClosed(index: string, indexUuid: string): ShoalError {
  return new ShoalError('index_closed_exception', 'closed', 400, { index_uuid: indexUuid, index });
}

/** `_update` (or a reindex) of a document whose `_source` was not kept (`_source.enabled: false`). */
export function documentSourceMissing(
  id: string,
  index: string,
  indexUuid: string,
  shard: number,
): ShoalError {
  return new ShoalError('document_source_missing_exception', `[${id}]: document source missing`, 400, {
    index_uuid: indexUuid,
    shard: String(shard),
    index,
  });
}

export function resourceNotFound(reason: string): ShoalError {
  return new ShoalError('resource_not_found_exception', reason, 404);
}

/** ElasticsearchParseException; also `request body is required` (see requestBodyRequired). */
export function parseException(reason: string, causedBy?: ShoalError): ShoalError {
  return new ShoalError('parse_exception', reason, 400, {}, causedBy);
}

/** An endpoint that needs a body got none (RestRequest.requiredContent). */
export function requestBodyRequired(): ShoalError {
  return parseException('request body is required');
}

/** Java's IllegalStateException: a bug or an impossible state, hence 500. */
export function illegalState(reason: string, causedBy?: ShoalError): ShoalError {
  return new ShoalError('illegal_state_exception', reason, 500, {}, causedBy);
}

export function unsupportedOperation(reason: string): ShoalError {
  return new ShoalError('unsupported_operation_exception', reason, 500);
}

/**
 * Shoal's own rule: a feature Shoal does not have answers 501 and names what is missing, so a
 * client never mistakes it for a bug (500) or for its own mistake (400). `what` is a noun phrase:
 * `notImplemented('the [geo_shape] query')`.
 */
export function notImplemented(what: string): ShoalError {
  return new ShoalError('unsupported_operation_exception', `${what} is not implemented in Shoal`, 501);
}

/**
 * ClusterBlockException: `index [x] blocked by: [FORBIDDEN/8/index write (api)];`. The status
 * is the blocks' (403), or 429 when every block is a retryable one.
 */
export function clusterBlock(reason: string, status: number): ShoalError {
  return new ShoalError('cluster_block_exception', reason, status);
}

/** RoutingMissingException: a document of an index whose mapping requires `_routing` came without one. */
export function routingMissing(index: string, id: string): ShoalError {
  return new ShoalError('routing_missing_exception', `routing is required for [${index}]/[${id}]`, 400, {
    index_uuid: '_na_',
    index,
  });
}

/** SettingsException (400): malformed settings as a whole, as opposed to one bad value (IAE). */
export function settingsException(reason: string, causedBy?: ShoalError): ShoalError {
  return new ShoalError('settings_exception', reason, 400, {}, causedBy);
}

/** Java's NumberFormatException (an IllegalArgumentException, so 400): `For input string: "abc"`. */
export function numberFormat(input: string): ShoalError {
  return new ShoalError('number_format_exception', `For input string: "${input}"`, 400);
}

/** ElasticsearchTimeoutException. Shoal: 429 as in Elasticsearch 8.17+ (README version policy). */
export function timeoutException(reason: string): ShoalError {
  return new ShoalError('timeout_exception', reason, 429);
}

/** No elected master is known in time (MasterNotDiscoveredException, 503). */
export function masterNotDiscovered(reason: string): ShoalError {
  return new ShoalError('master_not_discovered_exception', reason, 503);
}

/** A full queue (EsRejectedExecutionException). */
export function rejectedExecution(reason: string): ShoalError {
  return new ShoalError('es_rejected_execution_exception', reason, 429);
}

/** A memory breaker tripped; transient breaks are retryable (429), permanent ones are 500. */
export function circuitBreaking(
  reason: string,
  bytesWanted: number,
  bytesLimit: number,
  durability: 'TRANSIENT' | 'PERMANENT' = 'TRANSIENT',
): ShoalError {
  return new ShoalError('circuit_breaking_exception', reason, durability === 'TRANSIENT' ? 429 : 500, {
    bytes_wanted: bytesWanted,
    bytes_limit: bytesLimit,
    durability,
  });
}

/** No copy of a shard can serve the request (NoShardAvailableActionException, 503). */
export function noShardAvailable(
  reason: string,
  shard?: { index: string; indexUuid: string; shard: number },
): ShoalError {
  const metadata = shard
    ? { index_uuid: shard.indexUuid, shard: String(shard.shard), index: shard.index }
    : {};
  return new ShoalError('no_shard_available_action_exception', reason, 503, metadata);
}

/**
 * A shard-failed report from a primary the master has since replaced
 * (ShardStateAction.NoLongerPrimaryShardException): the deposed primary's write fails.
 */
export function noLongerPrimaryShard(reason: string): ShoalError {
  return new ShoalError('no_longer_primary_shard_exception', reason, 500);
}

/**
 * Not enough active copies for a write (UnavailableShardsException, 503):
 * `[<index>][<shard>] <message>`, e.g. `Primary shard is not active Timeout: [1m], request: [...]`.
 */
export function unavailableShards(
  index: string,
  indexUuid: string,
  shard: number,
  message: string,
): ShoalError {
  return new ShoalError('unavailable_shards_exception', `[${index}][${shard}] ${message}`, 503, {
    index_uuid: indexUuid,
    shard: String(shard),
    index,
  });
}

/** A transport action no node registered (ActionNotFoundTransportException). */
export function actionNotFound(action: string): ShoalError {
  return new ShoalError('action_not_found_transport_exception', `No handler for action [${action}]`, 500, {
    action,
  });
}

export * from './catalogue-rest.ts';
export * from './catalogue-search.ts';
export * from './catalogue-security.ts';
