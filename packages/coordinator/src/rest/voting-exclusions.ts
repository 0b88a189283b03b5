/**
 * Voting-config exclusions (changes78.md §2): `POST /_cluster/voting_config_exclusions` with
 * exactly one of `node_names` and `node_ids`, the deprecated `POST …/{node_name}` (node
 * descriptions, two `Warning` headers), and `DELETE` with `wait_for_removal`. The request is
 * checked here, resolved once against this node's state (Elasticsearch checks before and again
 * inside the master's task), carried out by the master, and the POST then waits (`timeout`,
 * 30 s) until no excluded node is left in the committed voting configuration.
 */
import {
  describeExclusion,
  type ExclusionRequest,
  resolveExclusions,
  type VotingConfigExclusion,
  withExclusionsAdded,
} from '@shoal/cluster';
import { illegalArgument, parseTimeValue, timeoutException } from '@shoal/protocol';
import type { RestRequest, RestResponse, Route } from '../http/rest-types.ts';
import type { NodeServices } from '../services.ts';
import { boolParam } from './params.ts';

const ROUTE_DEPRECATION =
  'POST /_cluster/voting_config_exclusions/{node_name} will be removed in a future version. ' +
  'Please use POST /_cluster/voting_config_exclusions?node_ids=... or POST /_cluster/voting_config_exclusions?node_names=... instead.';
const DESCRIPTION_DEPRECATION =
  'nodeDescription is deprecated and will be removed, use nodeIds or nodeNames instead';

/** Strings.splitStringByCommaToArray: empty entries dropped. */
const list = (v: string | undefined) => (v ?? '').split(',').filter((x) => x !== '');

function timeParam(req: RestRequest, name: string, dflt: number): number {
  const raw = req.query[name];
  if (raw === undefined) return dflt;
  const ms = parseTimeValue(raw, name);
  if (ms < 0) throw illegalArgument(`${name} [${raw}] must be non-negative`);
  return ms;
}

function exclusionRequest(req: RestRequest): ExclusionRequest {
  const descriptions = list(req.params.node_name);
  const names = list(req.query.node_names);
  const ids = list(req.query.node_ids);
  const set = [descriptions, names, ids].filter((l) => l.length > 0).length;
  if (set !== 1) {
    throw illegalArgument(
      'Please set node identifiers correctly. One and only one of [node_name], [node_names] and [node_ids] has to be set',
    );
  }
  if (descriptions.length > 0) return { nodeDescriptions: descriptions };
  return names.length > 0 ? { nodeNames: names } : { nodeIds: ids };
}

async function addExclusions(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  if (req.params.node_name !== undefined) req.warnings.push(ROUTE_DEPRECATION, DESCRIPTION_DEPRECATION);
  const request = exclusionRequest(req);
  const timeoutMs = timeParam(req, 'timeout', 30_000);
  const masterTimeoutMs = timeParam(req, 'master_timeout', 30_000);
  // Checked here first (unknown descriptions, the limit), as Elasticsearch's transport action does.
  const state = s.cluster.state();
  withExclusionsAdded(state, request);
  const wanted: VotingConfigExclusion[] = resolveExclusions(state, request);
  const started = Date.now();
  await s.cluster.execute({ op: 'add_voting_config_exclusions', request }, masterTimeoutMs, req.signal);
  const ids = new Set(wanted.map((e) => e.nodeId));
  const done = await s.cluster.waitForState(
    (st) =>
      wanted.every((w) =>
        st.coordination.exclusions.some((e) => e.nodeName === w.nodeName || e.nodeId === w.nodeId),
      ) && !st.coordination.lastCommittedConfig.some((id) => ids.has(id)),
    timeoutMs - (Date.now() - started),
    req.signal,
  );
  if (!done) {
    throw timeoutException(
      `timed out waiting for voting config exclusions [${wanted.map(describeExclusion).join(', ')}] to take effect`,
    );
  }
  return { status: 200, body: {} };
}

async function clearExclusions(req: RestRequest, s: NodeServices): Promise<RestResponse> {
  const waitForRemoval = boolParam(req.query, 'wait_for_removal', true);
  const timeoutMs = timeParam(req, 'timeout', 30_000);
  const masterTimeoutMs = timeParam(req, 'master_timeout', 30_000);
  if (waitForRemoval) {
    const gone = (st: ReturnType<typeof s.cluster.state>) =>
      !st.coordination.exclusions.some((e) => e.nodeId in st.nodes);
    const ok = await s.cluster.waitForState(gone, timeoutMs, req.signal);
    if (!ok) {
      const pending = s.cluster.state().coordination.exclusions.map(describeExclusion).join(', ');
      throw timeoutException(
        `timed out waiting for removal of nodes; if nodes should not be removed, set waitForRemoval to false. [${pending}]`,
      );
    }
  }
  await s.cluster.execute({ op: 'clear_voting_config_exclusions' }, masterTimeoutMs, req.signal);
  return { status: 200, body: {} };
}

export function votingExclusionRoutes(): Route<NodeServices>[] {
  const path = '/_cluster/voting_config_exclusions';
  return [
    { method: 'POST', path, action: 'cluster:admin/voting_config/add_exclusions', handler: addExclusions },
    {
      method: 'POST',
      path: `${path}/:node_name`,
      action: 'cluster:admin/voting_config/add_exclusions',
      handler: addExclusions,
    },
    {
      method: 'DELETE',
      path,
      action: 'cluster:admin/voting_config/clear_exclusions',
      handler: clearExclusions,
    },
  ];
}
