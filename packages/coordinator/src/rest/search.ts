import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { executeCount } from '../search/count-action.ts';
import { clearScrolls, parseClearScrollRequest, parseScrollRequest } from '../search/scroll-request.ts';
import { continueScroll } from '../search/scroll-search.ts';
import { executeSearch, rawHitsFor, withCancel } from '../search/search-action.ts';
import type { NodeServices } from '../services.ts';
import { boolParam } from './params.ts';

const search = (req: RestRequest, s: NodeServices): Promise<RestResponse> => executeSearch(req, s).then(ok);

const NOT_WATCHED = { onDisconnect: () => {} };

function ok(body: unknown): RestResponse {
  return { status: 200, body };
}

const count = async (req: RestRequest, s: NodeServices): Promise<RestResponse> => ({
  status: 200,
  body: await executeCount(req, s),
});

async function scroll(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const startedAt = process.hrtime.bigint();
  const r = parseScrollRequest(req);
  // A continuation is not cancelled when its client leaves: its page is kept to be answered
  // again (scroll-cursor.ts), which a cancelled page would not be (its contexts are freed).
  const body = await withCancel(
    NOT_WATCHED,
    s,
    (cancel) =>
      continueScroll(
        s,
        {
          ...r,
          restTotalHitsAsInt: boolParam(req.query, 'rest_total_hits_as_int', false),
          rawHits: rawHitsFor(req.query),
          delivery: req,
        },
        cancel,
        startedAt,
      ),
    { action: 'indices:data/read/scroll', cancellable: true, description: () => 'scroll' },
  );
  return { status: 200, body };
}

async function clearScroll(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const { status, freed } = await clearScrolls(s, parseClearScrollRequest(req));
  return { status, body: { succeeded: true, num_freed: freed } };
}

export function searchRoutes(): Route<NodeServices>[] {
  const action = 'indices:data/read/search';
  const scrollAction = 'indices:data/read/scroll';
  const clearAction = 'indices:data/read/scroll/clear';
  return [
    { method: 'GET', path: '/_search', action, handler: search },
    { method: 'POST', path: '/_search', action, handler: search },
    { method: 'GET', path: '/:index/_search', action, handler: search },
    { method: 'POST', path: '/:index/_search', action, handler: search },
    { method: 'GET', path: '/_count', action, handler: count },
    { method: 'POST', path: '/_count', action, handler: count },
    { method: 'GET', path: '/:index/_count', action, handler: count },
    { method: 'POST', path: '/:index/_count', action, handler: count },
    { method: 'GET', path: '/_search/scroll', action: scrollAction, handler: scroll },
    { method: 'POST', path: '/_search/scroll', action: scrollAction, handler: scroll },
    { method: 'GET', path: '/_search/scroll/:scroll_id', action: scrollAction, handler: scroll },
    { method: 'POST', path: '/_search/scroll/:scroll_id', action: scrollAction, handler: scroll },
    { method: 'DELETE', path: '/_search/scroll', action: clearAction, handler: clearScroll },
    { method: 'DELETE', path: '/_search/scroll/:scroll_id', action: clearAction, handler: clearScroll },
  ];
}
