/** Date errors as Elasticsearch words them. */
import { illegalArgument, ShoalError } from '@shoal/protocol';

export { parseException } from '@shoal/protocol';

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
