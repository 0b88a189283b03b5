/**
 * The extension-information API (changes78.md §1.6): `GET|HEAD /_ext` with `categories`
 * (`build`, `license`, `features`, `_all`, `_none`) and `GET /_ext/usage`. Unlike `/_license`,
 * `/_ext` shows the license's real type and mode — an enterprise license reads `enterprise` —
 * and accepts `accept_enterprise` without effect.
 */
import { illegalArgument, SHOAL_BUILD_HASH } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { featureStates } from '../license/ext-features.ts';
import { licenseExtView } from '../license/license.ts';
import type { NodeServices } from '../services.ts';
import { BUILD_DATE } from './cluster.ts';
import { boolParam } from './params.ts';

type Category = 'build' | 'license' | 'features';
const CATEGORIES: readonly Category[] = ['build', 'license', 'features'];

/** XPackInfoRequest.Category.toSet: `_all` and `_none` win; other names must be categories. */
function categoriesParam(v: string | undefined): Set<Category> {
  const names = (v ?? '_all').split(',').map((n) => n.trim());
  const out = new Set<Category>();
  for (const n of names) {
    if (n === '_all') return new Set(CATEGORIES);
    if (n === '_none') return new Set();
    const found = CATEGORIES.find((c) => c === n.toLowerCase());
    if (!found) {
      throw illegalArgument(
        `No enum constant org.elasticsearch.protocol.ext.ExtInfoRequest.Category.${n.toUpperCase()}`,
      );
    }
    out.add(found);
  }
  return out;
}

function extInfo(req: RestRequest, s: NodeServices): RestResponse {
  // Verbosity rides on `human`, which defaults to true here (RestXPackInfoAction).
  const verbose = boolParam(req.query, 'human', true);
  boolParam(req.query, 'accept_enterprise', false);
  const categories = categoriesParam(req.query.categories);
  const now = s.license.clock();
  const license = s.license.current();
  const body: Record<string, unknown> = {};
  if (categories.has('build')) body.build = { hash: SHOAL_BUILD_HASH, date: BUILD_DATE };
  if (categories.has('license'))
    body.license = licenseExtView(license, { now, human: boolParam(req.query, 'human', false) });
  if (categories.has('features')) body.features = featureStates(license, now);
  if (verbose) body.tagline = 'You know, for X';
  return { status: 200, body };
}

/** XPackUsageResponse: per feature its availability and whether it is on. */
function extUsage(_req: RestRequest, s: NodeServices): RestResponse {
  return { status: 200, body: featureStates(s.license.current(), s.license.clock()) };
}

export function extInfoRoutes(): Route<NodeServices>[] {
  return [
    { method: 'GET', path: '/_ext', action: 'cluster:monitor/ext/info', handler: extInfo },
    { method: 'HEAD', path: '/_ext', action: 'cluster:monitor/ext/info', handler: extInfo },
    { method: 'GET', path: '/_ext/usage', action: 'cluster:monitor/ext/usage', handler: extUsage },
  ];
}
