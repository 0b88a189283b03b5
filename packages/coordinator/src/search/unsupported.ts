/**
 * Search features the protocol layer parses but Shoal does not execute yet. They are refused
 * with a 501 naming what is missing — never silently dropped, which would return wrong results.
 */
import { notImplemented, type SearchRequest } from '@shoal/protocol';

const IGNORED_KEY_FEATURES: Record<string, string> = {
  highlight: 'highlighting',
  script_fields: 'script_fields',
  suggest: 'suggesters',
  ext: 'search extensions (ext)',
  runtime_mappings: 'runtime_mappings',
  indices_boost: 'indices_boost',
};

export function refuseUnsupported(req: SearchRequest): void {
  if (req.collapse !== undefined) throw notImplemented('field collapsing (collapse)');
  if (req.rescore !== undefined) throw notImplemented('rescoring (rescore)');
  if (req.explain) throw notImplemented('explain');
  if (req.profile) throw notImplemented('profile');
  if (req.terminateAfter !== undefined) throw notImplemented('terminate_after');
  for (const key of req.ignoredKeys ?? []) {
    const feature = IGNORED_KEY_FEATURES[key];
    if (feature) throw notImplemented(feature);
  }
}
