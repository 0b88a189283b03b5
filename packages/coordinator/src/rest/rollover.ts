/** `POST /{alias}/_rollover` and `POST /{alias}/_rollover/{new_index}` (state/rollover.ts). */
import { parseRolloverRequest } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { rollover } from '../state/rollover.ts';
import { allShardStats } from './index-stats.ts';
import { boolParam } from './params.ts';

async function handler(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const body = parseRolloverRequest(req.json());
  const result = await rollover(s, req.params.target!, req.params.new_index, body, {
    dryRun: boolParam(req.query, 'dry_run', false),
    stats: () => allShardStats(s),
  });
  return { status: 200, body: result };
}

export function rolloverRoutes(): Route<NodeServices>[] {
  const action = 'indices:admin/rollover';
  return [
    { method: 'POST', path: '/:target/_rollover', action, handler },
    { method: 'POST', path: '/:target/_rollover/:new_index', action, handler },
  ];
}
