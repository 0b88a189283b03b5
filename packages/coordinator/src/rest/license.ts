/**
 * The license APIs (changes78.md §1.1–§1.5): `GET|PUT|POST|DELETE /_license`,
 * `GET /_license/basic_status|trial_status`, `POST /_license/start_basic|start_trial`, each also
 * under its deprecated `/_ext/license…` path.
 */
import { illegalArgument } from '@shoal/protocol';
import { withReplaced } from '../http/deprecated-route.ts';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import { type License, licenseRestView, parseLicense } from '../license/license.ts';
import type { NodeServices } from '../services.ts';
import { boolParam } from './params.ts';

/**
 * RestGetLicenseAction: pretty-printed unless the request says otherwise, and an enterprise
 * license shown as platinum unless `accept_enterprise=true`.
 */
function getLicense(req: RestRequest, s: NodeServices): RestResponse {
  boolParam(req.query, 'local', false);
  const hideEnterprise = !boolParam(req.query, 'accept_enterprise', false);
  const human = boolParam(req.query, 'human', false);
  const license = s.license.current();
  return {
    status: 200,
    body: { license: licenseRestView(license, { now: s.license.clock(), hideEnterprise, human }) },
    pretty: true,
  };
}

/**
 * PutLicenseRequest: `{"license":{…}}`, or the older `{"licenses":[…]}` whose most recently
 * issued entry is the one installed.
 */
function licenseFromBody(body: unknown): License {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw illegalArgument('The license must be provided in the request body');
  }
  const o = body as Record<string, unknown>;
  if ('license' in o) return parseLicense(o.license);
  if (Array.isArray(o.licenses) && o.licenses.length > 0) {
    const all = o.licenses.map(parseLicense);
    return all.reduce((a, b) => (b.issue_date_in_millis >= a.issue_date_in_millis ? b : a));
  }
  throw illegalArgument('The license must be provided in the request body');
}

function putLicense(req: RestRequest, s: NodeServices): RestResponse {
  const acknowledge = boolParam(req.query, 'acknowledge', false);
  if (req.body === undefined || req.body.length === 0) {
    throw illegalArgument('The license must be provided in the request body');
  }
  const license = licenseFromBody(req.json());
  if (license.type === 'basic') {
    throw illegalArgument(
      'Installing basic licenses is no longer allowed. Use the POST /_license/start_basic API to install a basic license that does not expire.',
    );
  }
  return { status: 200, body: s.license.put(license, acknowledge) };
}

function deleteLicense(_req: RestRequest, s: NodeServices): RestResponse {
  s.license.delete();
  return { status: 200, body: { acknowledged: true } };
}

function basicStatus(_req: RestRequest, s: NodeServices): RestResponse {
  return { status: 200, body: { eligible_to_start_basic: s.license.basicEligible() } };
}

function trialStatus(_req: RestRequest, s: NodeServices): RestResponse {
  return { status: 200, body: { eligible_to_start_trial: s.license.trialEligible() } };
}

function startBasic(req: RestRequest, s: NodeServices): RestResponse {
  return s.license.startBasic(boolParam(req.query, 'acknowledge', false));
}

function startTrial(req: RestRequest, s: NodeServices): RestResponse {
  return s.license.startTrial(boolParam(req.query, 'acknowledge', false), req.query.type ?? 'trial');
}

export function licenseRoutes(): Route<NodeServices>[] {
  const route = (
    method: Route<NodeServices>['method'],
    path: string,
    action: string,
    handler: Route<NodeServices>['handler'],
  ): Route<NodeServices>[] =>
    withReplaced({ method, path: `/_license${path}`, action, handler }, `/_ext/license${path}`);
  return [
    ...route('GET', '', 'cluster:monitor/ext/license/get', getLicense),
    ...route('PUT', '', 'cluster:admin/ext/license/put', putLicense),
    ...route('POST', '', 'cluster:admin/ext/license/put', putLicense),
    ...route('DELETE', '', 'cluster:admin/ext/license/delete', deleteLicense),
    ...route('GET', '/basic_status', 'cluster:admin/ext/license/basic_status', basicStatus),
    ...route('GET', '/trial_status', 'cluster:admin/ext/license/trial_status', trialStatus),
    ...route('POST', '/start_basic', 'cluster:admin/ext/license/start_basic', startBasic),
    ...route('POST', '/start_trial', 'cluster:admin/ext/license/start_trial', startTrial),
  ];
}
