/**
 * Date errors as Elasticsearch words them. `parse_exception` (ElasticsearchParseException, 400)
 * has no factory in the protocol catalogue, so it is built here.
 */
import { illegalArgument, ShoalError } from '@shoal/protocol';

/** java.time's DateTimeParseException, carried as the cause of the ES-level error. */
export function dateTimeParseException(reason: string): ShoalError {
  return new ShoalError('date_time_parse_exception', reason, 400);
}

/** `failed to parse date field [v] with format [f]` (IllegalArgumentException from DateFormatter.parse). */
export function failedToParseDate(value: string, format: string, cause: string): ShoalError {
  return illegalArgument(
    `failed to parse date field [${value}] with format [${format}]`,
    dateTimeParseException(cause),
  );
}

/** ElasticsearchParseException: date math failures and range-bound parse failures. */
export function parseException(reason: string, causedBy?: ShoalError): ShoalError {
  return new ShoalError('parse_exception', reason, 400, {}, causedBy);
}
