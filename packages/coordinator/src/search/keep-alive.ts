/**
 * Keep-alives of PITs and scrolls (SearchService.checkKeepAliveLimit): no longer than
 * `search.max_keep_alive`, else an illegal_argument_exception on every shard the request
 * reaches, reported as Elasticsearch reports shard failures (paging.md §2.2 #47).
 */
import { formatTimeValue, getTimeMs, illegalArgument, type ShoalError } from '@shoal/protocol';
import type { NodeServices } from '../services.ts';

/** The keep-alive error, or undefined when `keepAliveMs` is within the limit. */
export function keepAliveTooLarge(s: NodeServices, keepAliveMs: number): ShoalError | undefined {
  const max = getTimeMs(s.clusterSettings.effective(), 'search.max_keep_alive');
  if (keepAliveMs <= max) return undefined;
  return illegalArgument(
    `Keep alive for request (${formatTimeValue(keepAliveMs)}) is too large. It must be less than (${formatTimeValue(max)}). ` +
      'This limit can be set by changing the [search.max_keep_alive] cluster level setting.',
  );
}

/** How often leases and contexts past their keep-alive are reaped (`search.keep_alive_interval`). */
export function reapIntervalMs(s: NodeServices): number {
  return getTimeMs(s.clusterSettings.effective(), 'search.keep_alive_interval');
}
