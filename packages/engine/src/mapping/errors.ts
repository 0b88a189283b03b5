/**
 * Mapping errors not covered by the protocol catalogue's factories. Elasticsearch throws
 * MapperException (500) for root `enabled` and nested `include_in_*` conflicts; Shoal answers
 * them 400 illegal_argument_exception (changes78.md §4.3), so those use `illegalArgument`.
 */
import { documentParsing, mapperParsing, ShoalError } from '@shoal/protocol';

export { illegalState, numberFormat } from '@shoal/protocol';

/** PUT _mapping / create index: every parse failure is wrapped like MappingParser does. */
export function failedToParseMapping(cause: ShoalError): ShoalError {
  return mapperParsing(`Failed to parse mapping: ${cause.reason}`, cause);
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
