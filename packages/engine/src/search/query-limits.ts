/**
 * The defaults of the index settings that bound what a query may build (IndexSettings):
 * a request's QueryLimits carries only the values an index changed.
 */

/** `index.max_terms_count`: the most values a `terms` query may hold. */
export const DEFAULT_MAX_TERMS_COUNT = 65536;

/** `index.max_regex_length`: the longest pattern a `regexp` query may hold. */
export const DEFAULT_MAX_REGEX_LENGTH = 1000;
