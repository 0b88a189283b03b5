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
  return new ShoalError('action_request_validation_exception', reason, 400);
}

export function indexNotFound(index: string): ShoalError {
  return new ShoalError('index_not_found_exception', `no such index [${index}]`, 404, {
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
