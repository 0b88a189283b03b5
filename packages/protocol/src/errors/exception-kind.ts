/**
 * Elasticsearch treats its own exceptions (subclasses of ElasticsearchException) differently
 * from plain Java and library exceptions when it guesses root causes
 * (ElasticsearchException.guessRootCauses): it walks down `caused_by` only through its own
 * exceptions, and it wraps a Java exception in a fresh object, which is why a
 * search_phase_execution_exception caused by an IllegalArgumentException shows a doubled
 * `caused_by`. These are the types, by wire name, that are NOT Elasticsearch exceptions.
 */
const JAVA_EXCEPTION_TYPES: ReadonlySet<string> = new Set([
  'exception',
  'illegal_argument_exception',
  'illegal_state_exception',
  'unsupported_operation_exception',
  'number_format_exception',
  'null_pointer_exception',
  'array_index_out_of_bounds_exception',
  'index_out_of_bounds_exception',
  'string_index_out_of_bounds_exception',
  'arithmetic_exception',
  'class_cast_exception',
  'runtime_exception',
  'i_o_exception',
  'e_o_f_exception',
  'rejected_execution_exception',
  // EsRejectedExecutionException extends java.util.concurrent.RejectedExecutionException.
  'es_rejected_execution_exception',
  // The x-content library's exceptions extend IllegalArgumentException.
  'x_content_parse_exception',
  'x_content_e_o_f_exception',
  'named_object_not_found_exception',
  // Jackson's.
  'json_parse_exception',
  'json_e_o_f_exception',
  'input_coercion_exception',
  // RestRequest.MediaTypeHeaderException and the compressor's NotXContentException are RuntimeExceptions.
  'media_type_header_exception',
  'not_x_content_exception',
]);

export function isElasticsearchType(type: string): boolean {
  return !JAVA_EXCEPTION_TYPES.has(type);
}

/** XContentParseException (and its EOF subclass) unwraps to a parse or Elasticsearch cause. */
export function isXContentParseType(type: string): boolean {
  return type === 'x_content_parse_exception' || type === 'x_content_e_o_f_exception';
}
