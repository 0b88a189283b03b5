/**
 * Mapping errors not covered by the protocol catalogue's factories. Elasticsearch throws
 * MapperException (500) for root `enabled` and nested `include_in_*` conflicts; Shoal answers
 * them 400 illegal_argument_exception (changes78.md §4.3), so those use `illegalArgument`.
 */
import { documentParsing, mapperParsing, ShoalError } from '@shoal/protocol';

/** PUT _mapping / create index: every parse failure is wrapped like MappingParser does. */
export function failedToParseMapping(cause: ShoalError): ShoalError {
  return mapperParsing(`Failed to parse mapping: ${cause.reason}`, cause);
}

export function numberFormat(reason: string): ShoalError {
  return new ShoalError('number_format_exception', reason, 400);
}

export function illegalState(reason: string): ShoalError {
  return new ShoalError('illegal_state_exception', reason, 500);
}

/** `[line:col] reason`, as DocumentParsingException prefixes a known location. */
export function documentParsingAt(location: string | null, reason: string, cause?: ShoalError): ShoalError {
  return documentParsing(location ? `[${location}] ${reason}` : reason, cause);
}

export function strictDynamicAt(location: string | null, reason: string): ShoalError {
  return new ShoalError(
    'strict_dynamic_mapping_exception',
    location ? `[${location}] ${reason}` : reason,
    400,
  );
}
