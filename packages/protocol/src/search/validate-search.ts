/**
 * SearchRequest.validate (with SearchSourceBuilder.validate), Elasticsearch 8.x: every problem is
 * collected, in this order, into one `action_request_validation_exception`.
 */
import { actionRequestValidation } from '../errors/catalogue.ts';
import type { ShoalError } from '../errors/shoal-error.ts';
import { type SearchSource, TRACK_TOTAL_HITS_ACCURATE_VALUE } from './search-body.ts';

export interface SearchContextFlags {
  scroll: boolean;
  pit: boolean;
  requestCache: boolean | undefined;
}

export function validateSearch(s: SearchSource, flags: SearchContextFlags): ShoalError | undefined {
  const errors: string[] = [];
  const from = s.from ?? 0;
  const hasSearchAfter = s.searchAfter !== undefined && s.searchAfter.length > 0;
  if (flags.scroll) {
    if (s.trackTotalHitsUpTo !== undefined && s.trackTotalHitsUpTo !== TRACK_TOTAL_HITS_ACCURATE_VALUE) {
      errors.push('disabling [track_total_hits] is not allowed in a scroll context');
    }
    if (from > 0) errors.push('using [from] is not allowed in a scroll context');
    if (s.size === 0) errors.push('[size] cannot be [0] in a scroll context');
    if (s.rescore !== undefined && s.rescore.length > 0)
      errors.push('using [rescore] is not allowed in a scroll context');
    if (hasSearchAfter) errors.push('[search_after] cannot be used in a scroll context');
    if (s.collapse !== undefined) errors.push('cannot use `collapse` in a scroll context');
  }
  if (s.slice !== undefined && !flags.pit && !flags.scroll) {
    errors.push('[slice] can only be used with [scroll] or [point-in-time] requests');
  }
  if (from > 0 && hasSearchAfter)
    errors.push('[from] parameter must be set to 0 when [search_after] is used');
  if (s.storedFields !== undefined && !s.storedFields.fetch) {
    if (s.source?.enabled) errors.push('[stored_fields] cannot be disabled if [_source] is requested');
    if (s.fetchFields !== undefined)
      errors.push('[stored_fields] cannot be disabled when using the [fields] option');
  }
  if (flags.scroll && flags.requestCache === true)
    errors.push('[request_cache] cannot be used in a scroll context');
  if (flags.pit && flags.scroll) errors.push('using [point in time] is not allowed in a scroll context');
  if (!flags.pit && s.sort !== undefined) {
    for (const spec of s.sort) {
      if (spec.kind === 'shard_doc')
        errors.push('[_shard_doc] sort field cannot be used without [point in time]');
    }
  }
  return errors.length > 0 ? actionRequestValidation(errors) : undefined;
}
