/**
 * Search features the protocol layer parses but Shoal does not execute yet. They are refused
 * with a 501 naming what is missing — never silently dropped, which would return wrong results.
 */
import { refuseUnhighlightable } from '@shoal/engine';
import { notImplemented, type SearchRequest } from '@shoal/protocol';
import { collapseField } from './collapse.ts';

// `script_fields` beyond `index.max_script_fields` are refused per index (shard-request.ts).
const IGNORED_KEY_FEATURES: Record<string, string> = {
  suggest: 'suggesters',
  ext: 'search extensions (ext)',
};

export function refuseUnsupported(req: SearchRequest): void {
  if (req.collapse !== undefined) collapseField(req);
  if (req.explain) refuseUnexplained(req);
  if (req.profile) throw notImplemented('profile');
  // A scroll keeps no terminate_after for its later pages, which would then read on past the limit.
  if (req.terminateAfter !== undefined && req.scrollKeepAliveMs !== undefined)
    throw notImplemented('terminate_after with scroll');
  if (req.terminateAfter !== undefined && req.collapse !== undefined)
    throw notImplemented('terminate_after with collapse');
  if (req.highlight) refuseUnhighlighted(req);
  for (const key of req.ignoredKeys ?? []) {
    const feature = IGNORED_KEY_FEATURES[key];
    if (feature) throw notImplemented(feature);
  }
}

/** Queries whose highlighting Shoal cannot reproduce exactly answer 501 before any shard work. */
function refuseUnhighlighted(req: SearchRequest): void {
  refuseUnhighlightable(req.query);
  const hl = req.highlight!;
  for (const o of [hl.global, ...hl.fields.map((f) => f.options)]) {
    if (o.highlightQuery) refuseUnhighlightable(o.highlightQuery);
  }
}

/**
 * `explain` is given by the fetch phase (explain-fetch.ts): a scroll's pages are fetched by the
 * scroll steps themselves, and rescored or knn scores are not the query's.
 */
function refuseUnexplained(req: SearchRequest): void {
  if (req.scrollKeepAliveMs !== undefined) throw notImplemented('explain with scroll');
  if (req.rescore?.length) throw notImplemented('explain with rescore');
  if (req.knn) throw notImplemented('explain with a top-level [knn] search');
}
