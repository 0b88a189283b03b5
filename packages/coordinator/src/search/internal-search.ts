/**
 * A search the node runs for itself (data stream stats, …) through the same `_search` action
 * a client's goes through, as a request of its own with no connection behind it.
 */
import { parseJson, stringifyJsonBytes } from '@shoal/protocol';
import type { RestRequest } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { executeSearch } from './search-action.ts';

const noop = () => {};

export async function internalSearch(
  s: NodeServices,
  index: string,
  body: Record<string, unknown>,
  query: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const bytes = Buffer.from(JSON.stringify(body));
  const req: RestRequest = {
    method: 'POST',
    path: `/${index}/_search`,
    params: { index },
    // `filter_path` keeps the response an object (hits are not written straight to bytes).
    query: { filter_path: '*', ...query },
    body: bytes,
    json: () => body,
    signal: new AbortController().signal,
    onDisconnect: noop,
    onUndelivered: noop,
    warnings: [],
    headers: {},
  };
  const out = await executeSearch(req, s);
  return parseJson(stringifyJsonBytes(out)) as Record<string, unknown>;
}
